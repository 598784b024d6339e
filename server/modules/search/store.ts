import { statement, type Db } from '../../db/connection';
import { escapeLike } from '../../db/like';
import type { Clause } from '../devices';

// SQL of the global search: devices by hostname, display name or last user.

export interface DeviceHit {
  id: string;
  hostname: string;
  os_version: string;
  org_name: string;
  last_user: string | null;
}

/**
 * Devices passing `visible` (the caller's device visibility) and not decommissioned whose hostname, display name
 * or last user contains `q`; a hostname prefix first, then another field's prefix, then by hostname.
 */
export function matchingDevices(db: Db, visible: Clause[], q: string, limit: number): DeviceHit[] {
  const contains = `%${escapeLike(q)}%`;
  const prefix = `${escapeLike(q)}%`;
  return statement(
    db,
    `SELECT d.id, d.hostname, d.os_version, o.name AS org_name, d.last_user
     FROM devices d JOIN organizations o ON o.id = d.org_id AND o.deleted_at IS NULL
     WHERE ${visible.map((c) => c.sql).join(' AND ')} AND d.status <> 'decommissioned'
       AND (d.hostname LIKE ? ESCAPE '\\' OR d.display_name LIKE ? ESCAPE '\\' OR d.last_user LIKE ? ESCAPE '\\')
     ORDER BY CASE WHEN d.hostname LIKE ? ESCAPE '\\' THEN 0
                   WHEN d.display_name LIKE ? ESCAPE '\\' OR d.last_user LIKE ? ESCAPE '\\' THEN 1
                   ELSE 2 END,
              d.hostname COLLATE NOCASE, d.id
     LIMIT ?`,
  ).all(
    ...visible.flatMap((c) => c.params),
    contains,
    contains,
    contains,
    prefix,
    prefix,
    prefix,
    limit,
  ) as DeviceHit[];
}
