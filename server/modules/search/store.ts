import { statement, type Db } from '../../db/connection';
import { escapeLike, likeContains } from '../../db/like';
import type { Clause } from '../devices';

// SQL of the global search: devices, organizations, elevation requests and elevation rules, each within the
// clauses the caller's scope gives (the service builds them with the one scope resolver). Users are searched
// through the users module's own directory query.

export interface DeviceHit {
  id: string;
  hostname: string;
  os_version: string;
  org_name: string;
  last_user: string | null;
}

const where = (clauses: Clause[]) => clauses.map((c) => c.sql).join(' AND ');
const paramsOf = (clauses: Clause[]) => clauses.flatMap((c) => c.params);

/**
 * Devices passing `visible` (the caller's device visibility) and not decommissioned whose hostname, display name
 * or last user contains `q`; a hostname prefix first, then another field's prefix, then by hostname.
 */
export function matchingDevices(db: Db, visible: Clause[], q: string, limit: number): DeviceHit[] {
  const contains = likeContains(q);
  const prefix = `${escapeLike(q)}%`;
  return statement(
    db,
    `SELECT d.id, d.hostname, d.os_version, o.name AS org_name, d.last_user
     FROM devices d JOIN organizations o ON o.id = d.org_id AND o.deleted_at IS NULL
     WHERE ${where(visible)} AND d.status <> 'decommissioned'
       AND (d.hostname LIKE ? ESCAPE '\\' OR d.display_name LIKE ? ESCAPE '\\' OR d.last_user LIKE ? ESCAPE '\\')
     ORDER BY CASE WHEN d.hostname LIKE ? ESCAPE '\\' THEN 0
                   WHEN d.display_name LIKE ? ESCAPE '\\' OR d.last_user LIKE ? ESCAPE '\\' THEN 1
                   ELSE 2 END,
              d.hostname COLLATE NOCASE, d.id
     LIMIT ?`,
  ).all(...paramsOf(visible), contains, contains, contains, prefix, prefix, prefix, limit) as DeviceHit[];
}

export interface OrganizationHit {
  id: string;
  name: string;
  status: string;
  partner_name: string;
}

/** Live organizations in `visible` whose name or slug contains `q`; name prefixes first, then by name. */
export function matchingOrganizations(db: Db, visible: Clause, q: string, limit: number): OrganizationHit[] {
  return statement(
    db,
    `SELECT o.id, o.name, o.status, p.name AS partner_name
     FROM organizations o JOIN partners p ON p.id = o.partner_id
     WHERE ${visible.sql} AND o.deleted_at IS NULL
       AND (o.name LIKE ? ESCAPE '\\' OR o.slug LIKE ? ESCAPE '\\')
     ORDER BY o.name NOT LIKE ? ESCAPE '\\', o.name COLLATE NOCASE, o.id
     LIMIT ?`,
  ).all(...visible.params, likeContains(q), likeContains(q), `${escapeLike(q)}%`, limit) as OrganizationHit[];
}

export interface RequestHit {
  id: string;
  status: string;
  risk_level: string;
  flow_type: string;
  target_executable_path: string | null;
  tool_name: string | null;
  subject_username: string | null;
  hostname: string;
  requested_at: string;
}

/**
 * Elevation requests passing `visible` (the device visibility, on `r`) whose executable path, signer, user, AI tool
 * or device hostname contains `q`, and with `pending` every pending one too: pending ones first (they wait for
 * someone), then newest first.
 */
export function matchingRequests(
  db: Db,
  visible: Clause[],
  q: string,
  limit: number,
  pending: boolean,
): RequestHit[] {
  const contains = likeContains(q);
  return statement(
    db,
    `SELECT r.id, r.status, r.risk_level, r.flow_type, r.target_executable_path, r.tool_name, r.subject_username,
            d.hostname, r.requested_at
     FROM elevation_requests r JOIN devices d ON d.id = r.device_id
     WHERE ${where(visible)}
       AND ((? = 1 AND r.status = 'pending')
            OR r.target_executable_path LIKE ? ESCAPE '\\' OR r.target_executable_signer LIKE ? ESCAPE '\\'
            OR r.subject_username LIKE ? ESCAPE '\\' OR r.tool_name LIKE ? ESCAPE '\\'
            OR d.hostname LIKE ? ESCAPE '\\')
     ORDER BY r.status <> 'pending', r.requested_at DESC, r.id
     LIMIT ?`,
  ).all(
    ...paramsOf(visible),
    pending ? 1 : 0,
    contains,
    contains,
    contains,
    contains,
    contains,
    limit,
  ) as RequestHit[];
}

export interface RuleHit {
  id: string;
  org_id: string;
  name: string;
  verdict: string;
  enabled: number;
  org_name: string;
}

/** Elevation rules of organizations in `visible` whose name, signer, path glob or AI tool contains `q`, by name. */
export function matchingRules(db: Db, visible: Clause, q: string, limit: number): RuleHit[] {
  const contains = likeContains(q);
  return statement(
    db,
    `SELECT r.id, r.org_id, r.name, r.verdict, r.enabled, o.name AS org_name
     FROM pam_rules r JOIN organizations o ON o.id = r.org_id AND o.deleted_at IS NULL
     WHERE ${visible.sql}
       AND (r.name LIKE ? ESCAPE '\\' OR r.match_signer LIKE ? ESCAPE '\\' OR r.match_path_glob LIKE ? ESCAPE '\\'
            OR r.match_tool_name LIKE ? ESCAPE '\\')
     ORDER BY r.name COLLATE NOCASE, r.id
     LIMIT ?`,
  ).all(...visible.params, contains, contains, contains, contains, limit) as RuleHit[];
}
