import { useState } from 'react';
import type { Role } from '../../../../server/contract';
import { SelectField, SmallButton, StatusPill, TextField, Toggle } from '../../ui';
import type { DraftErrors, ProviderDraft, SsoOwner } from './model';

// The provider's fields in two groups, shared by the guided setup (one group per step) and the edit dialog (both):
// how Gatehouse reaches the IdP, and who may sign in and how they are set up.

export interface FieldsProps {
  draft: ProviderDraft;
  onChange: (next: ProviderDraft) => void;
  /** Shown once the form was submitted. */
  errors: DraftErrors;
}

type TextKey = {
  [K in keyof ProviderDraft]: ProviderDraft[K] extends string ? K : never;
}[keyof ProviderDraft];
type SwitchKey = {
  [K in keyof ProviderDraft]: ProviderDraft[K] extends boolean ? K : never;
}[keyof ProviderDraft];

/**
 * What ties a control to one field of the draft, written once rather than at every control: its id (also its test
 * id), its value, the change that replaces just that field, and the field's error once the form was submitted.
 */
function draftBindings({ draft, onChange, errors }: FieldsProps) {
  const set = <K extends keyof ProviderDraft>(key: K, value: ProviderDraft[K]) =>
    onChange({ ...draft, [key]: value });
  return {
    set,
    text: (id: string, key: TextKey) => ({
      id,
      value: draft[key],
      onChange: (v: string) => set(key, v),
      // Only some text fields can be wrong (DraftErrors); the others simply have no entry.
      error: errors[key as keyof DraftErrors],
    }),
    toggle: (id: string, key: SwitchKey) => ({
      id,
      checked: draft[key],
      onChange: (v: boolean) => set(key, v),
    }),
  };
}

export function ConnectionFields({
  hasSecret,
  issuerTemplate,
  ...fields
}: FieldsProps & { hasSecret: boolean; issuerTemplate: string | null }) {
  const { draft } = fields;
  const bind = draftBindings(fields);
  // A stored secret is never shown (write-only); "Replace" opens an empty field for a new one.
  const [replacing, setReplacing] = useState(!hasSecret);
  return (
    <>
      <TextField
        {...bind.text('sso-name', 'name')}
        label="Name shown on the sign-in button"
        hint={`Technicians will see “Continue with ${draft.name.trim() || '…'}”.`}
        maxLength={255}
      />
      <TextField
        {...bind.text('sso-issuer', 'issuer')}
        label="Issuer URL"
        placeholder={issuerTemplate ?? 'https://login.example.com'}
        hint={
          issuerTemplate
            ? `Usually ${issuerTemplate}: replace the part in angle brackets with yours.`
            : 'Gatehouse reads <issuer>/.well-known/openid-configuration to find the other endpoints.'
        }
        spellCheck={false}
      />
      <TextField
        {...bind.text('sso-client-id', 'clientId')}
        label="Client ID"
        hint="Also called the application ID."
        spellCheck={false}
      />
      {replacing ? (
        <TextField
          {...bind.text('sso-client-secret', 'clientSecret')}
          label="Client secret"
          type="password"
          autoComplete="new-password"
          hint="Stored encrypted. Nobody can read it back, not even you."
        />
      ) : (
        <div className="field">
          <div className="field-head">
            <label>Client secret</label>
          </div>
          <div className="sso-secret-stored" data-testid="sso-secret-stored">
            <StatusPill tone="ok">Stored</StatusPill>
            <span className="muted small">Encrypted; it is never shown again.</span>
            <SmallButton tone="secondary" onClick={() => setReplacing(true)} testId="sso-secret-replace">
              Replace
            </SmallButton>
          </div>
        </div>
      )}
    </>
  );
}

const MAPPING_FIELDS = [
  ['email', 'Email'],
  ['name', 'Display name'],
  ['firstName', 'First name'],
  ['lastName', 'Last name'],
  ['groups', 'Groups'],
] as const;

export function RulesFields({ owner, roles, ...fields }: FieldsProps & { owner: SsoOwner; roles: Role[] }) {
  const { draft } = fields;
  const bind = draftBindings(fields);
  const organization = owner.kind === 'organization';
  return (
    <>
      <TextField
        {...bind.text('sso-allowed-domains', 'allowedDomains')}
        label="Allowed email domains"
        placeholder="Any domain"
        hint="Comma-separated, such as contoso.com, contoso.co.uk. Empty lets every account of this IdP in."
        spellCheck={false}
      />
      {organization ? (
        <>
          <Toggle
            {...bind.toggle('sso-auto-provision', 'autoProvision')}
            label="Create accounts on first sign-in"
            hint="Off: only people already invited to Gatehouse can sign in with this provider."
          />
          {draft.autoProvision ? (
            <SelectField
              {...bind.text('sso-default-role', 'defaultRoleId')}
              label="Role of new accounts"
              hint="Give the least that lets a new person work; you can change anyone's role later."
            >
              <option value="">Choose a role…</option>
              {roles.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name}
                </option>
              ))}
            </SelectField>
          ) : null}
        </>
      ) : (
        <p className="muted small" data-testid="sso-partner-invite-only">
          Partner providers sign in technicians you already invited; nobody new is created through them.
        </p>
      )}
      <Toggle
        {...bind.toggle('sso-trusts-idp-mfa', 'trustsIdpMfa')}
        label="Trust the identity provider's MFA"
        hint="When the IdP says the person used a second factor, Gatehouse does not ask for its own code."
      />
      <details className="sso-advanced">
        <summary>Scopes and claim names</summary>
        <TextField
          {...bind.text('sso-scopes', 'scopes')}
          label="Scopes"
          hint="Space-separated; openid is always needed."
          spellCheck={false}
        />
        <div className="sso-mapping">
          {MAPPING_FIELDS.map(([key, label]) => (
            <TextField
              key={key}
              id={`sso-map-${key}`}
              label={`${label} claim`}
              value={draft.mapping[key]}
              onChange={(v) => bind.set('mapping', { ...draft.mapping, [key]: v })}
              placeholder={key === 'email' || key === 'name' ? key : 'not used'}
              spellCheck={false}
            />
          ))}
        </div>
      </details>
    </>
  );
}
