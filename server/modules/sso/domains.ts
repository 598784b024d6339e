import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { SsoDomain, SsoDomainListResponse } from '../../contract';
import { randomToken } from '../../crypto';
import type { UserAuth } from '../../http/auth-context';
import { badRequest, notFound } from '../../http/errors';
import { requireOrgAccess, resolveOrgScope, scopeCovers } from '../../http/scope';
import { auditCaller } from '../audit';
import { requireWritableOwner } from './access';
import {
  deleteDomain,
  domainById,
  domainOf,
  domainsOf,
  insertDomain,
  markDomainVerified,
  type DomainRow,
} from './domain-store';
import type { SsoRuntime } from './runtime';

// Domain ownership by DNS (rules 12 and 14): the organization publishes a TXT record `_gatehouse-sso.<domain>`
// with a value only Gatehouse handed out, then asks Gatehouse to look.

const DOMAIN_NOT_FOUND = 'Domain not found';
const txtName = (domain: string) => `_gatehouse-sso.${domain}`;
const txtValue = (token: string) => `gatehouse-sso-verification=${token}`;

const toDomain = (row: DomainRow): SsoDomain => ({
  id: row.id,
  orgId: row.org_id,
  domain: row.domain,
  txtName: txtName(row.domain),
  txtValue: txtValue(row.token),
  verifiedAt: row.verified_at,
  createdAt: row.created_at,
});

function visibleDomain(rt: SsoRuntime, auth: UserAuth, id: string): DomainRow {
  const row = domainById(rt.ctx.db, id);
  if (!row || !scopeCovers(resolveOrgScope(rt.ctx.db, auth), row.org_id)) throw notFound(DOMAIN_NOT_FOUND);
  return row;
}

function auditDomain(rt: SsoRuntime, req: Request, auth: UserAuth, row: DomainRow, action: string): void {
  auditCaller(rt.ctx, req, auth, {
    orgId: row.org_id,
    action,
    resourceType: 'sso_domain',
    resourceId: row.id,
    resourceName: row.domain,
  });
}

export function listDomains(rt: SsoRuntime, auth: UserAuth, orgId: string): SsoDomainListResponse {
  requireOrgAccess(rt.ctx.db, auth, orgId);
  return { data: domainsOf(rt.ctx.db, orgId).map(toDomain) };
}

export function addDomain(
  rt: SsoRuntime,
  req: Request,
  auth: UserAuth,
  orgId: string,
  domain: string,
): SsoDomain {
  requireWritableOwner(rt.ctx, auth, { orgId });
  const existing = domainOf(rt.ctx.db, orgId, domain);
  if (existing) return toDomain(existing);
  const row: DomainRow = {
    id: randomUUID(),
    org_id: orgId,
    domain,
    token: randomToken(24),
    verified_at: null,
    created_by: auth.userId,
    created_at: new Date().toISOString(),
  };
  insertDomain(rt.ctx.db, row);
  auditDomain(rt, req, auth, row, 'sso.domain.create');
  return toDomain(row);
}

/** Looks up the TXT record now; 400 naming the record to publish when it is not there. */
export async function verifyDomain(
  rt: SsoRuntime,
  req: Request,
  auth: UserAuth,
  id: string,
): Promise<SsoDomain> {
  const row = visibleDomain(rt, auth, id);
  requireWritableOwner(rt.ctx, auth, { orgId: row.org_id });
  // A name without TXT records (or no answer at all) is the same as a missing record.
  const records = await rt.txtResolver(txtName(row.domain)).catch((): string[][] => []);
  if (!records.some((parts) => parts.join('') === txtValue(row.token)))
    throw badRequest(
      `TXT record ${txtName(row.domain)} with value ${txtValue(row.token)} not found`,
      'SSO_DOMAIN_UNVERIFIED',
    );
  const at = new Date().toISOString();
  markDomainVerified(rt.ctx.db, row.id, at);
  auditDomain(rt, req, auth, row, 'sso.domain.verify');
  return toDomain({ ...row, verified_at: at });
}

export function removeDomain(rt: SsoRuntime, req: Request, auth: UserAuth, id: string): { success: true } {
  const row = visibleDomain(rt, auth, id);
  requireWritableOwner(rt.ctx, auth, { orgId: row.org_id });
  deleteDomain(rt.ctx.db, row.id);
  auditDomain(rt, req, auth, row, 'sso.domain.delete');
  return { success: true };
}
