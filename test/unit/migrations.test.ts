import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/connection';
import { currentVersion, loadMigrations, migrate, MigrationError } from '../../server/db/migrate';

describe('migrations', () => {
  it('apply in order once, on a WAL database with foreign keys and STRICT tables', () => {
    const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'gatehouse-mig-')), 'g.db'));
    const migrations = loadMigrations();
    expect(migrations[0]).toMatchObject({ version: 1, name: 'identity_core' });
    expect(migrate(db, migrations)).toEqual(migrations.map((m) => m.version));
    expect(migrate(db, migrations)).toEqual([]);
    expect(currentVersion(db)).toBe(migrations.length);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    const loose = db
      .prepare(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE '%STRICT%'",
      )
      .all();
    expect(loose).toEqual([]);
    db.close();
  });

  it('roll back a failing migration whole', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-mig-'));
    writeFileSync(join(dir, '0001_ok.sql'), 'CREATE TABLE a (x INTEGER) STRICT;');
    writeFileSync(
      join(dir, '0002_broken.sql'),
      'CREATE TABLE b (x INTEGER) STRICT; INSERT INTO nowhere VALUES (1);',
    );
    const db = openDatabase(join(dir, 'g.db'));
    expect(() => migrate(db, loadMigrations(dir))).toThrow();
    expect(currentVersion(db)).toBe(1);
    expect(db.prepare("SELECT name FROM sqlite_schema WHERE name = 'b'").get()).toBeUndefined();
    db.close();
  });

  it('refuse gaps in the numbering', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-mig-'));
    writeFileSync(join(dir, '0001_a.sql'), 'SELECT 1;');
    writeFileSync(join(dir, '0003_c.sql'), 'SELECT 1;');
    expect(() => loadMigrations(dir)).toThrow(MigrationError);
  });
});
