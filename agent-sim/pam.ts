import { z } from 'zod';
import type { AgentHandle, CommandHandler, CommandOutcome, ScenarioHooks } from './handle';
import { elevationProfile, elevationRequest, type ElevationKind, type ElevationProfile } from './pam-catalog';
import { elevationIngestResponse, parsePayload, type ElevationIngestResponse } from './protocol';
import type { Rng } from './random';
import { retryAfterMs, type HttpAnswer } from './transport';

// Privileged access on a simulated agent (issue 5). The agent reports elevation requests
// (`POST /agents/:id/elevation-requests`) and elevates only when the server sends `actuate_elevation`: it then
// "adds" the subject to the local administrators for a time box, in an in-memory grant table keyed by the
// elevation request id, and takes the membership away by itself when the time box ends (a timer per grant) or
// when the server sends `revoke_elevation`. Grants live in memory only: a restarted simulator has none, as a
// real agent removes every leftover grant when it boots.

/** Where a grant shows up on each OS (log lines name it). */
const ADMIN_GROUP = { windows: 'Administrators', macos: 'admin', linux: 'sudo' } as const;
/** Longest timer Node keeps exactly (about 24.8 days); grants are at most a day, but the payload is untrusted. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Pause after a 429 without Retry-After. */
const DEFAULT_BACKOFF_MS = 5_000;
/** How many of its own requests an agent remembers (oldest dropped first). */
const REMEMBERED_REQUESTS = 200;

export interface Grant {
  elevationRequestId: string;
  subject: string;
  targetPath: string | null;
  commandLine: string | null;
  grantedAt: string;
  expiresAt: string;
}

export interface ElevationStats {
  /** Requests the agent tried to report. */
  raised: number;
  /** Answers by status. */
  pending: number;
  autoApproved: number;
  denied: number;
  ignored: number;
  /** Answered 429: the agent paused reporting. */
  rateLimited: number;
  /** Answered another 4xx (dropped). */
  rejected: number;
  /** No answer, or a 5xx (dropped). */
  failed: number;
  /** Grants held right now. */
  grantsActive: number;
  /** `actuate_elevation` commands that granted. */
  actuated: number;
  /** `actuate_elevation` commands refused (invalid payload, already expired). */
  actuationsFailed: number;
  /** `revoke_elevation` commands answered (removed now or already gone). */
  cleanedUp: number;
  /** Grants removed by their own timer when they expired. */
  expiredLocally: number;
}

export function newElevationStats(): ElevationStats {
  return {
    raised: 0,
    pending: 0,
    autoApproved: 0,
    denied: 0,
    ignored: 0,
    rateLimited: 0,
    rejected: 0,
    failed: 0,
    grantsActive: 0,
    actuated: 0,
    actuationsFailed: 0,
    cleanedUp: 0,
    expiredLocally: 0,
  };
}

/** Sums the stats of many agents (fleet counters). */
export function addElevationStats(into: ElevationStats, from: ElevationStats): ElevationStats {
  for (const key of Object.keys(into) as Array<keyof ElevationStats>) into[key] += from[key];
  return into;
}

export type RaiseFailure = 'rate_limited' | 'rejected' | 'unreachable';

export type RaiseOutcome =
  | {
      ok: true;
      kind: ElevationKind;
      id: string | null;
      status: ElevationIngestResponse['status'];
      expiresAt: string | null;
    }
  | {
      ok: false;
      kind: ElevationKind;
      reason: RaiseFailure;
      /** The server's HTTP status, when it answered. */
      httpStatus: number | null;
      error: string;
      retryAfterMs: number | null;
    };

/** The agent's own record of a request it raised. */
export interface RaisedRequest {
  id: string | null;
  kind: ElevationKind;
  status: ElevationIngestResponse['status'] | RaiseFailure;
  at: string;
}

const isoInstant = z.iso.datetime({ offset: true });
const optionalText = z.string().max(32_768).nullish();

const actuatePayload = z.object({
  elevationRequestId: z.string().trim().min(1).max(200),
  expiresAt: isoInstant,
  targetPath: optionalText,
  commandLine: optionalText,
  subjectUsername: z.string().trim().min(1).max(512),
});
const revokePayload = z.object({
  elevationRequestId: z.string().trim().min(1).max(200),
  reason: z.enum(['revoked', 'expired']).optional(),
});

const errorText = (body: unknown): string => {
  if (body && typeof body === 'object') {
    const b = body as { error?: unknown; code?: unknown };
    return [b.error, b.code].filter((x) => typeof x === 'string').join(' / ');
  }
  return typeof body === 'string' ? body.slice(0, 200) : '';
};

export class AgentElevation {
  readonly stats: ElevationStats = newElevationStats();
  private readonly grantTable = new Map<string, Grant & { timer: NodeJS.Timeout }>();
  private readonly raised: RaisedRequest[] = [];
  private profileValue: ElevationProfile | null = null;
  private readonly requestRng: Rng;
  private readonly scheduleRng: Rng;
  private pausedUntil = 0;

