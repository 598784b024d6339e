import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { afterCommit } from '../../server/db/after-commit';
import { openDatabase, type Db } from '../../server/db/connection';
import { commitSoon } from '../../server/db/group-commit';

// Group commit on a real SQLite file, watched from a second connection: writes queued in one turn share one
// transaction, each is settled only after the commit, and a failing one rolls back alone.

describe('commitSoon', () => {
  let dir: string;
  let db: Db;
  let observer: Database.Database;
  const rows = () => observer.prepare('SELECT count(*) FROM beats').pluck().get() as number;
  const insert = (n: number) => db.prepare('INSERT INTO beats (n) VALUES (?)').run(n);

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
    db = openDatabase(join(dir, 'g.db'));
    db.exec('CREATE TABLE beats (n INTEGER NOT NULL UNIQUE)');
    observer = new Database(join(dir, 'g.db'), { readonly: true });
  });

  afterEach(() => {
    observer.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the writes of one turn in one transaction and settles them after its commit', async () => {
    const seenByOthers: number[] = [];
    const first = commitSoon(db, () => {
      insert(1);
      seenByOthers.push(rows());
      return 'one';
    });
    const second = commitSoon(db, () => {
      insert(2);
      // The first write is not visible outside yet: both are in the same, still open, transaction.
      seenByOthers.push(rows());
      return 'two';
    });
    expect(rows()).toBe(0);
    const settled = await Promise.all([first, second]);
    expect(settled).toEqual(['one', 'two']);
    expect(seenByOthers).toEqual([0, 0]);
    expect(rows()).toBe(2);
  });

  it('rolls back a failing write alone: the others commit and it rejects with its own error', async () => {
    const ok = commitSoon(db, () => insert(1));
    const failing = commitSoon(db, () => {
      insert(3);
      insert(1); // UNIQUE: throws after a row of its own was written
    });
    const after = commitSoon(db, () => insert(2));
    await expect(failing).rejects.toThrow(/UNIQUE/);
    await Promise.all([ok, after]);
    expect(observer.prepare('SELECT n FROM beats ORDER BY n').pluck().all()).toEqual([1, 2]);
  });

  it('runs after-commit effects once the group has committed, and drops those of a failed write', async () => {
    const effects: string[] = [];
    const kept = commitSoon(db, () => {
      insert(1);
      afterCommit(db, () => effects.push(`kept, ${rows()} row(s) visible`));
    });
    const dropped = commitSoon(db, () => {
      afterCommit(db, () => effects.push('dropped'));
      throw new Error('refused');
    });
    await kept;
    await expect(dropped).rejects.toThrow('refused');
    expect(effects).toEqual(['kept, 1 row(s) visible']);
  });

  it('leaves what a group has no time for to the next turns, in order, each committed before it settles', async () => {
    const busy = (ms: number) => {
      const until = performance.now() + ms;
      while (performance.now() < until);
    };
    const committedBefore: number[] = [];
    const writes = [1, 2, 3, 4, 5].map((n) =>
      commitSoon(db, () => {
        busy(5);
        insert(n);
      }).then(() => committedBefore.push(rows())),
    );
    await Promise.all(writes);
    expect(observer.prepare('SELECT n FROM beats ORDER BY rowid').pluck().all()).toEqual([1, 2, 3, 4, 5]);
    // 5 ms each against an 8 ms group: never all in one commit; each settles once its own write is committed.
    expect(committedBefore[0]).toBeLessThan(5);
    committedBefore.forEach((visible, i) => expect(visible).toBeGreaterThanOrEqual(i + 1));
  });

  it('fails the queued writes when the database closed before they ran', async () => {
    const pending = commitSoon(db, () => insert(1));
    db.close();
    await expect(pending).rejects.toThrow('The database is closed');
    db = openDatabase(join(dir, 'g.db'));
    expect(rows()).toBe(0);
  });
});
