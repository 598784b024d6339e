import { afterAll, beforeAll, expect } from 'vitest';
import type { FilterConditionGroup } from '../../server/contract/filters';
import { openDatabase, type Db } from '../../server/db/connection';
import { loadMigrations, migrate, type Migration } from '../../server/db/migrate';
import { compileFilter, registerFilterFunctions } from '../../server/modules/filters/compile';
import { previewDevices, type Clause } from '../../server/modules/filters/store';
import { insertFleet, type Fleet } from './fleet';

// A real in-memory database with a seeded fleet for the suites that compare the filter forms of migration 0018
// with the SQL before it (test/unit/filter-indexes*.test.ts), and the invariant the triggers must keep: the
// dictionaries and link tables say exactly what device_tags and device_software say.

export const ORGS = ['org-a', 'org-b'];

export function openWorld(migrations: Migration[] = loadMigrations()): Db {
  const db = openDatabase(':memory:');
  migrate(db, migrations);
  registerFilterFunctions(db);
  const at = '2026-01-01T00:00:00.000Z';
  db.prepare(
    "INSERT INTO partners (id, name, slug, created_at, updated_at) VALUES ('p', 'P', 'p', ?, ?)",
  ).run(at, at);
  for (const org of ORGS)
    db.prepare(
      "INSERT INTO organizations (id, partner_id, name, slug, created_at, updated_at) VALUES (?, 'p', ?, ?, ?, ?)",
    ).run(org, org, org, at, at);
  return db;
}

export let db: Db;
export let fleet: Fleet;

/** A suite's world: `count` seeded devices over two organizations. */
export function useFleetWorld(count: number): void {
  beforeAll(() => {
    db = openWorld();
    fleet = insertFleet(db, { orgIds: ORGS, count, seed: 11 });
    db.exec('ANALYZE');
  });
  afterAll(() => db.close());
}

/** The preview of every visible device (system scope) in both forms, as the filters service runs it. */
export function preview(group: FilterConditionGroup, now: Date, limit: number, scope: Clause[] = []) {
  const sets = compileFilter(group, { now });
  const probes = compileFilter(group, { now, childForm: 'probe' });
  const result = previewDevices(db, scope, { sets, probes }, limit);
  return { totalCount: result.totalCount, ids: result.devices.map((d) => d.id) };
}

/**
 * What the link tables hold next to what they should hold, recomputed from the rows they mirror; names in use
 * that the dictionaries lack; devices without a key. Equal and empty when the triggers kept everything in step.
 */
export function linksAgainstSource(on: Db = db) {
  const rows = (sql: string) => on.prepare(sql).raw().all() as unknown[][];
  const side = (names: string, links: string, table: string, col: string) => ({
    stored: rows(`SELECT name_id, device_key, n FROM ${links} ORDER BY 1, 2`),
    expected: rows(
      `SELECT n.id, d.filter_key, count(*) FROM ${table} x JOIN ${names} n ON n.name = x.${col}
       JOIN devices d ON d.id = x.device_id GROUP BY 1, 2 ORDER BY 1, 2`,
    ),
    missingNames: rows(
      `SELECT ${col} FROM ${table} WHERE ${col} COLLATE NOCASE NOT IN (SELECT name FROM ${names})`,
    ),
  });
  return {
    tags: side('tag_names', 'device_tag_links', 'device_tags', 'tag'),
    software: side('software_names', 'device_software_links', 'device_software', 'name'),
    devicesWithoutKey: rows('SELECT id FROM devices WHERE filter_key IS NULL'),
  };
}

/** Asserts linksAgainstSource finds nothing out of step. */
export function expectLinksInStep(on: Db = db): void {
  const r = linksAgainstSource(on);
  for (const side of [r.tags, r.software]) {
    expect(side.stored).toEqual(side.expected);
    expect(side.missingNames).toEqual([]);
  }
  expect(r.devicesWithoutKey).toEqual([]);
}
