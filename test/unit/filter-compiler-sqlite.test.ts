import { describe, expect, it } from 'vitest';
import type { FilterCondition } from '../../server/contract/filters';
import { customFieldTypesFor, filterRegExp } from '../../server/modules/filters/compile';
import { compile, db, useCompilerDb } from '../support/filter-compiler';

// What runs inside SQLite: the regexp function, the custom-field types read from the definitions, and the
// child-table (tags, software, groups) conditions over real rows.

useCompilerDb();

describe('regexp SQL function', () => {
  it('matches case-sensitively unless the pattern starts with (?i), and passes NULL through', () => {
    const run = (pattern: string, value: string | null) =>
      (db.prepare('SELECT ? REGEXP ? AS m').get(value, pattern) as { m: number | null }).m;
    expect(run('^web', 'web-01')).toBe(1);
    expect(run('^web', 'WEB-01')).toBe(0);
    expect(run('(?i)^web', 'WEB-01')).toBe(1);
    expect(run('^web', null)).toBeNull();
    expect(filterRegExp('(?i)x')).toBe(filterRegExp('(?i)x'));
  });
});

describe('customFieldTypesFor', () => {
  it("prefers the organization's definition over its partner's over a global one, oldest first", () => {
    const at = (n: number) => `2026-01-0${n}T00:00:00.000Z`;
    db.prepare(
      "INSERT INTO partners (id, name, slug, created_at, updated_at) VALUES ('p1', 'P', 'p1', ?, ?)",
    ).run(at(1), at(1));
    for (const org of ['o1', 'o2'])
      db.prepare(
        "INSERT INTO organizations (id, partner_id, name, slug, created_at, updated_at) VALUES (?, 'p1', ?, ?, ?, ?)",
      ).run(org, org, org, at(1), at(1));
    const def = db.prepare(
      'INSERT INTO custom_fields (id, partner_id, org_id, field_key, name, type, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    def.run('f1', null, null, 'a', 'A', 'boolean', at(1), at(1));
    def.run('f2', 'p1', null, 'a', 'A', 'number', at(2), at(2));
    def.run('f3', null, 'o1', 'a', 'A', 'datetime', at(3), at(3));
    def.run('f4', null, 'o2', 'a', 'A', 'string', at(4), at(4));
    def.run('f5', 'p1', null, 'b', 'B', 'number', at(5), at(5));
    def.run('f6', null, null, 'c', 'C', 'boolean', at(6), at(6));
    expect(Object.fromEntries(customFieldTypesFor(db, ['o1']))).toEqual({
      a: 'datetime',
      b: 'number',
      c: 'boolean',
    });
    expect(Object.fromEntries(customFieldTypesFor(db, ['o2']))).toEqual({
      a: 'string',
      b: 'number',
      c: 'boolean',
    });
    expect(Object.fromEntries(customFieldTypesFor(db, ['o1', 'o2']))).toEqual({
      a: 'datetime',
      b: 'number',
      c: 'boolean',
    });
    expect(Object.fromEntries(customFieldTypesFor(db, ['elsewhere']))).toEqual({
      a: 'boolean',
      c: 'boolean',
    });
    expect(Object.fromEntries(customFieldTypesFor(db, 'all'))).toEqual({
      a: 'datetime',
      b: 'number',
      c: 'boolean',
    });
  });
});

describe('child-table conditions', () => {
  it('count tags that differ only in case once for hasAll, and complement exactly for isEmpty', () => {
    const at = '2026-01-01T00:00:00.000Z';
    db.prepare(
      "INSERT INTO partners (id, name, slug, created_at, updated_at) VALUES ('pt', 'P', 'pt', ?, ?)",
    ).run(at, at);
    db.prepare(
      "INSERT INTO organizations (id, partner_id, name, slug, created_at, updated_at) VALUES ('ot', 'pt', 'O', 'ot', ?, ?)",
    ).run(at, at);
    const device = db.prepare(
      `INSERT INTO devices (id, org_id, agent_id, agent_token_hash, hostname, os_type, os_version, architecture,
         agent_version, enrolled_at, created_at, updated_at)
       VALUES (?, 'ot', ?, ?, ?, 'linux', 'Debian 12', 'x64', '1.0.0', ?, ?, ?)`,
    );
    for (const id of ['dev-a', 'dev-b', 'dev-c']) device.run(id, `agent-${id}`, `hash-${id}`, id, at, at, at);
    const tag = db.prepare('INSERT INTO device_tags (device_id, tag) VALUES (?, ?)');
    for (const t of ['Production', 'production', 'vip']) tag.run('dev-a', t);
    tag.run('dev-b', 'PRODUCTION');
    const matching = (condition: FilterCondition) => {
      const { sql, params } = compile(condition);
      return (
        db
          .prepare(`SELECT d.id FROM devices d WHERE d.org_id = 'ot' AND ${sql} ORDER BY d.id`)
          .all(...params) as Array<{
          id: string;
        }>
      ).map((r) => r.id);
    };
    expect(matching({ field: 'tags', operator: 'hasAll', value: ['production', 'VIP'] })).toEqual(['dev-a']);
    expect(matching({ field: 'tags', operator: 'hasAll', value: ['production', 'Production'] })).toEqual([
      'dev-a',
      'dev-b',
    ]);
    expect(matching({ field: 'tags', operator: 'hasAll', value: ['production', 'finance'] })).toEqual([]);
    expect(matching({ field: 'tags', operator: 'hasAny', value: ['Vip', 'nothing'] })).toEqual(['dev-a']);
    expect(matching({ field: 'tags', operator: 'isEmpty' })).toEqual(['dev-c']);
    expect(matching({ field: 'tags', operator: 'isNotEmpty' })).toEqual(['dev-a', 'dev-b']);
  });
});
