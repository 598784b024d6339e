// Over 400 lines: the policy table (SECRET_POLICIES) and the mechanism that applies it are read together; a split
// would put the budgets apart from the counting they describe. Next split candidate: the audit of refusals.
import type { Request } from 'express';
import { transaction } from '../db/after-commit';
import type { Db } from '../db/connection';
import type { AuditInput, AuditWriter } from '../modules/audit/writer';
import { clientInfo } from './client-info';
import { HttpError } from './errors';
import { isKnownAddress, pruneKnownAddresses, rememberKnownAddress } from './guard-store';
import { addressBlock } from './ip';
import { readCounter, removeCounter, writeCounter, type CounterRow } from './rate-limit-store';

// One limiter for secret guesses (DESIGN §6). Every secret a caller supplies (passwords, TOTP, SMS and recovery
// codes, API keys, the enrollment secret and keys, emailed links, the setup token) is checked through
// SecretGuard.check, which counts FAILURES only. A success never uses budget, so a training room signing in all day
// is never throttled; a refused attempt is not a failure either, since its secret was never looked at.
//
// Budgets, per kind of secret (SECRET_POLICIES):
// - per account and address, fixed window: tight. It stops one address guessing one account's secret, and it is
//   the only budget for that account an attacker can use up, and then only at their own address.
// - per address, fixed window: broader. It stops one address spraying many accounts, keys or links.
// - per account across all addresses: no hard lock but a progressive delay. Past `freeFailures`, each further
//   failure makes the next attempt from an unknown address wait 1 s, 2 s, 4 s, ... up to `maxDelaySeconds`; the
//   streak ends after `quietSeconds` without a failure. Guessing from many addresses slows to a crawl, while the
//   technician is at worst asked to wait a few minutes.
// - known-good addresses: an address from which the account has proved this kind of secret before (kept 90 days in
//   `secret_known_addresses`) skips the per-address budget and the account delay. Failures elsewhere, however
//   many, never keep a technician out of the places they work from.
// Addresses are IPv4 addresses or IPv6 /64 blocks (ip.ts addressBlock).
//
// The budget is consulted before the secret is checked, so a refused caller learns nothing about it. A check that
// takes time (argon2, TOTP) counts as a failure while it runs and is refunded when it succeeds, so parallel
// guesses cannot overrun a budget. A refusal is 429 with Retry-After and `retryAfterSeconds`; every refusal and
// every budget reached is audited as a security event (auth.secret.throttled, auth.secret.limit_reached). The
// counters live in `rate_limits`, so a restart hands nobody a fresh budget; without them the guard answers 503
// rather than let guesses through (spec 1).
//
// Not counted: agent credentials, refresh tokens and MFA tempTokens. They are 256-bit random values no guess can
// find; guarding them would put a lookup on every heartbeat and let a few stale agents behind one NAT address
// lock a whole site's fleet out.

export type SecretKind =
  | 'password'
  | 'mfa_code'
  | 'api_key'
  | 'enrollment'
  | 'email_token'
  | 'verify_email'
  | 'setup_token'
  | 'partner_key'
  | 'sso_code';

export interface Budget {
  failures: number;
  windowSeconds: number;
}

export interface ProgressiveDelay {
  freeFailures: number;
  maxDelaySeconds: number;
  quietSeconds: number;
}

export interface SecretPolicy {
  /** The 429 message: one sentence; clients say when to try again from Retry-After. */
  message: string;
  /** Only for secrets that belong to an account known before the check (passwords, MFA codes). */
  perAccountAddress?: Budget;
  perAddress: Budget;
  perAccount?: ProgressiveDelay;
}

const QUARTER_HOUR = 15 * 60;
const HOUR = 3600;

