import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../server/db/connection';
import { loadMigrations, migrate } from '../../server/db/migrate';
import { EventBus } from '../../server/events/bus';
import { verifyChain } from '../../server/modules/audit';
import { AuditWriter } from '../../server/modules/audit/writer';

// A storm of audited agent reports is written a bounded batch per turn of the event loop, never all at once, and
// every entry still lands, in order, in an intact chain; shutdown's flush writes whatever is left in one go.

let db: Db;
let writer: AuditWriter;
const rows = () => db.prepare('SELECT count(*) FROM audit_logs').pluck().get() as number;
const nextTurn = () => new Promise((r) => setImmediate(r));

beforeEach(() => {
  db = openDatabase(':memory:');
  migrate(db, loadMigrations());
  const log = pino({ level: 'silent' });
  writer = new AuditWriter(db, new EventBus(log, db), log);
});
afterEach(() => db.close());

const record = (count: number) => {
  for (let i = 0; i < count; i++)
    writer.record({
      orgId: null,
      actorType: 'system',
      actorId: 'storm',
      action: 'agent.eventlogs.submit',
      resourceType: 'device',
      details: { i },
    });
};

describe('the audit writer under a storm', () => {
  it('writes at most a batch per turn and all of it over the next turns, in order, chained', async () => {
    record(250);
    await nextTurn();
    const first = rows();
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(250);
    for (let turn = 0; turn < 10 && rows() < 250; turn++) await nextTurn();
    expect(rows()).toBe(250);
    const order = db
      .prepare("SELECT json_extract(details, '$.i') FROM audit_logs ORDER BY rowid")
      .pluck()
      .all() as number[];
    expect(order).toEqual(Array.from({ length: 250 }, (_, i) => i));
    expect(verifyChain(db, { orgId: null, partnerId: null }).valid).toBe(true);
  });

  it('writes everything queued when flushed at shutdown', () => {
    record(300);
    writer.flush();
    expect(rows()).toBe(300);
  });
});
