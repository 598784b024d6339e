import { BACKOFF_CAP_MS, errorText, serverDelay } from './answers';
import type { AgentIdentity } from './identity';
import { enrollResponse, type EnrollRequest, type EnrollResponse } from './protocol';
import { backoff } from './random';
import type { SavedAgent } from './state';
import { sleep, type Gate } from './timing';
import type { AgentHttp, HttpAnswer } from './transport';

// One enrollment attempt (`POST /agents/enroll`, DESIGN §3) and what the agent should do next: keep the
// credentials, try again later (transport failure, 5xx, 429), or give up (a refusal no retry fixes); and the
// loop that retries until one of those ends it. Every attempt carries the agent's install id, so a retry after
// an answer that never arrived gets the device the server already made instead of a second one. A 429 is the
// server pacing a storm, not a failure: the agent waits as long as Retry-After says (spread a little past it);
// any other transient failure backs off exponentially with jitter.

export type EnrollOutcome =
  | { kind: 'ok'; response: EnrollResponse }
  | { kind: 'fatal'; reason: string; failed: boolean }
  | { kind: 'retry'; afterMs?: number | undefined; failed: boolean; deferred?: boolean };

export interface EnrollAttempt {
  http: AgentHttp;
  identity: AgentIdentity;
  /** Stable for this installation: the same on every attempt and every re-enrollment. */
  installId: string;
  enrollmentKey: string | undefined;
  enrollmentSecret: string | undefined;
  agentVersion: string;
  signal: AbortSignal;
}

function enrollBody(a: EnrollAttempt, key: string): EnrollRequest {
  const id = a.identity;
  return {
    enrollmentKey: key,
    installId: a.installId,
    ...(a.enrollmentSecret ? { enrollmentSecret: a.enrollmentSecret } : {}),
    hostname: id.hostname,
    osType: id.osType,
    osVersion: id.osVersion,
    osBuild: id.osBuild,
    architecture: id.architecture,
    agentVersion: a.agentVersion,
    deviceRole: id.deviceRole,
    hardware: id.hardware,
    network: id.network,
  };
}

/** `failed`: the attempt counts as a fleet error (an aborted request or an unreadable answer does not). */
export async function enrollOnce(a: EnrollAttempt): Promise<EnrollOutcome> {
  const key = a.enrollmentKey;
  if (!key) return { kind: 'fatal', reason: 'no saved credentials and no enrollment key', failed: false };
  let answer: HttpAnswer;
  try {
    answer = await a.http.request('POST', '/agents/enroll', { body: enrollBody(a, key), signal: a.signal });
  } catch {
    return { kind: 'retry', failed: !a.signal.aborted };
  }
  if (answer.status === 201 || answer.status === 200) {
    const parsed = enrollResponse.safeParse(answer.body);
    if (!parsed.success)
      return {
        kind: 'fatal',
        reason: 'the server answered enrollment with an unreadable body',
        failed: false,
      };
    return { kind: 'ok', response: parsed.data };
  }
  if (answer.status === 429)
    return { kind: 'retry', afterMs: serverDelay(answer.headers), failed: false, deferred: true };
  if (answer.status >= 500) return { kind: 'retry', failed: true };
  // 400 (bad body), 401 (key not found, expired, exhausted), 403 (secret, device cap, partner): no retry helps.
  return {
    kind: 'fatal',
    reason: `enrollment refused: HTTP ${answer.status} ${errorText(answer.body)}`.trim(),
    failed: true,
  };
}

export interface EnrollLoop {
  attempt: Omit<EnrollAttempt, 'agentVersion'> & { agentVersion(): string };
  /** Spreads enrollment over a fleet. */
  startGate: Gate | undefined;
  /** Called while the gate is held, so the fleet's pacing covers keeping the credentials too. */
  onEnrolled(response: EnrollResponse): void;
  onError(): void;
  /** The server asked the agent to come back later (429). */
  onDeferred(): void;
}

/** Enrolls, retrying transient failures with backoff: the outcome that ended it, or null when aborted. */
export async function enrollUntilDone(
  loop: EnrollLoop,
): Promise<Exclude<EnrollOutcome, { kind: 'retry' }> | null> {
  const { signal } = loop.attempt;
  let attempt = 0;
  while (!signal.aborted) {
    const tryOnce = async () => {
      const outcome = await enrollOnce({ ...loop.attempt, agentVersion: loop.attempt.agentVersion() });
      if (outcome.kind === 'ok') loop.onEnrolled(outcome.response);
      else if (outcome.failed) loop.onError();
      else if (outcome.kind === 'retry' && outcome.deferred) loop.onDeferred();
      return outcome;
    };
    const outcome = loop.startGate ? await loop.startGate.run(tryOnce) : await tryOnce();
    if (outcome.kind !== 'retry') return outcome;
    await sleep(outcome.afterMs ?? backoff(attempt++, 1000, BACKOFF_CAP_MS), signal);
  }
  return null;
}

/** What the agent keeps of a successful enrollment. */
export const savedAgentOf = (r: EnrollResponse, agentVersion: string, installId: string): SavedAgent => ({
  agentId: r.agentId,
  deviceId: r.deviceId,
  installId,
  orgId: r.orgId,
  siteId: r.siteId ?? null,
  authToken: r.authToken,
  agentVersion,
  autoUpdate: true,
  softwareReported: false,
});
