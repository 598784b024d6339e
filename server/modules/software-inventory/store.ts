import type { Db } from '../../db/connection';
import { likeContains } from '../../db/like';
import { pagedQuery } from '../../db/paged';
import type { PageRequest } from '../../http/pagination';

// SQL of the stored software inventory (device_software, replaced whole by PUT /agents/:agentId/software).

export interface SoftwareRow {
  name: string;
  version: string | null;
  publisher: string | null;
}

/** One page of a device's software by name; `q` matches name or publisher, case-insensitively. */
export function deviceSoftwarePage(
  db: Db,
  deviceId: string,
  q: string | undefined,
  page: PageRequest,
): { rows: SoftwareRow[]; total: number } {
  const where = ['device_id = ?'];
  const params: unknown[] = [deviceId];
  if (q) {
    where.push("(name LIKE ? ESCAPE '\\' OR publisher LIKE ? ESCAPE '\\')");
    params.push(likeContains(q), likeContains(q));
  }
  return pagedQuery<SoftwareRow>(db, {
    select: 'name, version, publisher',
    from: 'device_software',
    where,
    params,
    orderBy: 'name COLLATE NOCASE, name',
    page,
  });
}
