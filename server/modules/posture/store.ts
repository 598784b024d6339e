import type { Db } from '../../db/connection';
import { pagedQuery } from '../../db/paged';
import type { PageRequest } from '../../http/pagination';

// SQL of the management posture report, as free functions of the database. `devices.management_posture` holds the agent's last report as a JSON
// array of `{product, status}`; json_each unpacks it so counting happens in SQLite, not row by row here.

/** A set of devices: the caller's scope as SQL over `d` (devices) with its parameters. */
export interface DeviceSet {
  clause: string;
  params: unknown[];
}

// Entries that are not objects with a text `product` are skipped rather than failing the report: the column
// holds whatever an agent sent. The nested CASEs keep json_type away from values that are not JSON objects.
const ENTRIES = `
  WITH scoped AS (
    SELECT d.id, d.org_id, d.site_id, d.hostname, d.status, d.management_posture, d.posture_reported_at
    FROM devices d JOIN organizations o ON o.id = d.org_id AND o.deleted_at IS NULL
    WHERE d.status <> 'decommissioned' AND (%SCOPE%)
  ),
  entries AS (
    SELECT s.id, s.org_id, s.site_id, s.hostname, s.status AS device_status, s.posture_reported_at,
      CASE WHEN e.type = 'object' THEN
        CASE WHEN json_type(e.value, '$.product') = 'text' THEN json_extract(e.value, '$.product') END
      END AS product,
      coalesce(CASE WHEN e.type = 'object' THEN
        CASE WHEN json_type(e.value, '$.status') = 'text' THEN json_extract(e.value, '$.status') END
      END, 'unknown') AS status
    FROM scoped s, json_each(s.management_posture) e
    WHERE s.management_posture IS NOT NULL
  )`;

const withScope = (set: DeviceSet) => ENTRIES.replace('%SCOPE%', set.clause);

export interface ProductCountRow {
  org_id: string;
  product: string;
  status: string;
  device_count: number;
}

export interface PostureDeviceRow {
  id: string;
  hostname: string;
  org_id: string;
  site_id: string | null;
  status: string;
  device_status: string;
  posture_reported_at: string | null;
}

/** Organizations with at least one device in the set, by name. */
export function postureOrgs(db: Db, set: DeviceSet): Array<{ id: string; name: string }> {
  return db
    .prepare(
      `SELECT o.id, o.name FROM organizations o
       WHERE o.id IN (SELECT d.org_id FROM devices d WHERE d.status <> 'decommissioned' AND (${set.clause}))
         AND o.deleted_at IS NULL
       ORDER BY o.name COLLATE NOCASE, o.id`,
    )
    .all(...set.params) as Array<{ id: string; name: string }>;
}

export function postureProductCounts(db: Db, set: DeviceSet): ProductCountRow[] {
  return db
    .prepare(
      `${withScope(set)}
       SELECT org_id, product, status, count(DISTINCT id) AS device_count FROM entries
       WHERE product IS NOT NULL
       GROUP BY org_id, product, status
       ORDER BY org_id, product COLLATE NOCASE, status`,
    )
    .all(...set.params) as ProductCountRow[];
}

/** Devices that never reported posture, and devices whose last report is older than `staleBefore`. */
export function postureTotals(
  db: Db,
  set: DeviceSet,
  staleBefore: string,
): { neverScanned: number; stale: number } {
  const row = db
    .prepare(
      `SELECT coalesce(sum(d.posture_reported_at IS NULL), 0) AS never_scanned,
              coalesce(sum(d.posture_reported_at IS NOT NULL AND d.posture_reported_at < ?), 0) AS stale
       FROM devices d JOIN organizations o ON o.id = d.org_id AND o.deleted_at IS NULL
       WHERE d.status <> 'decommissioned' AND (${set.clause})`,
    )
    .get(staleBefore, ...set.params) as { never_scanned: number; stale: number };
  return { neverScanned: row.never_scanned, stale: row.stale };
}

/** Devices reporting a product (and status), by hostname; product and status match case-insensitively. */
export function postureDeviceRows(
  db: Db,
  set: DeviceSet,
  filter: { product: string; status?: string | undefined },
  page: PageRequest,
): { rows: PostureDeviceRow[]; total: number } {
  const where = `lower(product) = lower(?) AND (? IS NULL OR lower(status) = lower(?))`;
  const params = [...set.params, filter.product, filter.status ?? null, filter.status ?? null];
  const matches = `${withScope(set)}
    SELECT id, hostname, org_id, site_id, status, device_status, posture_reported_at FROM entries
    WHERE product IS NOT NULL AND ${where}
    GROUP BY id, status`;
  // The scoped CTE goes inside the FROM so the count and the page read the very same rows.
  return pagedQuery<PostureDeviceRow>(db, {
    select: '*',
    from: `(${matches})`,
    params,
    orderBy: 'hostname COLLATE NOCASE, id, status',
    page,
  });
}
