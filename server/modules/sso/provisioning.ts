import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { SsoAttributeMapping, SsoLoginError } from '../../contract';
import { transaction } from '../../db/after-commit';
import type { UserAuth } from '../../http/auth-context';
import { HttpError } from '../../http/errors';
import { effectivePermissions } from '../../http/permissions';
import { assertCovered, assignableRole } from '../roles';
import { membershipOf, userByEmail, userById, type UserRow } from '../users';
import { domainVerifiedFor } from './governance-store';
import { identityBySubject, insertProvisionedUser, upsertIdentity } from './identity-store';
import type { ProviderRow } from './provider-store';
import type { SsoRuntime } from './runtime';
import { auditProvisioned } from './sign-in-audit';

// Account mapping at the callback (rules 11, 12, 15, 16): from the IdP's verified answer to a Gatehouse account,
// linked, and possibly created.

export interface IdpProfile {
  /** ID token claims with the UserInfo answer over them. */
  claims: Record<string, unknown>;
  subject: string;
  amr: string[];
  accessToken: string;
  refreshToken: string | null;
  expiresAt: string | null;
}

export class SignInRefused extends Error {
  constructor(
    readonly code: SsoLoginError,
    message: string,
  ) {
    super(message);
  }
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() ? value.trim() : null;

/** email_verified as IdPs send it: a boolean, sometimes the string "true"/"false"; undefined when absent. */
function emailVerified(claims: Record<string, unknown>): boolean | undefined {
  const v = claims.email_verified;
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  return undefined;
}

function mapped(claims: Record<string, unknown>, mapping: SsoAttributeMapping) {
  const email = text(claims[mapping.email])?.toLowerCase() ?? null;
  const first = mapping.firstName ? text(claims[mapping.firstName]) : null;
  const last = mapping.lastName ? text(claims[mapping.lastName]) : null;
  const name = text(claims[mapping.name]) ?? ([first, last].filter(Boolean).join(' ') || email);
  return { email, name };
}

/** Rule 12: the administrator who chose the default role must still be able to grant it, at every creation. */
function defaultRoleStillGrantable(rt: SsoRuntime, provider: ProviderRow, orgId: string): boolean {
  if (!provider.default_role_id || !provider.default_role_set_by) return false;
  const admin = userById(rt.ctx.db, provider.default_role_set_by);
  const membership = admin ? membershipOf(rt.ctx.db, admin.id) : null;
  if (!admin || admin.status !== 'active' || !membership) return false;
  const asAdmin: UserAuth = {
    kind: 'user',
    userId: admin.id,
    email: admin.email,
    roleId: membership.roleId,
    scope: membership.scope,
    partnerId: membership.partnerId,
    orgId: membership.orgId,
    mfa: true,
    sessionId: '',
    tokenVersion: admin.token_version,
  };
  try {
    const role = assignableRole(rt.ctx, provider.default_role_id, {
      scope: 'organization',
      orgId,
      partnerId: provider.partner_id,
    });
    assertCovered(rt.ctx, asAdmin, effectivePermissions(rt.ctx.db, role.id));
    return true;
  } catch (err) {
    if (err instanceof HttpError) return false;
    throw err;
  }
}

/** Whether the account belongs where the provider signs people in (rule 11 `no_org_access`, rule 15). */
function belongs(rt: SsoRuntime, provider: ProviderRow, user: UserRow): boolean {
  const membership = membershipOf(rt.ctx.db, user.id);
  if (!membership) return false;
  if (provider.owner_scope === 'partner')
    return membership.scope === 'partner' && membership.partnerId === provider.partner_id;
  return membership.scope === 'organization' && membership.orgId === provider.org_id;
}

/** Steps h-j: the account the IdP's answer signs in; throws SignInRefused with the spec's code otherwise. */
export function mapAccount(
  rt: SsoRuntime,
  req: Request,
  provider: ProviderRow,
  profile: IdpProfile,
): { userId: string; idpMfa: boolean } {
  const { db, secretBox } = rt.ctx;
  const verified = emailVerified(profile.claims);
  // Rule 12: an IdP that says the address is unverified is refused on every path, linked users included.
  if (verified === false)
    throw new SignInRefused('email_not_verified', 'IdP reports the email as unverified');
  const { email, name } = mapped(
    profile.claims,
    JSON.parse(provider.attribute_mapping) as SsoAttributeMapping,
  );
  if (!email || !email.includes('@')) throw new SignInRefused('sso_failed', 'no email in the mapped claim');
  const domain = email.slice(email.lastIndexOf('@') + 1);
  const allowed = provider.allowed_domains ? provider.allowed_domains.split(',') : [];
  if (allowed.length > 0 && !allowed.includes(domain))
    throw new SignInRefused('domain_not_allowed', `${domain} is not an allowed domain`);

  const link = identityBySubject(db, provider.id, profile.subject);
  let user = link ? userById(db, link.user_id) : userByEmail(db, email);
  // Rule 12: without the claim, first-time matching or creation on an organization provider needs the domain
  // proven by DNS for that organization; already linked users are exempt.
  if (!link && verified === undefined && provider.org_id && !domainVerifiedFor(db, provider.org_id, domain))
    throw new SignInRefused('email_not_verified', `email_verified absent and ${domain} not DNS-verified`);

  const at = new Date().toISOString();
  const linkRow = (userId: string) => ({
    id: link?.id ?? randomUUID(),
    provider_id: provider.id,
    user_id: userId,
    external_id: profile.subject,
    idp_email: email,
    profile: JSON.stringify({ name, amr: profile.amr }),
    access_token_sealed: secretBox.seal(profile.accessToken),
    refresh_token_sealed: profile.refreshToken ? secretBox.seal(profile.refreshToken) : null,
    token_expires_at: profile.expiresAt,
    last_login_at: at,
  });

  if (user) {
    if (user.status !== 'active') throw new SignInRefused('user_not_found', 'account is not active');
    if (!belongs(rt, provider, user)) throw new SignInRefused('no_org_access', 'account belongs elsewhere');
    const userId = user.id;
    transaction(db, () => upsertIdentity(db, linkRow(userId), at));
  } else {
    // Rule 15: partner providers never create accounts; rule 11 for organization providers.
    if (!provider.org_id || provider.auto_provision !== 1)
      throw new SignInRefused('user_not_found', 'no account for this identity');
    const orgId = provider.org_id;
    if (!provider.default_role_id || !defaultRoleStillGrantable(rt, provider, orgId))
      throw new SignInRefused('default_role_required', 'no default role its administrator may still grant');
    const roleId = provider.default_role_id;
    const id = randomUUID();
    transaction(db, () => {
      insertProvisionedUser(db, { id, email, name: name ?? email, orgId, roleId }, at);
      upsertIdentity(db, linkRow(id), at);
    });
    user = userById(db, id)!;
    auditProvisioned(rt, req, provider, user, roleId);
  }
  // Rule 16: the IdP's MFA counts only when the provider trusts it and the ID token's amr says so (RFC 8176).
  const idpMfa = provider.trusts_idp_mfa === 1 && profile.amr.some((m) => m === 'mfa' || m === 'phr');
  return { userId: user.id, idpMfa };
}
