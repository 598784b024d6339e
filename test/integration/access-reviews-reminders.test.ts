import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sendDueReminders } from '../../server/modules/access-reviews';
import { createReview, EMAILS, reviewWorld, type ReviewWorld } from '../support/access-review-world';
import { readOutbox } from '../support/seed';
import { startServer, type TestServer } from '../support/server';

// Beyond the spec (issue 13): the reviewer gets an email through the outbox when someone assigns them a review,
// and one reminder two days before it is due. The reminder's state is in SQLite, so a second sweep, or a sweep
// after a restart, sends nothing again.

const DAY = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

let w: ReviewWorld | null = null;
let restarted: TestServer | null = null;
afterEach(async () => {
  await restarted?.close();
  await w?.server.dispose(); // closes (once) and removes the data directory, which the restart shares
  [w, restarted] = [null, null];
});

const mailsTo = (server: TestServer, to: string) => readOutbox(server).filter((m) => m.to === to);

describe('reviewer emails', () => {
  it('emails a reviewer assigned by someone else, not a creator who reviews themselves', async () => {
    w = await reviewWorld();
    const { server, tokens, ids } = w;
    const made = await createReview(server, tokens.acmeAdmin, {
      name: 'Q4 technicians',
      reviewerId: ids.acmeAdmin2,
      dueDate: '2030-03-31',
    });
    const mails = mailsTo(server, EMAILS.acmeAdmin2);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      kind: 'email',
      subject: 'Access review assigned to you: Q4 technicians',
    });
    expect(mails[0]?.text).toContain('admin@acme.test asked you to review who holds access in Acme MSP');
    expect(mails[0]?.text).toContain('(5 people)');
    expect(mails[0]?.text).toContain('It is due on 2030-03-31.');
    expect(mails[0]?.text).toContain(`${server.url}/access-reviews/${made.id}`);

    await createReview(server, tokens.acmeAdmin, { name: 'Mine' });
    expect(mailsTo(server, EMAILS.acmeAdmin)).toHaveLength(0);
  });

  it('reminds once, two days before the due date, and never again after a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-reminders-'));
    w = await reviewWorld({}, dataDir);
    const { server, tokens } = w;
    const soon = await createReview(server, tokens.acmeAdmin, { name: 'Soon', dueDate: inDays(10) });
    await createReview(server, tokens.acmeAdmin, { name: 'Later', dueDate: inDays(30) });
    await createReview(server, tokens.acmeAdmin, { name: 'Undated' });

    // Ten days out: nothing due yet.
    expect(sendDueReminders(server.context)).toBe(0);
    // Eight days later the first review is inside the two-day window.
    expect(sendDueReminders(server.context, Date.now() + 8.5 * DAY)).toBe(1);
    const reminders = () => mailsTo(server, EMAILS.acmeAdmin).filter((m) => m.subject.includes('due'));
    expect(reminders()).toHaveLength(1);
    expect(reminders()[0]?.subject).toBe(`Access review due ${inDays(10).slice(0, 10)}: Soon`);
    expect(reminders()[0]?.text).toContain('5 of 5 decisions are still open');
    expect(reminders()[0]?.text).toContain(`/access-reviews/${soon.id}`);
    expect(sendDueReminders(server.context, Date.now() + 8.5 * DAY)).toBe(0);

    // A restart on the same data directory: the job's state is in SQLite, nothing is sent twice.
    await server.close();
    restarted = await startServer({ dataDir });
    expect(sendDueReminders(restarted.context, Date.now() + 8.5 * DAY)).toBe(0);
    expect(readOutbox(restarted).filter((m) => m.subject.startsWith('Access review due'))).toHaveLength(1);
    // The later review still gets its own reminder when its time comes.
    expect(sendDueReminders(restarted.context, Date.now() + 29 * DAY)).toBe(1);
  });

  it('does not remind about a completed review, and treats an assignment inside the window as the reminder', async () => {
    w = await reviewWorld();
    const { server, tokens, ids } = w;
    await createReview(server, tokens.orgAdmin, { name: 'Done', dueDate: inDays(1) });
    const done = server.context.db.prepare("SELECT id FROM access_reviews WHERE name = 'Done'").get() as {
      id: string;
    };
    server.context.db
      .prepare(
        "UPDATE access_reviews SET status = 'completed', completed_at = ?, revoked_count = 0 WHERE id = ?",
      )
      .run(new Date().toISOString(), done.id);
    await createReview(server, tokens.acmeAdmin, {
      name: 'Urgent',
      reviewerId: ids.acmeAdmin2,
      dueDate: inDays(1),
    });
    expect(sendDueReminders(server.context)).toBe(0);
    expect(mailsTo(server, EMAILS.acmeAdmin2).map((m) => m.subject)).toEqual([
      'Access review assigned to you: Urgent',
    ]);
  });
});
