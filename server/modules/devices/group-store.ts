import { statement, type Db } from '../../db/connection';
import { pagedQuery } from '../../db/paged';
import type { PageRequest } from '../../http/pagination';
import type { Clause, GroupRow } from './store';

// SQL for device groups and their members. A group's deviceCount counts the members the caller can see that are
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

export class GroupStore {
  private readonly insertStmt;
  private readonly deleteStmt;
  private readonly addMemberStmt;
  private readonly removeMemberStmt;
  private readonly candidatesStmt;

  constructor(private readonly db: Db) {
    this.insertStmt =
      db.prepare(`INSERT INTO device_groups (id, org_id, site_id, name, description, created_at,
      updated_at) VALUES (@id, @orgId, @siteId, @name, @description, @at, @at)`);
    this.deleteStmt = db.prepare('DELETE FROM device_groups WHERE id = ?');
    this.addMemberStmt = db.prepare(
      'INSERT OR IGNORE INTO device_group_members (group_id, device_id, added_at) VALUES (?, ?, ?)',
    );
    this.removeMemberStmt = db.prepare(
      'DELETE FROM device_group_members WHERE group_id = ? AND device_id = ?',
    );
    this.candidatesStmt = db.prepare(
      'SELECT id, org_id, site_id, status FROM devices WHERE id IN (SELECT value FROM json_each(?))',
    );
  }

  byId(id: string, visible: Clause[]): GroupRow | undefined {
    const count = countColumn(visible);
    return this.db
      .prepare(
        `SELECT ${GROUP_COLUMNS}, ${count.sql} FROM device_groups g
         JOIN organizations o ON o.id = g.org_id AND o.deleted_at IS NULL WHERE g.id = ?`,
      )
      .get(...count.params, id) as GroupRow | undefined;
  }

  list(clauses: Clause[], visible: Clause[], page: PageRequest): { rows: GroupRow[]; total: number } {
    const count = countColumn(visible);
    return pagedQuery<GroupRow>(this.db, {
      select: `${GROUP_COLUMNS}, ${count.sql}`,
      selectParams: count.params,
      from: 'device_groups g JOIN organizations o ON o.id = g.org_id AND o.deleted_at IS NULL',
      where: clauses.map((c) => `(${c.sql})`),
      params: clauses.flatMap((c) => c.params),
      orderBy: 'g.name COLLATE NOCASE, g.id',
      page,
    });
  }

  insert(group: NewGroup): void {
    this.insertStmt.run(group);
  }

  update(
    id: string,
    fields: { name?: string; description?: string | null; site_id?: string | null },
    at: string,
  ): void {
    const sets = Object.keys(fields).map((column) => `${column} = @${column}`);
    this.db
      .prepare(`UPDATE device_groups SET ${[...sets, 'updated_at = @at'].join(', ')} WHERE id = @id`)
      .run({ ...fields, id, at });
  }

  delete(id: string): boolean {
    return this.deleteStmt.run(id).changes === 1;
  }

  candidates(deviceIds: string[]): MemberCandidate[] {
    return this.candidatesStmt.all(JSON.stringify(deviceIds)) as MemberCandidate[];
  }

  /** The devices that were not members yet (now added). */
  addMembers(groupId: string, deviceIds: string[], at: string): string[] {
    return deviceIds.filter((id) => this.addMemberStmt.run(groupId, id, at).changes === 1);
  }

  removeMember(groupId: string, deviceId: string): boolean {
    return this.removeMemberStmt.run(groupId, deviceId).changes === 1;
  }

  touch(id: string, at: string): void {
    this.db.prepare('UPDATE device_groups SET updated_at = ? WHERE id = ?').run(at, id);
  }
}

const stores = new WeakMap<Db, GroupStore>();

export function groupStore(db: Db): GroupStore {
  let store = stores.get(db);
  if (!store) {
    store = new GroupStore(db);
    stores.set(db, store);
  }
  return store;
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
