import type { AppContext } from '../../context';
import type { AuthContext } from '../../http/auth-context';
import { notFound } from '../../http/errors';
import { resolveOrgScope, scopeCovers, scopeFilter, siteRestriction, type OrgScope } from '../../http/scope';
import { deviceStore, type Clause, type DeviceRow } from './store';

// Which devices a caller sees: the organizations of its scope (server/http/scope.ts), narrowed for organization
// users restricted to sites. A restricted user sees only devices placed in one of their sites; a device without
// a site belongs to no site they were given, so it stays hidden from them.

export const DEVICE_NOT_FOUND = 'Device not found';

export interface DeviceVisibility {
  scope: OrgScope;
  /** Null: every site of the visible organizations (and devices without a site). */
  sites: ReadonlySet<string> | null;
}

export function deviceVisibility(ctx: Pick<AppContext, 'db'>, auth: AuthContext): DeviceVisibility {
  return { scope: resolveOrgScope(ctx.db, auth), sites: siteRestriction(ctx.db, auth) };
}

/** The SQL form of a visibility over the alias `d`. */
export function visibilityClauses(v: DeviceVisibility, alias = 'd'): Clause[] {
  const scoped = scopeFilter(v.scope, `${alias}.org_id`);
  const clauses: Clause[] = [
    { sql: scoped.clause, params: scoped.params, broadSql: scopeFilter(v.scope, `+${alias}.org_id`).clause },
  ];
  if (v.sites) {
    const inSites = (column: string) => `${column} IN (SELECT value FROM json_each(?))`;
    clauses.push({
      sql: inSites(`${alias}.site_id`),
      params: [JSON.stringify([...v.sites])],
      broadSql: inSites(`+${alias}.site_id`),
    });
  }
  return clauses;
}

export function canSeeDevice(v: DeviceVisibility, row: { org_id: string; site_id: string | null }): boolean {
  if (!scopeCovers(v.scope, row.org_id)) return false;
  return v.sites === null || (row.site_id !== null && v.sites.has(row.site_id));
}

/**
 * A device the caller may see, or 404 'Device not found' (spec 2: devices outside the caller's organizations are
 * not found, so ids cannot be probed across tenants). Decommissioned devices are still found: they are history.
 */
export function requireDevice(ctx: Pick<AppContext, 'db'>, auth: AuthContext, id: string): DeviceRow {
  const row = deviceStore(ctx.db).byId(id);
  if (!row || !canSeeDevice(deviceVisibility(ctx, auth), row)) throw notFound(DEVICE_NOT_FOUND);
  return row;
}

/** Who the audit log and created_by columns name for the caller. */
export const callerId = (auth: AuthContext): string => (auth.kind === 'user' ? auth.userId : auth.apiKeyId);
