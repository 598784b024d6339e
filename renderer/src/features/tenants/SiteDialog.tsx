import { useState } from 'react';
import type { Site, SitePatch } from '../../../../server/contract';

import { useFormSubmit } from '../../lib/form-submit';
import { tenantsApi } from './api';
import {
  type DialogProps,
  EditorDialog,
  type EditorTexts,
  SelectField,
  TextField,
  TimeZoneOptions,
} from '../../ui';

// A site's address and contact are free-form objects in the API; the console keeps to a few plain keys and leaves
// any other keys it finds untouched.

type AddressKey = 'street' | 'city' | 'region' | 'postalCode' | 'country';
type ContactKey = 'name' | 'email' | 'phone';

/** The address fields (`site-<key>`) in form order, with what the browser may fill them from. */
const ADDRESS_FIELDS: Array<{ key: AddressKey; label: string; autoComplete: string; full?: boolean }> = [
  { key: 'street', label: 'Street', autoComplete: 'street-address', full: true },
  { key: 'city', label: 'City', autoComplete: 'address-level2' },
  { key: 'postalCode', label: 'Postal code', autoComplete: 'postal-code' },
  { key: 'region', label: 'State or region', autoComplete: 'address-level1' },
  { key: 'country', label: 'Country', autoComplete: 'country-name' },
];

/** The on-site contact fields (`site-contact-<key>`). */
const CONTACT_FIELDS: Array<{ key: ContactKey; label: string; type: string }> = [
  { key: 'name', label: 'Name', type: 'text' },
  { key: 'email', label: 'Email', type: 'email' },
  { key: 'phone', label: 'Phone', type: 'tel' },
];

function text(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

/** Street on the first line; city, region, postal code and country on the second. */
export function addressLines(address: Record<string, unknown>): string[] {
  const street = text(address.street) || text(address.line1);
  const cityLine = [text(address.city), text(address.region)].filter(Boolean).join(', ');
  const place = [cityLine, text(address.postalCode)].filter(Boolean).join(' ');
  const second = [place, text(address.country)].filter(Boolean).join(' · ');
  return [street, second].filter(Boolean);
}

export function contactLine(contact: Record<string, unknown>): { primary: string; secondary: string } | null {
  const name = text(contact.name);
  const email = text(contact.email);
  const phone = text(contact.phone);
  const primary = name || email || phone;
  if (!primary) return null;
  const secondary = [email, phone].filter((v) => v && v !== primary).join(' · ');
  return { primary, secondary };
}

/** Strip empty strings and lay the form's keys over the stored object. */
function merged(base: Record<string, unknown>, values: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(values)) {
    if (value.trim()) out[key] = value.trim();
    else delete out[key];
  }
  return out;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const SITE_DIALOG: EditorTexts = { idPrefix: 'site', createTitle: 'Add site', createLabel: 'Add site' };

export function SiteDialog({
  orgId,
  site,
  onClose,
  onDone,
}: { orgId: string; site: Site | null } & DialogProps<Site>) {
  const creating = site === null;
  const [name, setName] = useState(site?.name ?? '');
  const [timezone, setTimezone] = useState(site?.timezone ?? 'UTC');
  const [address, setAddress] = useState<Record<AddressKey, string>>(() => ({
    street: text(site?.address.street) || text(site?.address.line1),
    city: text(site?.address.city),
    region: text(site?.address.region),
    postalCode: text(site?.address.postalCode),
    country: text(site?.address.country),
  }));
  const [contact, setContact] = useState<Record<ContactKey, string>>(() => ({
    name: text(site?.contact.name),
    email: text(site?.contact.email),
    phone: text(site?.contact.phone),
  }));
  const check = useFormSubmit({
    name: !name.trim() ? 'Name is required' : name.trim().length > 255 ? 'At most 255 characters' : undefined,
    contactEmail:
      contact.email.trim() && !EMAIL.test(contact.email.trim()) ? 'Not an email address' : undefined,
  });

  const { show, serverFields } = check;

  const save = check.submit(async () => {
    const nextAddress = merged(site?.address ?? {}, address);
    if (site && 'line1' in nextAddress && nextAddress.street) delete nextAddress.line1;
    const nextContact = merged(site?.contact ?? {}, contact);
    let saved: Site;
    if (creating) {
      saved = await tenantsApi.createSite({
        orgId,
        name: name.trim(),
        timezone,
        address: nextAddress,
        contact: nextContact,
      });
    } else {
      const body: SitePatch = {};
      if (name.trim() !== site.name) body.name = name.trim();
      if (timezone !== site.timezone) body.timezone = timezone;
      if (JSON.stringify(nextAddress) !== JSON.stringify(site.address)) body.address = nextAddress;
      if (JSON.stringify(nextContact) !== JSON.stringify(site.contact)) body.contact = nextContact;
      if (Object.keys(body).length === 0) {
        onClose();
        return;
      }
      saved = await tenantsApi.updateSite(site.id, body);
    }
    onDone(saved);
  });

  return (
    <EditorDialog texts={SITE_DIALOG} editing={site} state={check} onSubmit={save} onClose={onClose}>
      <div className="adm-form-grid">
        <TextField
          id="site-name"
          label="Name"
          type="text"
          maxLength={255}
          autoFocus
          {...check.bound('name', name, setName)}
        />
        <SelectField
          id="site-timezone"
          label="Time zone"
          error={serverFields.timezone}
          hint="Local time for schedules and maintenance windows at this site"
          value={timezone}
          onChange={setTimezone}
        >
          <TimeZoneOptions current={timezone} />
        </SelectField>
      </div>

      <div className="adm-form-section">
        <h3>Address</h3>
        <div className="adm-form-grid">
          {ADDRESS_FIELDS.map(({ key, label, autoComplete, full }) => (
            <div key={key} className={full ? 'full' : undefined}>
              <TextField
                id={`site-${key}`}
                label={label}
                type="text"
                autoComplete={autoComplete}
                value={address[key]}
                onChange={(v) => setAddress((a) => ({ ...a, [key]: v }))}
              />
            </div>
          ))}
        </div>
      </div>

      <div className="adm-form-section">
        <h3>On-site contact</h3>
        <div className="adm-form-grid three">
          {CONTACT_FIELDS.map(({ key, label, type }) => (
            <TextField
              key={key}
              id={`site-contact-${key}`}
              label={label}
              error={key === 'email' ? show('contactEmail') : undefined}
              type={type}
              value={contact[key]}
              onChange={(v) => setContact((c) => ({ ...c, [key]: v }))}
            />
          ))}
        </div>
      </div>
      {serverFields.address || serverFields.contact ? (
        <div className="field-error">{serverFields.address ?? serverFields.contact}</div>
      ) : null}
    </EditorDialog>
  );
}