  constructor(private readonly agent: AgentHandle) {
    this.requestRng = agent.rng('pam-requests');
    this.scheduleRng = agent.rng('pam-schedule');
  }

  /** The machine's users and technicians (drawn on first use, fixed afterwards). */
  get profile(): ElevationProfile {
    this.profileValue ??= elevationProfile(this.agent.identity, this.agent.rng('pam-profile'));
    return this.profileValue;
  }

  get adminGroup(): string {
    return ADMIN_GROUP[this.agent.identity.osType];
  }

  grants(): Grant[] {
    return [...this.grantTable.values()].map(({ timer: _timer, ...grant }) => grant);
  }

  grant(elevationRequestId: string): Grant | null {
    const held = this.grantTable.get(elevationRequestId);
    if (!held) return null;
    const { timer: _timer, ...grant } = held;
    return grant;
  }

  /** The requests this agent raised, oldest first (the last 200). */
  requests(): readonly RaisedRequest[] {
    return this.raised;
  }

  /** True while a 429 asked the agent to hold its reports. */
  get paused(): boolean {
    return Date.now() < this.pausedUntil;
  }

  // ---------------------------------------------------------------------------------------------- commands

  /** `actuate_elevation`: grant the time-boxed membership, or refuse. Idempotent per request id. */
  actuate(payload: Record<string, unknown>): CommandOutcome {
    const p = parsePayload(actuatePayload, payload);
    if (!p.ok) return this.refuse(p.error);
    const { elevationRequestId: id, subjectUsername: subject } = p.value;
    const expiresMs = Date.parse(p.value.expiresAt);
    const now = Date.now();
    if (expiresMs <= now) return this.refuse(`Elevation already expired at ${p.value.expiresAt}`);
    const expiresAt = new Date(expiresMs).toISOString();
    const held = this.grantTable.get(id);
    // A repeated actuation (the server dispatched again) keeps the grant and moves its end.
    const grantedAt = held?.grantedAt ?? new Date(now).toISOString();
    if (held) clearTimeout(held.timer);
    const timer = setTimeout(() => this.expire(id), Math.min(expiresMs - now, MAX_TIMER_MS));
    timer.unref?.();
    this.grantTable.set(id, {
      elevationRequestId: id,
      subject,
      targetPath: p.value.targetPath ?? null,
      commandLine: p.value.commandLine ?? null,
      grantedAt,
      expiresAt,
      timer,
    });
    this.stats.grantsActive = this.grantTable.size;
    if (!held) this.stats.actuated++;
    this.agent.log(
      'info',
      'pam',
      `elevation ${held ? 'extended' : 'granted'}: ${subject} added to local ${this.adminGroup} until ${expiresAt}`,
      { elevationRequestId: id, subject, targetPath: p.value.targetPath ?? null, expiresAt },
    );
    return { status: 'completed', result: { enforcementStatus: 'active', grantedAt } };
  }

  /** `revoke_elevation`: remove the grant now; a grant already gone is still a completed cleanup. */
  revoke(payload: Record<string, unknown>): CommandOutcome {
    const p = parsePayload(revokePayload, payload);
    if (!p.ok) return { status: 'failed', error: p.error };
    const { elevationRequestId: id, reason } = p.value;
    const held = this.grantTable.get(id);
    if (held) {
      this.remove(id);
      this.agent.log(
        'info',
        'pam',
        `elevation ${reason ?? 'revoked'}: ${held.subject} removed from local ${this.adminGroup}`,
        { elevationRequestId: id, subject: held.subject, reason: reason ?? null },
      );
    } else {
      this.agent.log('info', 'pam', `revoke_elevation: no grant for ${id} (already removed)`, {
        elevationRequestId: id,
        reason: reason ?? null,
      });
    }
    this.stats.cleanedUp++;
    return { status: 'completed', result: { enforcementStatus: 'cleaned_up' } };
  }

  /** Drops every grant and its timer (the agent stops; nothing outlives the process). */
  reset(): void {
    for (const held of this.grantTable.values()) clearTimeout(held.timer);
    this.grantTable.clear();
    this.stats.grantsActive = 0;
  }

  private refuse(error: string): CommandOutcome {
    this.stats.actuationsFailed++;
    return { status: 'failed', error };
  }

  private expire(id: string): void {
    const held = this.grantTable.get(id);
    if (!held) return;
    this.remove(id);
    this.stats.expiredLocally++;
    this.agent.log(
      'info',
      'pam',
      `elevation expired: ${held.subject} removed from local ${this.adminGroup}`,
      {
        elevationRequestId: id,
        subject: held.subject,
        expiresAt: held.expiresAt,
      },
    );
  }

