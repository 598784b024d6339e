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
    // Ordinary tables only: a virtual table (the audit search index) and its shadow tables cannot be STRICT.
    const loose = db
      .prepare(
        "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%' AND strict = 0",
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

  it('rebuild a parent table without cascading into its children, and refuse dangling references', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-mig-'));
    writeFileSync(
      join(dir, '0001_tables.sql'),
      `CREATE TABLE parent (id TEXT PRIMARY KEY, level INTEGER CHECK (level BETWEEN 1 AND 3)) STRICT;
       CREATE TABLE child (id TEXT PRIMARY KEY, parent_id TEXT NOT NULL REFERENCES parent(id) ON DELETE CASCADE) STRICT;
       INSERT INTO parent VALUES ('p', 1);
       INSERT INTO child VALUES ('c', 'p');`,
    );
    writeFileSync(
      join(dir, '0002_widen.sql'),
      `CREATE TABLE parent_next (id TEXT PRIMARY KEY, level INTEGER CHECK (level BETWEEN 0 AND 3)) STRICT;
       INSERT INTO parent_next SELECT * FROM parent;
       DROP TABLE parent;
       ALTER TABLE parent_next RENAME TO parent;`,
    );
    const db = openDatabase(join(dir, 'g.db'));
    expect(migrate(db, loadMigrations(dir))).toEqual([1, 2]);
    expect(db.prepare('SELECT parent_id FROM child').all()).toEqual([{ parent_id: 'p' }]);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    db.prepare("INSERT INTO parent VALUES ('q', 0)").run();

    writeFileSync(join(dir, '0003_dangling.sql'), "INSERT INTO child VALUES ('d', 'nowhere');");
    expect(() => migrate(db, loadMigrations(dir))).toThrow(MigrationError);
    expect(currentVersion(db)).toBe(2);
    expect(db.prepare("SELECT id FROM child WHERE id = 'd'").get()).toBeUndefined();
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    db.close();
  });

  it('refuse gaps in the numbering', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-mig-'));
    writeFileSync(join(dir, '0001_a.sql'), 'SELECT 1;');
    writeFileSync(join(dir, '0003_c.sql'), 'SELECT 1;');
    expect(() => loadMigrations(dir)).toThrow(MigrationError);
  });
});