/** Spec 1 leaves the numbers open; these stop guessing without getting in a technician's way. */
export const SECRET_POLICIES: Record<SecretKind, SecretPolicy> = {
  password: {
    message: 'Too many failed password attempts',
    perAccountAddress: { failures: 10, windowSeconds: QUARTER_HOUR },
    perAddress: { failures: 30, windowSeconds: QUARTER_HOUR },
    // Twice what one address may fail: a single attacker address can never slow the technician down anywhere.
    perAccount: { freeFailures: 20, maxDelaySeconds: 5 * 60, quietSeconds: QUARTER_HOUR },
  },
  // TOTP, SMS and recovery codes: whoever tries them already holds the password or a session.
  mfa_code: {
    message: 'Too many failed verification codes',
    perAccountAddress: { failures: 10, windowSeconds: QUARTER_HOUR },
    perAddress: { failures: 30, windowSeconds: QUARTER_HOUR },
    perAccount: { freeFailures: 20, maxDelaySeconds: QUARTER_HOUR, quietSeconds: QUARTER_HOUR },
  },
  api_key: {
    message: 'Too many invalid API keys',
    perAddress: { failures: 30, windowSeconds: QUARTER_HOUR },
  },
  // The server-wide enrollment secret and enrollment keys. A fleet rollout enrolls thousands of devices from one
  // address; only its failures count, so it is never slowed.
  enrollment: {
    message: 'Too many failed enrollment attempts',
    perAddress: { failures: 30, windowSeconds: 60 },
  },
  // Invitation and password reset links.
  email_token: {
    message: 'Too many invalid or expired links',
    perAddress: { failures: 20, windowSeconds: HOUR },
  },
  // Spec 1: verify-email has a limit of its own.
  verify_email: {
    message: 'Too many invalid or expired verification links',
    perAddress: { failures: 20, windowSeconds: HOUR },
  },
  setup_token: {
    message: 'Too many failed setup attempts',
    perAddress: { failures: 10, windowSeconds: QUARTER_HOUR },
  },
  // Partner provisioning keys (DESIGN §7): `/partner-api/*` checks its `psk_` keys through the guard with this kind.
  partner_key: {
    message: 'Too many invalid partner keys',
    perAddress: { failures: 30, windowSeconds: QUARTER_HOUR },
  },
  // Single sign-on: the one-minute code of `POST /sso/exchange` (a console submits one per sign-in).
  sso_code: {
    message: 'Too many invalid SSO codes',
    perAddress: { failures: 20, windowSeconds: QUARTER_HOUR },
  },
};

/** How long a successful address stays known-good for an account. */
export const KNOWN_ADDRESS_DAYS = 90;

/** Who audit entries about an account name, and the chain they go to. */
export type AuditSubject = Pick<
  AuditInput,
  | 'orgId'
  | 'partnerId'
  | 'actorType'
  | 'actorId'
  | 'actorEmail'
  | 'resourceType'
  | 'resourceId'
  | 'resourceName'
>;

/** The account a secret belongs to, when it is known before the check. */
export interface GuardAccount {
  /** A user id, or `email:<address>` for a sign-in to an address without an account (counted all the same). */
  key: string;
  audit: AuditSubject;
}

export interface SecretAttempt {
  kind: SecretKind;
  req: Request;
  /** Absent for keys and links: they name their account only once they match. */
  account?: GuardAccount | null;
}

type Scope = 'account_address' | 'address' | 'account';

interface Counter {
  scope: Scope;
  bucket: string;
  subject: string;
  budget?: Budget;
  delay?: ProgressiveDelay;
}

/** A rate_limits row: a fixed window (start, failures), or a delay streak (next attempt not before, failures). */
type Row = CounterRow;

interface Target {
  kind: SecretKind;
  policy: SecretPolicy;
  account: GuardAccount | null;
  address: string;
  client: { ipAddress: string | null; userAgent: string | null };
  known: boolean;
  counters: Counter[];
}

/** One counted failure, with what it replaced, so a success can take it back exactly. */
interface Counted {
  counter: Counter;
  before: Row | null;
  after: Row;
}

const unavailable = () => new HttpError(503, 'Service temporarily unavailable');
const isMatch = (found: unknown): boolean => found !== null && found !== undefined && found !== false;

