import type { Db } from '../db/connection';
import type { AuthContext } from './auth-context';

// The one scope resolver: which organizations a caller may see. Every scoped query and every console push asks
// it, so tenant isolation is decided in one place.

export type OrgScope = { kind: 'all' } | { kind: 'some'; orgIds: ReadonlySet<string> };

export function resolveOrgScope(
  db: Db,
  auth: Pick<AuthContext, 'scope' | 'userId' | 'partnerId' | 'orgId'>,
): OrgScope {
  if (auth.scope === 'system') return { kind: 'all' };
  if (auth.scope === 'organization') return { kind: 'some', orgIds: new Set(auth.orgId ? [auth.orgId] : []) };
  const link = db
    .prepare('SELECT org_access, org_ids FROM partner_users WHERE partner_id = ? AND user_id = ?')
    .get(auth.partnerId, auth.userId) as
    { org_access: 'all' | 'selected' | 'none'; org_ids: string } | undefined;
  if (!link || link.org_access === 'none') return { kind: 'some', orgIds: new Set() };
  const partnerOrgs = (
    db
      .prepare('SELECT id FROM organizations WHERE partner_id = ? AND deleted_at IS NULL')
      .all(auth.partnerId) as Array<{ id: string }>
  ).map((r) => r.id);
  if (link.org_access === 'all') return { kind: 'some', orgIds: new Set(partnerOrgs) };
  const selected = new Set(JSON.parse(link.org_ids) as string[]);
  return { kind: 'some', orgIds: new Set(partnerOrgs.filter((id) => selected.has(id))) };
}

/** Platform-level entries (orgId null) are visible to system scope only. */
export function scopeCovers(scope: OrgScope, orgId: string | null): boolean {
  if (scope.kind === 'all') return true;
  return orgId !== null && scope.orgIds.has(orgId);
}
