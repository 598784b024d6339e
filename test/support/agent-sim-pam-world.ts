import { createHash } from 'node:crypto';
import { afterEach, vi } from 'vitest';
import { BUILT_IN_COMMANDS } from '../../agent-sim/commands';
import type { AgentHandle, CommandOutcome } from '../../agent-sim/handle';
import { EventLogStore } from '../../agent-sim/eventlog';
import { agentIdentity, type AgentIdentity } from '../../agent-sim/identity';
import { Rng } from '../../agent-sim/random';
import type { HttpAnswer } from '../../agent-sim/transport';

// The agent side of privileged access (issue 5): the request catalog (deterministic per seed, valid against the
// server's ingest body), the grant table behind `actuate_elevation` / `revoke_elevation` with its expiry timers,
// and how a report's answer is handled. No server here: the handle's `request` is scripted.
//
// Shared by the agent-side PAM suites (test/unit/agent-sim-pam-*.test.ts): a scripted agent handle, answers, and
// the built-in command runner. A suite calls useAgentSimPamWorld() once at its top so fake timers never outlive a test.

export const NOW = new Date('2026-03-02T10:00:00.000Z');
export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export interface Fake {
  handle: AgentHandle;
  logs: Array<{ level: string; message: string; fields?: Record<string, unknown> }>;
  sent: Array<{ method: string; path: string; body: unknown }>;
}

export function answer(status: number, body: unknown, headers: Record<string, string> = {}): HttpAnswer {
  return { status, body, headers: new Headers(headers) };
}

export function fakeAgent(
  seed = 3,
  index = 0,
  reply: (body: unknown) => HttpAnswer | Promise<HttpAnswer> = () =>
    answer(201, { id: 'r-1', status: 'pending', expiresAt: null }),
): Fake {
  const identity = agentIdentity(seed, index);
  const logs: Fake['logs'] = [];
  const sent: Fake['sent'] = [];
  const handle: AgentHandle = {
    index,
    seed,
    identity,
    agentId: 'agent-1',
    deviceId: 'device-1',
    agentVersion: '1.0.0',
    eventLogs: new EventLogStore(identity, seed, index, NOW.getTime()),
    rng: (purpose) => Rng.of(seed, index, purpose),
    log: (level, _component, message, fields) => logs.push({ level, message, fields }),
    request: async (method, path, body) => {
      sent.push({ method, path, body });
      return reply(body);
    },
    devUpdate: () => Promise.reject(new Error('not in this test')),
    uninstall: () => undefined,
  };
  return { handle, logs, sent };
}

/** The first agent index of `seed` whose machine matches. */
export function indexWhere(seed: number, match: (id: AgentIdentity) => boolean): number {
  for (let i = 0; i < 500; i++) if (match(agentIdentity(seed, i))) return i;
  throw new Error('no such machine');
}

export const run = (type: string, payload: Record<string, unknown>, handle: AgentHandle) =>
  Promise.resolve(BUILT_IN_COMMANDS[type]!(payload, handle)) as Promise<CommandOutcome>;

/** Puts real timers back after each test (some tests fake them); call once at the top of each suite. */
export function useAgentSimPamWorld(): void {
  afterEach(() => {
    vi.useRealTimers();
  });
}