  private remove(id: string): void {
    const held = this.grantTable.get(id);
    if (held) clearTimeout(held.timer);
    this.grantTable.delete(id);
    this.stats.grantsActive = this.grantTable.size;
  }

  // --------------------------------------------------------------------------------------------- reporting

  /** Builds the next request of `kind` (default: drawn by weight) without sending it. */
  nextRequest(kind?: ElevationKind, now = new Date()) {
    return elevationRequest(this.profile, this.requestRng, kind, now);
  }

  /** Reports one elevation request; never throws (every outcome is an answer). */
  async raise(kind?: ElevationKind): Promise<RaiseOutcome> {
    const generated = this.nextRequest(kind);
    this.stats.raised++;
    let answer: HttpAnswer;
    try {
      answer = await this.agent.request('POST', '/elevation-requests', generated.body);
    } catch (err) {
      return this.failure(
        generated.kind,
        'unreachable',
        null,
        err instanceof Error ? err.message : String(err),
      );
    }
    if (answer.status === 200 || answer.status === 201) {
      const parsed = elevationIngestResponse.safeParse(answer.body);
      if (!parsed.success)
        return this.failure(
          generated.kind,
          'unreachable',
          answer.status,
          'unreadable answer from the server',
        );
      const { id, status } = parsed.data;
      const key = status === 'auto_approved' ? 'autoApproved' : status;
      this.stats[key]++;
      this.remember({ id, kind: generated.kind, status, at: new Date().toISOString() });
      this.agent.log('info', 'pam', `elevation request ${status}`, {
        elevationRequestId: id,
        kind: generated.kind,
        flowType: generated.body.flow_type,
        target: generated.body.target_executable_path,
      });
      return {
        ok: true,
        kind: generated.kind,
        id,
        status,
        expiresAt: parsed.data.expiresAt ?? null,
      };
    }
    const error = errorText(answer.body) || `HTTP ${answer.status}`;
    if (answer.status === 429) {
      const waitMs = retryAfterMs(answer.headers) ?? DEFAULT_BACKOFF_MS;
      this.pausedUntil = Date.now() + waitMs;
      return this.failure(generated.kind, 'rate_limited', 429, error, waitMs);
    }
    if (answer.status >= 400 && answer.status < 500)
      return this.failure(generated.kind, 'rejected', answer.status, error);
    return this.failure(generated.kind, 'unreachable', answer.status, error);
  }

  /** The scenario's pacing: report a request with `probability` per heartbeat, unless paused by a 429. */
  maybeRaise(probability: number): Promise<RaiseOutcome> | null {
    if (this.paused || !this.agent.agentId) return null;
    if (!this.scheduleRng.chance(probability)) return null;
    return this.raise();
  }

  private failure(
    kind: ElevationKind,
    reason: RaiseFailure,
    httpStatus: number | null,
    error: string,
    retryAfter: number | null = null,
  ): RaiseOutcome {
    if (reason === 'rate_limited') this.stats.rateLimited++;
    else if (reason === 'rejected') this.stats.rejected++;
    else this.stats.failed++;
    this.remember({ id: null, kind, status: reason, at: new Date().toISOString() });
    // A refused report is dropped, not retried: the user at the prompt has moved on by the next heartbeat.
    this.agent.log('warn', 'pam', `elevation request not reported: ${error}`, {
      kind,
      httpStatus,
      ...(retryAfter !== null ? { retryAfterMs: retryAfter } : {}),
    });
    return { ok: false, kind, reason, httpStatus, error, retryAfterMs: retryAfter };
  }

  private remember(record: RaisedRequest): void {
    this.raised.push(record);
    if (this.raised.length > REMEMBERED_REQUESTS)
      this.raised.splice(0, this.raised.length - REMEMBERED_REQUESTS);
  }
}

// The PAM state of an agent lives beside its command handle, so every handle (a simulated agent's, or one made
// by hand in a test) has exactly one, created on first use.
const states = new WeakMap<AgentHandle, AgentElevation>();

export function elevationOf(agent: AgentHandle): AgentElevation {
  let state = states.get(agent);
  if (!state) {
    state = new AgentElevation(agent);
    states.set(agent, state);
  }
  return state;
}

/** Every agent, whatever its scenario, answers these (DESIGN §3 command types). */
export const PAM_COMMANDS: Record<'actuate_elevation' | 'revoke_elevation', CommandHandler> = {
  actuate_elevation: (payload, agent) => elevationOf(agent).actuate(payload),
  revoke_elevation: (payload, agent) => elevationOf(agent).revoke(payload),
};

/** Scenario hooks that report a request with `perHeartbeat` probability after each heartbeat. */
export function pamScenarioHooks(perHeartbeat: number): ScenarioHooks {
  return {
    onHeartbeat(agent) {
      // Not awaited: the heartbeat loop keeps its pace; raise() answers every outcome itself.
      void elevationOf(agent).maybeRaise(perHeartbeat);
    },
  };
}
