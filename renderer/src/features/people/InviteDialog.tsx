import { useState } from 'react';
import type { OrgAccess } from '../../../../server/contract';
import { ApiError } from '../../lib/api/client';
import { useSession } from '../../lib/session';
import { Field } from '../../ui/basics';
import { Checklist, FormDialog, RadioCards, TextField, Toggle, type DialogProps } from '../../ui';
import { asList } from '../../lib/query';
import { useFormSubmit } from '../../lib/form-submit';
import { useScope } from '../../lib/session';
import { useDirectory } from './directory';
import { TenantOptions } from './TenantOptions';
import { peopleApi, useAssignableRoles, useOrgSites, type InviteUserBody } from './api';

// One dialog for both kinds of invitation. Where the invitee goes decides the fields: a partner user gets an
// organization reach (all, selected, none); an organization user may be limited to some of its sites.

type Target = { kind: 'partner'; partnerId: string | null } | { kind: 'organization'; orgId: string };

function parseTarget(value: string): Target | null {
  if (value === 'own-partner') return { kind: 'partner', partnerId: null };
  if (value.startsWith('p:')) return { kind: 'partner', partnerId: value.slice(2) };
  if (value.startsWith('o:')) return { kind: 'organization', orgId: value.slice(2) };
  return null;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type InviteField = 'target' | 'email' | 'name' | 'roleId' | 'orgIds' | 'siteIds';

/** Refusals the server words without a field path, put on the field they concern. */
function inviteRefusals(err: unknown): Record<string, string> {
  const fields: Record<string, string> = {};
  if (!(err instanceof ApiError)) return fields;
  if (err.status === 409) fields.email = err.message;
  if (/^orgIds/.test(err.message)) fields.orgIds = err.message;
  if (/^siteIds/.test(err.message)) fields.siteIds = err.message;
  if (err.message === 'Role is not available in this scope') fields.roleId = err.message;
  return fields;
}

const ACCESS_CHOICES: Array<{ value: OrgAccess; title: string; desc: string }> = [
  { value: 'all', title: 'All organizations', desc: 'Every current and future customer' },
  { value: 'selected', title: 'Selected', desc: 'Only the organizations you tick' },
  { value: 'none', title: 'None', desc: 'Partner-level work only' },
];

/** Done with the address the invitation went to. */
export function InviteDialog({ onClose, onDone }: DialogProps<string>) {
  const scope = useScope();
  const ownOrgId = useSession((s) => s.user?.orgId ?? null);
  const dir = useDirectory();
  const [targetValue, setTargetValue] = useState<string>(() =>
    scope === 'partner' ? 'own-partner' : scope === 'organization' && ownOrgId ? `o:${ownOrgId}` : '',
  );
  const target = parseTarget(targetValue);
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [roleId, setRoleId] = useState('');
  const [orgAccess, setOrgAccess] = useState<OrgAccess>('all');
  const [orgIds, setOrgIds] = useState<string[]>([]);
  const [orgFilter, setOrgFilter] = useState('');
  const [restrictSites, setRestrictSites] = useState(false);
  const [siteIds, setSiteIds] = useState<string[]>([]);

  // Roles the chosen tenant may hold. A partner caller inviting into its own partner names no tenant.
  const roles = useAssignableRoles(
    target === null
      ? null
      : target.kind === 'organization'
        ? { orgId: target.orgId }
        : target.partnerId
          ? { partnerId: target.partnerId }
          : {},
  );
  const expectedScope = target?.kind === 'organization' ? 'organization' : 'partner';
  const roleList = asList(roles.data).filter((r) => r.scope === expectedScope);
  const sites = useOrgSites(target?.kind === 'organization' ? target.orgId : null);
  const siteList = asList(sites.data);

  const partnerOrgs =
    target?.kind === 'partner'
      ? dir.orgs.filter((o) => (target.partnerId ? o.partnerId === target.partnerId : true))
      : [];
  const shownOrgs = orgFilter.trim()
    ? partnerOrgs.filter((o) => o.name.toLowerCase().includes(orgFilter.trim().toLowerCase()))
    : partnerOrgs;

  const errors: Partial<Record<InviteField, string>> = {};
  if (!target) errors.target = 'Choose where the new user belongs';
  if (!email.trim()) errors.email = 'Email is required';
  else if (!EMAIL.test(email.trim())) errors.email = 'Not an email address';
  if (!name.trim()) errors.name = 'Name is required';
  if (!roleId) errors.roleId = 'Choose a role';
  if (target?.kind === 'partner' && orgAccess === 'selected' && orgIds.length === 0)
    errors.orgIds = 'Tick at least one organization';
  if (target?.kind === 'organization' && restrictSites && siteIds.length === 0)
    errors.siteIds = 'Tick at least one site, or lift the restriction';
  const { show, blur, bound, busy, error, submit } = useFormSubmit(errors, inviteRefusals);

  const chooseTarget = (value: string) => {
    setTargetValue(value);
    setRoleId('');
    setOrgIds([]);
    setSiteIds([]);
    setRestrictSites(false);
  };

  const send = submit(async () => {
    if (!target) return;
    const body: InviteUserBody = { email: email.trim(), name: name.trim(), roleId };
    if (target.kind === 'partner') {
      if (target.partnerId) body.partnerId = target.partnerId;
      body.orgAccess = orgAccess;
      if (orgAccess === 'selected') body.orgIds = orgIds;
    } else {
      body.orgId = target.orgId;
      if (restrictSites) body.siteIds = siteIds;
    }
    await peopleApi.invite(body);
    onDone(email.trim());
  });

  const chosenRole = roleList.find((r) => r.id === roleId);

  return (
    <FormDialog
      wide
      title="Invite user"
      onClose={onClose}
      testId="invite-dialog"
      onSubmit={(e) => void send(e)}
      action={{ busy, error }}
      errorTestId="invite-error"
      submit={{ label: 'Send invitation', busyLabel: 'Sending…', testId: 'invite-send' }}
    >
      <p className="muted">
        The invitee gets an email with a single-use link to set their password and two-step verification.
      </p>
      {scope !== 'organization' ? (
        <Field
          label="Invite into"
          htmlFor="invite-target"
          error={show('target')}
          hint={
            target?.kind === 'organization'
              ? 'An organization user works inside that one customer.'
              : target?.kind === 'partner'
                ? 'A partner user works across the organizations you grant below.'
                : undefined
          }
        >
          <select
            id="invite-target"
            value={targetValue}
            onChange={(e) => chooseTarget(e.target.value)}
            onBlur={() => blur('target')}
            data-testid="invite-target"
          >
            {scope === 'system' ? <option value="">Choose a partner or organization…</option> : null}
            {scope === 'partner' ? (
              <option value="own-partner">Your partner team (partner user)</option>
            ) : null}
            <TenantOptions
              dir={dir}
              partners={scope === 'system' ? 'Partners (partner user)' : null}
              organizations="Organizations (organization user)"
              withPartner={scope === 'system'}
            />
          </select>
        </Field>
      ) : null}

      <div className="adm-form-grid">
        <TextField
          id="invite-email"
          label="Email"
          type="email"
          autoComplete="off"
          autoFocus
          maxLength={255}
          {...bound('email', email, setEmail)}
        />
        <TextField
          id="invite-name"
          label="Name"
          type="text"
          autoComplete="off"
          maxLength={255}
          {...bound('name', name, setName)}
        />
        <div className="full">
          <Field
            label="Role"
            htmlFor="invite-role"
            error={show('roleId') ?? (roles.error ? 'Could not load the roles for this tenant' : undefined)}
            hint={chosenRole?.description ?? undefined}
          >
            <select
              id="invite-role"
              value={roleId}
              disabled={!target || roles.loading}
              onChange={(e) => setRoleId(e.target.value)}
              onBlur={() => blur('roleId')}
              data-testid="invite-role"
            >
              <option value="">
                {!target
                  ? 'Choose where the user belongs first'
                  : roles.loading
                    ? 'Loading roles…'
                    : 'Choose a role…'}
              </option>
              {roleList.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name}
                  {r.isSystem ? ' (built-in)' : ''}
                </option>
              ))}
            </select>
          </Field>
        </div>
      </div>

      {target?.kind === 'partner' ? (
        <div className="adm-form-section">
          <h3>Organization access</h3>
          <div className="adm-radio-row" role="radiogroup" aria-label="Organization access">
            <RadioCards
              name="invite-org-access"
              options={ACCESS_CHOICES}
              value={orgAccess}
              onChange={setOrgAccess}
              testId={(value) => `invite-org-access-${value}`}
            />
          </div>
          {orgAccess === 'selected' ? (
            <Field
              label={`Organizations${orgIds.length ? ` · ${orgIds.length} selected` : ''}`}
              htmlFor="invite-org-filter"
              error={show('orgIds')}
            >
              {partnerOrgs.length > 8 ? (
                <input
                  id="invite-org-filter"
                  type="text"
                  placeholder="Filter organizations"
                  value={orgFilter}
                  onChange={(e) => setOrgFilter(e.target.value)}
                />
              ) : (
                <span id="invite-org-filter" hidden />
              )}
              <Checklist
                testId="invite-orgs"
                optionTestId="invite-org-option"
                items={shownOrgs.map((o) => ({ id: o.id, name: o.name, meta: o.slug }))}
                selected={orgIds}
                onChange={setOrgIds}
                metaMono
                empty="No organizations to choose from."
              />
            </Field>
          ) : null}
        </div>
      ) : null}

      {target?.kind === 'organization' ? (
        <div className="adm-form-section">
          <h3>Site access</h3>
          <Toggle
            id="invite-restrict-sites"
            checked={restrictSites}
            onChange={setRestrictSites}
            label="Limit to specific sites"
            hint="Off: the user works across every site of the organization, including sites added later."
            disabled={siteList.length === 0}
          />
          {restrictSites ? (
            <Field
              label={`Sites${siteIds.length ? ` · ${siteIds.length} selected` : ''}`}
              htmlFor="invite-sites"
              error={show('siteIds')}
            >
              <Checklist
                id="invite-sites"
                testId="invite-sites"
                optionTestId="invite-site-option"
                items={siteList.map((site) => ({ id: site.id, name: site.name, meta: site.timezone }))}
                selected={siteIds}
                onChange={setSiteIds}
              />
            </Field>
          ) : sites.data && siteList.length === 0 ? (
            <p className="muted small">This organization has no sites yet.</p>
          ) : null}
        </div>
      ) : null}
    </FormDialog>
  );
}
