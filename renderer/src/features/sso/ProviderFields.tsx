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

export function ConnectionFields({
  draft,
  onChange,
  errors,
  hasSecret,
  issuerTemplate,
}: FieldsProps & { hasSecret: boolean; issuerTemplate: string | null }) {
  const set = <K extends keyof ProviderDraft>(key: K, value: ProviderDraft[K]) =>
    onChange({ ...draft, [key]: value });
  // A stored secret is never shown (write-only); "Replace" opens an empty field for a new one.
  const [replacing, setReplacing] = useState(!hasSecret);
  return (
    <>
      <TextField
        id="sso-name"
        label="Name shown on the sign-in button"
        value={draft.name}
        onChange={(v) => set('name', v)}
        error={errors.name}
        hint={`Technicians will see “Continue with ${draft.name.trim() || '…'}”.`}
        maxLength={255}
      />
      <TextField
        id="sso-issuer"
        label="Issuer URL"
        value={draft.issuer}
        onChange={(v) => set('issuer', v)}
        error={errors.issuer}
        placeholder={issuerTemplate ?? 'https://login.example.com'}
        hint={
          issuerTemplate
            ? `Usually ${issuerTemplate}: replace the part in angle brackets with yours.`
            : 'Gatehouse reads <issuer>/.well-known/openid-configuration to find the other endpoints.'
        }
        spellCheck={false}
      />
      <TextField
        id="sso-client-id"
        label="Client ID"
        value={draft.clientId}
        onChange={(v) => set('clientId', v)}
        error={errors.clientId}
        hint="Also called the application ID."
        spellCheck={false}
      />
      {replacing ? (
        <TextField
          id="sso-client-secret"
          label="Client secret"
          type="password"
          autoComplete="new-password"
          value={draft.clientSecret}
          onChange={(v) => set('clientSecret', v)}
          error={errors.clientSecret}
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

export function RulesFields({
  draft,
  onChange,
  errors,
  owner,
  roles,
}: FieldsProps & { owner: SsoOwner; roles: Role[] }) {
  const set = <K extends keyof ProviderDraft>(key: K, value: ProviderDraft[K]) =>
    onChange({ ...draft, [key]: value });
  const organization = owner.kind === 'organization';
  return (
    <>
      <TextField
        id="sso-allowed-domains"
        label="Allowed email domains"
        value={draft.allowedDomains}
        onChange={(v) => set('allowedDomains', v)}
        placeholder="Any domain"
        hint="Comma-separated, such as contoso.com, contoso.co.uk. Empty lets every account of this IdP in."
        spellCheck={false}
      />
      {organization ? (
        <>
          <Toggle
            id="sso-auto-provision"
            checked={draft.autoProvision}
            onChange={(v) => set('autoProvision', v)}
            label="Create accounts on first sign-in"
            hint="Off: only people already invited to Gatehouse can sign in with this provider."
          />
          {draft.autoProvision ? (
            <SelectField
              id="sso-default-role"
              label="Role of new accounts"
              value={draft.defaultRoleId}
              onChange={(v) => set('defaultRoleId', v)}
              error={errors.defaultRoleId}
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
        id="sso-trusts-idp-mfa"
        checked={draft.trustsIdpMfa}
        onChange={(v) => set('trustsIdpMfa', v)}
        label="Trust the identity provider's MFA"
        hint="When the IdP says the person used a second factor, Gatehouse does not ask for its own code."
      />
      <details className="sso-advanced">
        <summary>Scopes and claim names</summary>
        <TextField
          id="sso-scopes"
          label="Scopes"
          value={draft.scopes}
          onChange={(v) => set('scopes', v)}
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
              onChange={(v) => set('mapping', { ...draft.mapping, [key]: v })}
              placeholder={key === 'email' || key === 'name' ? key : 'not used'}
              spellCheck={false}
            />
          ))}
        </div>
      </details>
    </>
  );
}
