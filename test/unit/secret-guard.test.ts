import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Request } from 'express';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../server/db/connection';
import { loadMigrations, migrate } from '../../server/db/migrate';
import { SECRET_POLICIES, SecretGuard, type GuardAccount, type SecretAttempt } from '../../server/http/guard';
import { HttpError } from '../../server/http/errors';
import type { AuditInput, AuditWriter } from '../../server/modules/audit/writer';

// The secret guard's rules on a real SQLite file with an explicit clock: failures only, per account and address,
// per address, the account-wide progressive delay, known-good addresses, parallel guesses and the audit entries.

const T0 = 1_800_000_000_000;
let now = T0;
let dir: string;
let db: Db;
let audit: AuditInput[];
let guard: SecretGuard;

beforeEach(() => {
  now = T0;
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-guard-'));
  db = openDatabase(join(dir, 'g.db'));
  migrate(db, loadMigrations());
  audit = [];
  guard = new SecretGuard(
    db,
    { record: (entry: AuditInput) => audit.push(entry) } as unknown as AuditWriter,
    () => now,
  );
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const requestFrom = (ip: string) =>
  ({ clientAddress: { ip, trusted: true }, get: () => 'vitest', socket: {} }) as unknown as Request;

const account: GuardAccount = {
  key: 'user-1',
  audit: {
    orgId: null,
    partnerId: null,
    actorType: 'user',
    actorId: 'user-1',
    actorEmail: 'tech@contoso.test',
    resourceType: 'user',
    resourceId: 'user-1',
    resourceName: 'tech@contoso.test',
  },
};
const password = (ip: string, who: GuardAccount | null = account): SecretAttempt => ({
  kind: 'password',
  req: requestFrom(ip),
  account: who,
});

/** The status one check answers: 200 matched, 401 wrong, or the guard's own error status. */
function attempt(spec: SecretAttempt, right: boolean): number {
  try {
    return guard.check(spec, () => right) ? 200 : 401;
  } catch (err) {
    if (err instanceof HttpError) return err.status;
    throw err;
  }
}

function refusal(spec: SecretAttempt): HttpError {
  try {
    guard.check(spec, () => true);
  } catch (err) {
    if (err instanceof HttpError) return err;
  }
  throw new Error('expected a refusal');
}

const policy = SECRET_POLICIES.password;
const perAccountAddress = policy.perAccountAddress!;
const delay = policy.perAccount!;

describe('SecretGuard', () => {
  it('never counts successes', () => {
    for (let i = 0; i < 200; i++) expect(attempt(password('192.0.2.1'), true)).toBe(200);
    expect(db.prepare("SELECT COUNT(*) AS n FROM rate_limits WHERE bucket LIKE 'secret:%'").get()).toEqual({
      n: 0,
    });
  });

  it('locks one account at one address after its budget, with Retry-After until the window ends', () => {
    for (let i = 0; i < perAccountAddress.failures; i++)
      expect(attempt(password('192.0.2.1'), false)).toBe(401);
    now += 60_000;
    const refused = refusal(password('192.0.2.1'));
    expect(refused.status).toBe(429);
    expect(refused.message).toBe('Too many failed password attempts');
    expect(refused.code).toBe('RATE_LIMITED');
    expect(refused.extra.retryAfterSeconds).toBe(perAccountAddress.windowSeconds - 60);
    expect(refused.headers['Retry-After']).toBe(String(perAccountAddress.windowSeconds - 60));
    now = T0 + perAccountAddress.windowSeconds * 1000;
    expect(attempt(password('192.0.2.1'), true)).toBe(200);
  });

  it('never lets one address slow the account down at another', () => {
    for (let i = 0; i < perAccountAddress.failures + 5; i++) attempt(password('203.0.113.1'), false);
    expect(attempt(password('203.0.113.1'), true)).toBe(429);
    expect(attempt(password('192.0.2.99'), true)).toBe(200);
  });

  it('keeps a technician at a known-good address in while others fail elsewhere', () => {
    expect(attempt(password('198.51.100.7'), true)).toBe(200); // the technician's office
    for (let i = 0; i < 40; i++) attempt(password(`203.0.113.${i}`), false);
    expect(attempt(password('198.51.100.7'), true)).toBe(200);
    // From a new address the account answers with a delay, never a long lock.
    const refused = refusal(password('192.0.2.99'));
    expect(refused.status).toBe(429);
    expect(Number(refused.extra.retryAfterSeconds)).toBeLessThanOrEqual(delay.maxDelaySeconds);
    now += delay.maxDelaySeconds * 1000;
    expect(attempt(password('192.0.2.99'), true)).toBe(200);
  });

  it('spaces attempts on an attacked account 1 s, 2 s, 4 s ... up to the cap, and forgets after a quiet spell', () => {
    const waits: number[] = [];
    for (let i = 0; i < delay.freeFailures + 12; i++) {
      const ip = `203.0.113.${i}`;
      const status = attempt(password(ip), false);
      if (status === 429) {
        const wait = Number(refusal(password(ip)).extra.retryAfterSeconds);
        waits.push(wait);
        now += wait * 1000;
        expect(attempt(password(ip), false)).toBe(401);
      }
    }
    expect(waits.slice(0, 6)).toEqual([1, 2, 4, 8, 16, 32]);
    expect(Math.max(...waits)).toBe(delay.maxDelaySeconds);
    now += (delay.maxDelaySeconds + delay.quietSeconds) * 1000;
    expect(attempt(password('192.0.2.50'), false)).toBe(401);
    expect(attempt(password('192.0.2.51'), false)).toBe(401);
  });

  it('limits one address across accounts, unless the account knows the address', () => {
    const other = (n: number): GuardAccount => ({ ...account, key: `user-${n}` });
    expect(attempt(password('192.0.2.1', other(999)), true)).toBe(200);
    for (let i = 0; i < policy.perAddress.failures; i++) attempt(password('192.0.2.1', other(i)), false);
    expect(attempt(password('192.0.2.1', other(500)), true)).toBe(429);
    expect(attempt(password('192.0.2.1', other(999)), true)).toBe(200);
  });

  it('counts an IPv6 /64 as one address', () => {
    for (let i = 0; i < SECRET_POLICIES.api_key.perAddress.failures; i++) {
      expect(attempt({ kind: 'api_key', req: requestFrom(`2001:db8:1:2::${i.toString(16)}`) }, false)).toBe(
        401,
      );
    }
    expect(attempt({ kind: 'api_key', req: requestFrom('2001:db8:1:2:ffff::1') }, true)).toBe(429);
    expect(attempt({ kind: 'api_key', req: requestFrom('2001:db8:1:3::1') }, true)).toBe(200);
  });

  it('counts a check in flight, so parallel guesses cannot overrun the budget, and refunds it on success', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const outcomes = Array.from({ length: 25 }, async (_, i) => {
      try {
        const ok = await guard.check(password('192.0.2.1'), async () => {
          await gate;
          return i === 0;
        });
        return ok ? 200 : 401;
      } catch (err) {
        return (err as HttpError).status;
      }
    });
    release();
    const statuses = await Promise.all(outcomes);
    expect(statuses.filter((s) => s !== 429)).toHaveLength(perAccountAddress.failures);
    expect(statuses[0]).toBe(200);
    // The success was refunded: one more guess fits.
    expect(attempt(password('192.0.2.1'), false)).toBe(401);
    expect(attempt(password('192.0.2.1'), false)).toBe(429);
  });

  it('counts nothing when the check fails for another reason than the secret', async () => {
    for (let i = 0; i < 30; i++) {
      await expect(
        guard.check(password('192.0.2.1'), () => Promise.reject(new HttpError(403, 'SMS not allowed'))),
      ).rejects.toThrow('SMS not allowed');
    }
    expect(attempt(password('192.0.2.1'), false)).toBe(401);
  });

  it('audits the budget reached and every refusal in the account chain', () => {
    for (let i = 0; i < perAccountAddress.failures; i++) attempt(password('192.0.2.1'), false);
    attempt(password('192.0.2.1'), true);
    attempt(password('192.0.2.1'), true);
    const actions = audit.map((a) => [a.action, a.result, (a.details as { limit: string }).limit]);
    expect(actions).toEqual([
      ['auth.secret.limit_reached', 'failure', 'account_address'],
      ['auth.secret.throttled', 'denied', 'account_address'],
      ['auth.secret.throttled', 'denied', 'account_address'],
    ]);
    expect(audit[1]).toMatchObject({ actorId: 'user-1', ipAddress: '192.0.2.1', userAgent: 'vitest' });
    expect(audit[1]!.details).toMatchObject({ secret: 'password', failures: perAccountAddress.failures });
  });

  it('refuses with 503 when its counters are gone', () => {
    db.exec('DROP TABLE rate_limits');
    expect(attempt(password('192.0.2.1'), true)).toBe(503);
  });
});
