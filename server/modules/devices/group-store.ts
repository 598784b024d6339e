import { statement, type Db } from '../../db/connection';
import { pagedQuery } from '../../db/paged';
import type { PageRequest } from '../../http/pagination';
import type { Clause, GroupRow } from './store';

// SQL for device groups and their members, as free functions of the database. A group's deviceCount counts the members the caller can see that are
// not decommissioned, so a restricted user never learns how many devices sit outside their sites or groups.

/**
 * The member count over `devices d`, narrowed by `visible` (the caller's restriction clauses over `d`; the group
 * already belongs to an organization the caller sees). The subquery's own alias is `gm`, so a restriction that
 * reads group memberships (alias `m`) stays independent of it.
 */
function countColumn(visible: Clause[]): Clause {
  return {
    sql: `(SELECT COUNT(*) FROM device_group_members gm JOIN devices d ON d.id = gm.device_id
      WHERE gm.group_id = g.id AND d.status <> 'decommissioned'${visible.map((c) => ` AND (${c.sql})`).join('')})
      AS device_count`,
    params: visible.flatMap((c) => c.params),
  };
}

const GROUP_COLUMNS = 'g.id, g.org_id, g.site_id, g.name, g.description, g.created_at, g.updated_at';

export interface NewGroup {
  id: string;
  orgId: string;
  siteId: string | null;
  name: string;
  description: string | null;
  at: string;
}

export interface MemberCandidate {
  id: string;
  org_id: string;
  site_id: string | null;
  status: string;
}

export function groupById(db: Db, id: string, visible: Clause[]): GroupRow | undefined {
  const count = countColumn(visible);
  return db
    .prepare(
      `SELECT ${GROUP_COLUMNS}, ${count.sql} FROM device_groups g
       JOIN organizations o ON o.id = g.org_id AND o.deleted_at IS NULL WHERE g.id = ?`,
    )
    .get(...count.params, id) as GroupRow | undefined;
}

export function listGroupRows(
  db: Db,
  clauses: Clause[],
  visible: Clause[],
  page: PageRequest,
): { rows: GroupRow[]; total: number } {
  const count = countColumn(visible);
  return pagedQuery<GroupRow>(db, {
    select: `${GROUP_COLUMNS}, ${count.sql}`,
    selectParams: count.params,
    from: 'device_groups g JOIN organizations o ON o.id = g.org_id AND o.deleted_at IS NULL',
    where: clauses.map((c) => `(${c.sql})`),
    params: clauses.flatMap((c) => c.params),
    orderBy: 'g.name COLLATE NOCASE, g.id',
    page,
  });
}

export function insertGroup(db: Db, group: NewGroup): void {
  statement(
    db,
    `INSERT INTO device_groups (id, org_id, site_id, name, description, created_at,
      updated_at) VALUES (@id, @orgId, @siteId, @name, @description, @at, @at)`,
  ).run(group);
}

export function updateGroupRow(
  db: Db,
  id: string,
  fields: { name?: string; description?: string | null; site_id?: string | null },
  at: string,
): void {
  const sets = Object.keys(fields).map((column) => `${column} = @${column}`);
  db.prepare(`UPDATE device_groups SET ${[...sets, 'updated_at = @at'].join(', ')} WHERE id = @id`).run({
    ...fields,
    id,
    at,
  });
}

export function deleteGroupRow(db: Db, id: string): boolean {
  return statement(db, 'DELETE FROM device_groups WHERE id = ?').run(id).changes === 1;
}

export function memberCandidates(db: Db, deviceIds: string[]): MemberCandidate[] {
  return statement(
    db,
    'SELECT id, org_id, site_id, status FROM devices WHERE id IN (SELECT value FROM json_each(?))',
  ).all(JSON.stringify(deviceIds)) as MemberCandidate[];
}

/** The devices that were not members yet (now added). */
export function addGroupMemberRows(db: Db, groupId: string, deviceIds: string[], at: string): string[] {
  const insert = statement(
    db,
    'INSERT OR IGNORE INTO device_group_members (group_id, device_id, added_at) VALUES (?, ?, ?)',
  );
  return deviceIds.filter((id) => insert.run(groupId, id, at).changes === 1);
}

export function removeGroupMemberRow(db: Db, groupId: string, deviceId: string): boolean {
  return (
    statement(db, 'DELETE FROM device_group_members WHERE group_id = ? AND device_id = ?').run(
      groupId,
      deviceId,
    ).changes === 1
  );
}

export function touchGroup(db: Db, id: string, at: string): void {
  db.prepare('UPDATE device_groups SET updated_at = ? WHERE id = ?').run(at, id);
}

/** Whether the device is a member of any of the groups (one JSON parameter, so the statement text stays fixed). */
export function inAnyGroup(db: Db, deviceId: string, groups: ReadonlySet<string>): boolean {
  if (groups.size === 0) return false;
  return (
    statement(
      db,
      'SELECT 1 FROM device_group_members m WHERE m.device_id = ? AND m.group_id IN (SELECT value FROM json_each(?)) LIMIT 1',
    ).get(deviceId, JSON.stringify([...groups])) !== undefined
  );
}
