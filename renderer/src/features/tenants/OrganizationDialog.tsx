import type {
  NewOrganizationBody,
  Organization,
  OrganizationPatch,
  OrganizationSettings,
  OrganizationStatus,
  OrganizationType,
  Partner,
} from '../../../../server/contract';
import { dateInputToIso, isoToDateInput } from '../../lib/dates';
import { writeBody } from '../../lib/write-body';
import { useScope } from '../../lib/session';
import {
  DeleteTarget,
  EditorDialog,
  type ConfirmTargetOf,
  type DialogProps,
  type EditorTexts,
  Field,
  TextField,
  Toggle,
} from '../../ui';
import { tenantsApi } from './api';
import { ORG_STATUSES, ORG_TYPES } from './labels';
import { CapField, ChoiceField, NameSlugFields, useTenantForm } from './tenant-form';
import { capError, createBody, tenantBody } from './tenant-rules';

interface Form {
  name: string;
  slug: string;
  type: OrganizationType;
  status: OrganizationStatus;
  maxDevices: string;
  contractStart: string;
  contractEnd: string;
  requireMfa: boolean;
  smsAllowed: boolean;
  partnerId: string;
}

/** The sign-in policy switches, in the order the dialog shows them. */
const POLICY_TOGGLES: Array<{ key: 'requireMfa' | 'smsAllowed'; id: string; label: string; hint: string }> = [
  {
    key: 'requireMfa',
    id: 'org-require-mfa',
    label: 'Require multi-factor authentication',
    hint: 'Users of this organization cannot turn off MFA on their account.',
  },
  {
    key: 'smsAllowed',
    id: 'org-allow-sms',
    label: 'Allow SMS codes as a second factor',
    hint: 'When off, users must use an authenticator app; SMS MFA is refused.',
  },
];

function initial(org: Organization | null): Form {
  const security = org?.settings.security;
  return {
    name: org?.name ?? '',
    slug: org?.slug ?? '',
    type: org?.type ?? 'customer',
    status: org?.status ?? 'active',
    maxDevices: org?.maxDevices === null || org?.maxDevices === undefined ? '' : String(org.maxDevices),
    contractStart: isoToDateInput(org?.contractStart),
    contractEnd: isoToDateInput(org?.contractEnd),
    requireMfa: security?.requireMfa === true,
    smsAllowed: security?.allowedMfaMethods?.sms !== false,
    partnerId: org?.partnerId ?? '',
  };
}

function validate(form: Form, needsPartner: boolean): Partial<Record<keyof Form, string>> {
  const errors: Partial<Record<keyof Form, string>> = {};
  errors.maxDevices = capError(form.maxDevices);
  if (form.contractStart && form.contractEnd && form.contractEnd < form.contractStart)
    errors.contractEnd = 'Ends before it starts';
  if (needsPartner && !form.partnerId) errors.partnerId = 'Choose the partner that owns this organization';
  return errors;
}

/** What the form writes of the organization's own fields (the partner and the sign-in policy aside). */
function organizationBody(form: Form) {
  return {
    ...tenantBody(form),
    status: form.status,
    contractStart: dateInputToIso(form.contractStart),
    contractEnd: dateInputToIso(form.contractEnd),
  };
}

/** The settings object to store: the organization's existing settings with the two sign-in policy keys set. */
function settingsWith(base: OrganizationSettings, form: Form): OrganizationSettings {
  const security = base.security ?? {};
  return {
    ...base,
    security: {
      ...security,
      requireMfa: form.requireMfa,
      allowedMfaMethods: { ...(security.allowedMfaMethods ?? {}), sms: form.smsAllowed },
    },
  };
}

function securityMatches(org: Organization, form: Form): boolean {
  const s = org.settings.security;
  return (
    (s?.requireMfa === true) === form.requireMfa && (s?.allowedMfaMethods?.sms !== false) === form.smsAllowed
  );
}

const ORG_DIALOG: EditorTexts = {
  idPrefix: 'org',
  createTitle: 'New organization',
  createLabel: 'Create organization',
};

