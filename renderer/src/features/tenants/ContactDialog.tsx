import { useState } from 'react';
import { CONTACT_ROLES, type Contact, type ContactRole, type Site } from '../../../../server/contract';
import { useFormSubmit } from '../../lib/form-submit';
import {
  Checklist,
  ChoiceSelect,
  Field,
  FormDialog,
  nameChoices,
  TextField,
  type DialogProps,
} from '../../ui';
import { tenantsApi } from './api';
import { CONTACT_ROLE_LABELS } from './contact-labels';
import { contactChanges, TEXT_FIELDS, type TextKey } from './contact-changes';

// Edit one contact through PATCH: only what changed is sent, and a field emptied here is sent as null, which
// clears it (an import never clears anything; this is the one place that does).

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function ContactDialog({
  contact,
  sites,
  onClose,
  onDone,
}: { contact: Contact; sites: Site[] } & DialogProps) {
  const [values, setValues] = useState<Record<TextKey, string>>(() => ({
    name: contact.name ?? '',
    title: contact.title ?? '',
    email: contact.email ?? '',
    phone: contact.phone ?? '',
    mobile: contact.mobile ?? '',
  }));
  const [siteId, setSiteId] = useState(contact.siteId ?? '');
  const [roles, setRoles] = useState<ContactRole[]>(contact.roles);
  const identified = ['name', 'email', 'phone', 'mobile'].some((k) => values[k as TextKey].trim());
  const { show, busy, error, serverFields, submit } = useFormSubmit({
    email: values.email.trim() && !EMAIL.test(values.email.trim()) ? 'Not an email address' : undefined,
    name: identified ? undefined : 'A contact needs at least one of name, email, phone or mobile',
  });

  const save = submit(async () => {
    const body = contactChanges(contact, values, siteId, roles);
    if (Object.keys(body).length > 0) await tenantsApi.updateContact(contact.id, body);
    onDone();
  });

  return (
    <FormDialog
      wide
      title={`Edit ${contact.name ?? contact.email ?? 'contact'}`}
      onClose={onClose}
      testId="contact-dialog"
      onSubmit={(e) => void save(e)}
      action={{ busy, error }}
      submit={{ label: 'Save changes', testId: 'contact-save' }}
    >
      <div className="adm-form-grid">
        {TEXT_FIELDS.map(({ key, label, type, max }) => (
          <TextField
            key={key}
            id={`contact-${key}`}
            label={label}
            type={type}
            maxLength={max}
            value={values[key]}
            onChange={(v) => setValues((current) => ({ ...current, [key]: v }))}
            error={show(key as 'name' | 'email') ?? serverFields[key]}
          />
        ))}
        <Field label="Site" htmlFor="contact-site" hint="None: the contact is for the whole organization.">
          <ChoiceSelect
            id="contact-site"
            value={siteId}
            onChange={setSiteId}
            emptyLabel="Whole organization"
            options={nameChoices(sites)}
            testId="contact-site"
          />
        </Field>
      </div>
      <Field label="Roles" htmlFor="contact-roles">
        <Checklist
          id="contact-roles"
          testId="contact-roles"
          optionTestId="contact-role"
          items={CONTACT_ROLES.map((r) => ({ id: r, name: CONTACT_ROLE_LABELS[r] }))}
          selected={roles}
          onChange={(next) => setRoles(next as ContactRole[])}
        />
      </Field>
      <p className="muted small">A field you empty here is cleared; imports never clear what is stored.</p>
    </FormDialog>
  );
}
