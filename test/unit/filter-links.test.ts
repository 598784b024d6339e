import { describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/connection';
import { loadMigrations, migrate } from '../../server/db/migrate';
import { replaceDeviceSoftware } from '../../server/modules/agents/ingest-store';
import { replaceDeviceTags } from '../../server/modules/devices/store';
import { compileFilter } from '../../server/modules/filters/compile';
import { insertFleet } from '../support/fleet';
import { legacyFilter } from '../support/filter-legacy';
import { db, expectLinksInStep, fleet, openWorld, useFleetWorld } from '../support/filter-world';

// The tag and software dictionaries and links of migration 0018 are kept by triggers, so every path that writes
// device_tags or device_software keeps them in step: the technician's tag edit (replaceDeviceTags), the agent's
// inventory report (replaceDeviceSoftware), SQL written directly (imports of fixtures, the fleet seeder), rows
// changed in place, and devices deleted outright. After each, the links equal a recomputation from the rows, and
// filters answer as the SQL before 0018 did.

useFleetWorld(300);

const software = (...names: string[]) => names.map((name) => ({ name, version: '1.0', publisher: null }));

/** Devices a condition selects, the new way and the old way. */
function bothWays(field: string, operator: string, value?: unknown) {
  const group = { operator: 'AND' as const, conditions: [{ field, operator, value }] };
  const ids = (sql: string, params: unknown[]) =>
    db
      .prepare(`SELECT d.id FROM devices d WHERE ${sql} ORDER BY d.id`)
      .pluck()
      .all(...params) as string[];
  const after = compileFilter(group, { now: fleet.now });
  const before = legacyFilter(group, fleet.now);
  return { after: ids(after.sql, after.params), before: ids(before.sql, before.params) };
}

const deviceId = (i: number) => fleet.devices[i]!.id;

describe('links follow every write of tags and software', () => {
  it('a tag edit: spellings that differ only in case share one link until the last one goes', () => {
    const id = deviceId(0);
    replaceDeviceTags(db, id, ['Rack-7', 'rack-7', 'ZZ-only']);
    expectLinksInStep();
    expect(bothWays('tags', 'hasAny', ['RACK-7']).after).toContain(id);
    replaceDeviceTags(db, id, ['rack-7']);
    expectLinksInStep();
    expect(bothWays('tags', 'hasAny', ['Rack-7']).after).toContain(id);
    replaceDeviceTags(db, id, []);
    expectLinksInStep();
    const gone = bothWays('tags', 'hasAny', ['rack-7', 'zz-only']);
    expect(gone.after).toEqual([]);
    expect(gone.after).toEqual(gone.before);
    expect(bothWays('tags', 'isEmpty').after).toContain(id);
  });

  it('an inventory reported again unchanged writes nothing; a new version is one update, links untouched', () => {
    const id = deviceId(2);
    const changes = () => db.prepare('SELECT total_changes()').pluck().get() as number;
    const inventory = software('Again A', 'Again B', 'Again C');
    replaceDeviceSoftware(db, id, inventory);
    const before = changes();
    replaceDeviceSoftware(db, id, inventory);
    expect(changes()).toBe(before);
    replaceDeviceSoftware(db, id, [
      ...software('Again A', 'Again B'),
      { name: 'Again C', version: '2.0', publisher: 'X' },
    ]);
    expect(changes()).toBe(before + 1);
    expect(
      db
        .prepare('SELECT version, publisher FROM device_software WHERE device_id = ? AND name = ?')
        .get(id, 'Again C'),
    ).toEqual({ version: '2.0', publisher: 'X' });
    expectLinksInStep();
  });

  it("an agent's inventory report, names repeated and in other cases, then replaced", () => {
    const id = deviceId(1);
    replaceDeviceSoftware(db, id, software('Tool X', 'TOOL X', 'tool x', 'Tool X', 'Other App'));
    expectLinksInStep();
    const tool = bothWays('software.installed', 'equals', 'tool x');
    expect(tool.after).toEqual([id]);
    expect(tool.after).toEqual(tool.before);
    replaceDeviceSoftware(db, id, software('Other App'));
    expectLinksInStep();
    expect(bothWays('software.installed', 'contains', 'tool').after).toEqual([]);
    const notInstalled = bothWays('software.notInstalled', 'contains', 'other app');
    expect(notInstalled.after).not.toContain(id);
    expect(notInstalled.after).toEqual(notInstalled.before);
  });

  it('rows changed in place (a rename, a move to another device)', () => {
    const [a, b] = [deviceId(2), deviceId(3)];
    replaceDeviceTags(db, a, ['Moving', 'staying']);
    db.prepare("UPDATE device_tags SET tag = 'Renamed' WHERE device_id = ? AND tag = 'staying'").run(a);
    db.prepare("UPDATE device_tags SET device_id = ? WHERE device_id = ? AND tag = 'Moving'").run(b, a);
    replaceDeviceSoftware(db, a, software('Editor'));
    db.prepare("UPDATE device_software SET name = 'EDITOR Pro' WHERE device_id = ?").run(a);
    expectLinksInStep();
    expect(bothWays('tags', 'hasAny', ['moving']).after).toEqual([b]);
    expect(bothWays('tags', 'hasAny', ['renamed']).after).toEqual([a]);
    expect(bothWays('software.installed', 'contains', 'editor pro').after).toEqual([a]);
  });

  it('a device deleted outright takes its links along (its rows go by cascade)', () => {
    const id = deviceId(4);
    replaceDeviceTags(db, id, ['doomed']);
    replaceDeviceSoftware(db, id, software('Doomed App'));
    const key = db.prepare('SELECT filter_key FROM devices WHERE id = ?').pluck().get(id) as number;
    db.prepare('DELETE FROM device_metric_points WHERE device_id = ?').run(id);
    db.prepare('DELETE FROM device_group_members WHERE device_id = ?').run(id);
    db.prepare('DELETE FROM devices WHERE id = ?').run(id);
    expectLinksInStep();
    for (const links of ['device_tag_links', 'device_software_links'])
      expect(db.prepare(`SELECT count(*) FROM ${links} WHERE device_key = ?`).pluck().get(key)).toBe(0);
  });

  it('new devices take a fresh key, even after keys were handed out above the rowids', () => {
    // A key moved above the others (nothing does this; the links must follow) is not handed out again.
    db.prepare('UPDATE devices SET filter_key = filter_key + 1000000 WHERE id = ?').run(deviceId(5));
    const highest = db.prepare('SELECT max(filter_key) FROM devices').pluck().get() as number;
    const more = insertFleet(db, { orgIds: ['org-a'], count: 3, seed: 99 });
    const keys = more.devices.map(
      (d) => db.prepare('SELECT filter_key FROM devices WHERE id = ?').pluck().get(d.id) as number,
    );
    expect(Math.min(...keys)).toBeGreaterThan(highest);
    expect(new Set(keys).size).toBe(3);
    expectLinksInStep();
  });
});

describe('the migration on a database that already holds devices', () => {
  it('gives every device a key and builds links that answer as the rows did', () => {
    const migrations = loadMigrations();
    const before: Db = openWorld(migrations.filter((m) => m.version < 18));
    try {
      insertFleet(before, { orgIds: ['org-a', 'org-b'], count: 200, seed: 5 });
      before.prepare("INSERT INTO device_tags (device_id, tag) SELECT id, 'VIP' FROM devices LIMIT 7").run();
      const legacy = legacyFilter(
        { operator: 'AND', conditions: [{ field: 'tags', operator: 'hasAll', value: ['vip', 'finance'] }] },
        new Date(),
      );
      const expected = before
        .prepare(`SELECT d.id FROM devices d WHERE ${legacy.sql} ORDER BY d.id`)
        .pluck()
        .all(...legacy.params);
      migrate(before, migrations);
      expectLinksInStep(before);
      const now = compileFilter({
        operator: 'AND',
        conditions: [{ field: 'tags', operator: 'hasAll', value: ['vip', 'finance'] }],
      });
      expect(
        before
          .prepare(`SELECT d.id FROM devices d WHERE ${now.sql} ORDER BY d.id`)
          .pluck()
          .all(...now.params),
      ).toEqual(expected);
    } finally {
      before.close();
    }
  });
});