export function OrganizationDialog({
  org,
  partners,
  onClose,
  onDone,
}: { org: Organization | null; partners: Partner[] } & DialogProps<Organization>) {
  const scope = useScope();
  const creating = org === null;
  const needsPartner = creating && scope === 'system';
  const tenant = useTenantForm(
    () => initial(org),
    creating,
    (f) => validate(f, needsPartner),
  );
  const { form, set, field, blur, show, serverFields } = tenant;

  const submit = tenant.submit(async () => {
    let saved: Organization;
    if (creating) {
      const body: NewOrganizationBody = createBody(organizationBody(form));
      if (needsPartner) body.partnerId = form.partnerId;
      if (form.requireMfa || !form.smsAllowed) body.settings = settingsWith({}, form);
      saved = await tenantsApi.createOrganization(body);
      // Creation takes the fields the spec lists; the sign-in policy lives in settings, set right after.
      if (!securityMatches(saved, form)) {
        saved = await tenantsApi.updateOrganization(saved.id, {
          settings: settingsWith(saved.settings, form),
        });
      }
    } else {
      const body: OrganizationPatch = writeBody(organizationBody(form), organizationBody(initial(org)));
      if (!securityMatches(org, form)) body.settings = settingsWith(org.settings, form);
      if (Object.keys(body).length === 0) {
        onClose();
        return;
      }
      saved = await tenantsApi.updateOrganization(org.id, body);
    }
    onDone(saved);
  });

  return (
    <EditorDialog texts={ORG_DIALOG} editing={org} state={tenant} onSubmit={submit} onClose={onClose}>
      {needsPartner ? (
        <Field label="Partner" htmlFor="org-partner" error={show('partnerId')}>
          <select
            id="org-partner"
            value={form.partnerId}
            onChange={(e) => set('partnerId', e.target.value)}
            onBlur={() => blur('partnerId')}
            data-testid="org-partner"
          >
            <option value="">Choose a partner…</option>
            {partners
              .filter((p) => !p.deletedAt)
              .map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
          </select>
        </Field>
      ) : null}
      <div className="adm-form-grid">
        <NameSlugFields idPrefix="org" tenant={tenant} slugHint="URL-safe identifier" canDerive={creating} />
        <ChoiceField id="org-type" label="Type" options={ORG_TYPES} {...field('type')} />
        <ChoiceField id="org-status" label="Status" options={ORG_STATUSES} {...field('status')} />
        <CapField
          id="org-max-devices"
          label="Device cap"
          hint="Leave empty for no cap"
          {...field('maxDevices')}
        />
        <div />
        <TextField id="org-contract-start" label="Contract start" type="date" {...field('contractStart')} />
        <TextField
          id="org-contract-end"
          label="Contract end"
          type="date"
          min={form.contractStart || undefined}
          {...field('contractEnd')}
        />
      </div>

      <div className="adm-form-section">
        <h3>Sign-in policy</h3>
        {POLICY_TOGGLES.map(({ key, id, label, hint }) => (
          <Toggle
            key={key}
            id={id}
            checked={form[key]}
            onChange={(v) => set(key, v)}
            label={label}
            hint={hint}
          />
        ))}
        {serverFields.settings ? <div className="field-error">{serverFields.settings}</div> : null}
      </div>
    </EditorDialog>
  );
}

/** The same question from the organization list and the organization page, for the organization `of` holds. */
export function DeleteOrganizationDialog({
  of,
  onConfirm,
}: {
  of: ConfirmTargetOf & { target: { name: string } | null };
  onConfirm: () => Promise<void>;
}) {
  const name = of.target?.name;
  return (
    <DeleteTarget of={of} what="organization" onConfirm={onConfirm} testId="org-delete-dialog">
      <p>
        Delete <strong>{name}</strong>? It disappears from every list and can no longer be opened by anyone.
        The record is kept (soft delete) so the audit trail stays complete.
      </p>
    </DeleteTarget>
  );
}
