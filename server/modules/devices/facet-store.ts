import type { DeviceFacet } from '../../contract';
import type { Db } from '../../db/connection';
import type { Clause } from './store';

// SQL of the device facets (GET /devices/facets): one GROUP BY per facet over `devices d`, narrowed by the same
// clauses as the device list, so a count never covers a device the list would not show.

/** The columns each facet groups by; agentBuild is the version on one platform and architecture. */
const FACET_COLUMNS: Record<DeviceFacet, string[]> = {
  org: ['d.org_id'],
  status: ['d.status'],
  osType: ['d.os_type'],
  agentVersion: ['d.agent_version'],
  agentBuild: ['d.agent_version', 'd.os_type', 'd.architecture'],
};

export interface FacetRow {
  value: string;
  os_type: string | null;
  architecture: string | null;
  n: number;
}

const whereOf = (clauses: Clause[]) => ({
  sql: clauses.length ? clauses.map((c) => `(${c.sql})`).join(' AND ') : '1 = 1',
  params: clauses.flatMap((c) => c.params),
});

export function matchingDeviceCount(db: Db, clauses: Clause[]): number {
  const w = whereOf(clauses);
  return (db.prepare(`SELECT COUNT(*) AS n FROM devices d WHERE ${w.sql}`).get(...w.params) as { n: number })
    .n;
}

/** Counts per value of one facet, largest first (ties by value, so the order is stable). */
export function facetRows(db: Db, clauses: Clause[], facet: DeviceFacet): FacetRow[] {
  const [value, os, arch] = FACET_COLUMNS[facet];
  const w = whereOf(clauses);
  const groupBy = FACET_COLUMNS[facet].join(', ');
  return db
    .prepare(
      `SELECT ${value} AS value, ${os ?? 'NULL'} AS os_type, ${arch ?? 'NULL'} AS architecture, COUNT(*) AS n
       FROM devices d WHERE ${w.sql} GROUP BY ${groupBy} ORDER BY n DESC, ${groupBy}`,
    )
    .all(...w.params) as FacetRow[];
}