export class SecretGuard {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditWriter,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * Checks a secret through the guard: refuses with 429 when a budget is used up, otherwise runs `verify` and counts
   * a failure when the secret did not match. `verify` returns what the check found; it matched unless that is null,
   * undefined or false, or when `matched` says so. A `verify` that throws counts nothing: it failed for another
   * reason than a wrong secret.
   */
  check<T>(attempt: SecretAttempt, verify: () => Promise<T>, matched?: (found: T) => boolean): Promise<T>;
  check<T>(attempt: SecretAttempt, verify: () => T, matched?: (found: T) => boolean): T;
  check<T>(
    attempt: SecretAttempt,
    verify: () => T | Promise<T>,
    matched: (found: T) => boolean = isMatch,
  ): T | Promise<T> {
    const target = this.guarded(() => this.target(attempt));
    this.guarded(() => this.refuseIfSpent(target));
    const found = verify();
    if (!(found instanceof Promise)) {
      if (matched(found)) this.rememberAddress(target);
      else this.auditReached(target, this.count(target));
      return found;
    }
    // Counted as a failure before anything else runs, so guesses sent in parallel see each other.
    const counted = this.count(target);
    return found.then(
      (value) => {
        if (!matched(value)) {
          this.auditReached(target, counted);
          return value;
        }
        this.refund(counted);
        this.rememberAddress(target);
        return value;
      },
      (err: unknown) => {
        this.refund(counted);
        throw err;
      },
    );
  }

  /** Forgets known-good addresses not used for KNOWN_ADDRESS_DAYS (housekeeping; counters expire with rate_limits). */
  prune(nowMs = this.clock()): void {
    pruneKnownAddresses(this.db, Math.floor(nowMs / 1000) - KNOWN_ADDRESS_DAYS * 86_400);
  }

  private target(attempt: SecretAttempt): Target {
    const policy = SECRET_POLICIES[attempt.kind];
    const client = clientInfo(attempt.req);
    const address = addressBlock(client.ipAddress);
    const account = attempt.account ?? null;
    const bucket = (scope: Scope) => `secret:${attempt.kind}:${scope}`;
    const counters: Counter[] = [];
    if (account && policy.perAccountAddress) {
      counters.push({
        scope: 'account_address',
        bucket: bucket('account_address'),
        subject: `${account.key}|${address}`,
        budget: policy.perAccountAddress,
      });
    }
    counters.push({
      scope: 'address',
      bucket: bucket('address'),
      subject: address,
      budget: policy.perAddress,
    });
    if (account && policy.perAccount) {
      counters.push({
        scope: 'account',
        bucket: bucket('account'),
        subject: account.key,
        delay: policy.perAccount,
      });
    }
    const since = Math.floor(this.clock() / 1000) - KNOWN_ADDRESS_DAYS * 86_400;
    const known = account !== null && isKnownAddress(this.db, attempt.kind, account.key, address, since);
    return { kind: attempt.kind, policy, account, address, client, known, counters };
  }

  /** The counters that apply: a known-good address answers only for its own failures. */
  private applicable(target: Target): Counter[] {
    return target.known ? target.counters.filter((c) => c.scope === 'account_address') : target.counters;
  }

