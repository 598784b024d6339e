import { agentUnknown, BACKOFF_CAP_MS, errorText, REFUSED_BACKOFF_CAP_MS, serverDelay } from './answers';
import type { AgentIdentity } from './identity';
import type { Machine } from './machine';
import {
  archWord,
  heartbeatResponse,
  platformWord,
  type HeartbeatRequest,
  type HeartbeatResponse,
} from './protocol';
import { backoff, jitter } from './random';
import { sleep } from './timing';
import type { HttpAnswer } from './transport';

// When an agent beats and what it says: the heartbeat body from its machine, and the schedule that spaces the
// beats with jitter, backs off after failures and can be woken to beat at once.

/** A freshly enrolled agent reports within this long. */
const FIRST_BEAT_AFTER_ENROLL_MS = 5_000;

export type HeartbeatOutcome =
  | { kind: 'ok' }
  | { kind: 'retry'; afterMs?: number | undefined; capMs?: number }
  | { kind: 'reenroll' }
  | { kind: 'halted' };

export function heartbeatBody(
  machine: Machine,
  identity: AgentIdentity,
  agentVersion: string,
): HeartbeatRequest {
  const metrics = machine.tick();
  const posture = machine.posture();
  return {
    status: machine.health(),
    agentVersion,
    platform: platformWord(identity.osType),
    arch: archWord(identity.architecture),
    metrics,
    uptimeSeconds: machine.uptimeSeconds(),
    lastUser: machine.lastUser(),
    rebootRequired: machine.rebootRequired,
    ...(posture ? { managementPosture: posture } : {}),
  };
}

/** What a heartbeat answer means for the agent. */
export type HeartbeatAnswer =
  | { kind: 'accepted'; response: HeartbeatResponse }
  /** 200 with a body this agent cannot read: the beat counts, the answer is ignored. */
  | { kind: 'unreadable'; issue: string | undefined }
  /** The server no longer knows these credentials (401, or the agent id is unknown). */
  | { kind: 'credentials_refused'; why: string }
  | { kind: 'failed'; error: string; retry: Extract<HeartbeatOutcome, { kind: 'retry' }> };

export function readHeartbeatAnswer(answer: HttpAnswer): HeartbeatAnswer {
  if (answer.status === 401 || agentUnknown(answer))
    return { kind: 'credentials_refused', why: `HTTP ${answer.status} ${errorText(answer.body)}`.trim() };
  if (answer.status !== 200) {
    const retry =
      answer.status === 429
        ? { kind: 'retry' as const, afterMs: serverDelay(answer.headers) }
        : answer.status === 403
          ? { kind: 'retry' as const, capMs: REFUSED_BACKOFF_CAP_MS }
          : { kind: 'retry' as const };
    return { kind: 'failed', error: errorText(answer.body), retry };
  }
  const parsed = heartbeatResponse.safeParse(answer.body);
  return parsed.success
    ? { kind: 'accepted', response: parsed.data }
    : { kind: 'unreadable', issue: parsed.error.issues[0]?.message };
}

export interface ScheduleOptions {
  fresh: boolean;
  /** False beats at once (tests). */
  spreadFirst: boolean;
  /** Read before every wait: the server may change the interval. */
  intervalMs(): number;
  beat(signal: AbortSignal): Promise<HeartbeatOutcome>;
}

export class HeartbeatSchedule {
  private sleeping: ReturnType<typeof sleep> | null = null;

  /**
   * The first beat is spread so a fleet does not beat in lockstep: over the whole interval for agents coming
   * back with saved credentials (they all start at once), within the first few seconds after a fresh
   * enrollment (enrollment is already paced by the fleet's gate, and a new device should report soon).
   */
  async run(signal: AbortSignal, o: ScheduleOptions): Promise<'aborted' | 'reenroll' | 'halted'> {
    const window = o.fresh ? Math.min(o.intervalMs(), FIRST_BEAT_AFTER_ENROLL_MS) : o.intervalMs();
    let delay = o.spreadFirst ? Math.random() * window : 0;
    let failures = 0;
    while (!signal.aborted) {
      this.sleeping = sleep(delay, signal);
      await this.sleeping;
      this.sleeping = null;
      if (signal.aborted) break;
      const outcome = await o.beat(signal);
      if (outcome.kind === 'ok') {
        failures = 0;
        delay = jitter(o.intervalMs());
      } else if (outcome.kind === 'retry') {
        delay = outcome.afterMs ?? backoff(failures++, 1000, outcome.capMs ?? BACKOFF_CAP_MS);
      } else return outcome.kind;
    }
    return 'aborted';
  }

  /** Beats now instead of at the next scheduled time (after a restart, or when the socket was refused). */
  wake(): void {
    this.sleeping?.wake();
  }
}