  private refuseIfSpent(target: Target): void {
    const now = this.clock() / 1000;
    let worst: { counter: Counter; wait: number; row: Row } | null = null;
    for (const counter of this.applicable(target)) {
      const row = readCounter(this.db, counter.bucket, counter.subject);
      if (!row) continue;
      const wait = waitSeconds(counter, row, now);
      if (wait > 0 && (!worst || wait > worst.wait)) worst = { counter, wait, row };
    }
    if (!worst) return;
    const retryAfterSeconds = Math.max(1, Math.ceil(worst.wait));
    this.record(target, 'auth.secret.throttled', 'denied', {
      limit: worst.counter.scope,
      failures: worst.row.count,
      retryAfterSeconds,
    });
    throw new HttpError(
      429,
      target.policy.message,
      'RATE_LIMITED',
      { retryAfterSeconds },
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }

  /** Counts one failure on every counter that applies, in one transaction. */
  private count(target: Target): Counted[] {
    const now = this.clock() / 1000;
    const tx = () =>
      transaction(this.db, () =>
        this.applicable(target).map((counter): Counted => {
          const stored = readCounter(this.db, counter.bucket, counter.subject);
          const before = stored && !expired(counter, stored, now) ? stored : null;
          const after = counter.budget ? budgetAfter(before, now) : delayAfter(counter.delay!, before, now);
          writeCounter(this.db, counter.bucket, counter.subject, after);
          return { counter, before: stored ?? null, after };
        }),
      );
    return this.guarded(() => tx());
  }

  /** Takes back counted failures after a success, unless the window has moved on since. */
  private refund(counted: Counted[]): void {
    try {
      transaction(this.db, () => {
        for (const { counter, before, after } of counted) {
          const row = readCounter(this.db, counter.bucket, counter.subject);
          if (!row || row.window_start !== after.window_start) continue;
          if (row.count === after.count && before) {
            writeCounter(this.db, counter.bucket, counter.subject, before);
          } else if (row.count <= 1) removeCounter(this.db, counter.bucket, counter.subject);
          else writeCounter(this.db, counter.bucket, counter.subject, { ...row, count: row.count - 1 });
        }
      });
    } catch {
      // Best effort: the secret matched, and a failure left counted only makes the guard stricter.
    }
  }

  private rememberAddress(target: Target): void {
    if (!target.account) return;
    try {
      rememberKnownAddress(
        this.db,
        target.kind,
        target.account.key,
        target.address,
        Math.floor(this.clock() / 1000),
      );
    } catch {
      // Best effort as well: an address not remembered only misses the known-good shortcut next time.
    }
  }

  /** A failure that used up a budget, or started the account delay, is worth an entry of its own. */
  private auditReached(target: Target, counted: Counted[]): void {
    for (const { counter, after } of counted) {
      const threshold = counter.budget ? counter.budget.failures : counter.delay!.freeFailures;
      if (after.count !== threshold) continue;
      this.record(target, 'auth.secret.limit_reached', 'failure', {
        limit: counter.scope,
        failures: after.count,
        ...(counter.budget ? { windowSeconds: counter.budget.windowSeconds } : {}),
      });
    }
  }

  private record(
    target: Target,
    action: string,
    result: 'failure' | 'denied',
    details: Record<string, unknown>,
  ): void {
    const subject: AuditSubject = target.account?.audit ?? {
      orgId: null,
      partnerId: null,
      actorType: 'system',
      actorId: 'anonymous',
      resourceType: 'secret',
      resourceName: target.kind,
    };
    this.audit.record({
      ...subject,
      action,
      result,
      details: { secret: target.kind, address: target.address, ...details },
      ipAddress: target.client.ipAddress,
      userAgent: target.client.userAgent,
    });
  }

  /** Without its counters the guard cannot protect anything: refuse rather than let guesses through. */
  private guarded<T>(step: () => T): T {
    try {
      return step();
    } catch (err) {
      if (err instanceof HttpError) throw err;
      throw unavailable();
    }
  }
}

/** Seconds until the counter lets an attempt through; 0 when it does now. */
function waitSeconds(counter: Counter, row: Row, now: number): number {
  if (expired(counter, row, now)) return 0;
  if (counter.budget) {
    return row.count >= counter.budget.failures ? row.window_start + counter.budget.windowSeconds - now : 0;
  }
  return row.count >= counter.delay!.freeFailures ? row.window_start - now : 0;
}

function expired(counter: Counter, row: Row, now: number): boolean {
  return counter.budget
    ? now >= row.window_start + counter.budget.windowSeconds
    : now >= row.window_start + counter.delay!.quietSeconds;
}

/** Fixed window: the first failure opens it, the failures inside it add up. */
function budgetAfter(before: Row | null, now: number): Row {
  return before
    ? { window_start: before.window_start, count: before.count + 1 }
    : { window_start: Math.floor(now), count: 1 };
}

/**
 * Delay streak: `window_start` is when the next attempt from an unknown address may come. Up to `freeFailures` that
 * is at once; past it, 2^(failures - freeFailures) seconds after this failure, capped.
 */
function delayAfter(delay: ProgressiveDelay, before: Row | null, now: number): Row {
  const count = (before?.count ?? 0) + 1;
  const wait =
    count >= delay.freeFailures ? Math.min(delay.maxDelaySeconds, 2 ** (count - delay.freeFailures)) : 0;
  return { window_start: Math.ceil(now + wait), count };
}
