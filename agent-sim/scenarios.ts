import type { ScenarioHooks } from './handle';
import { pamScenarioHooks } from './pam';

// Named behaviours for `--scenario`: how chatty the agents' logs are, how the metrics move and how reliable the
// network is. A scenario can also add behaviour through hooks: extra command handlers and actions on enroll or
// on each heartbeat. The PAM scenarios of issue 5 use it: `pam` and `pam-load` report elevation requests after
// heartbeats (agent-sim/pam.ts); every scenario answers `actuate_elevation` / `revoke_elevation`.

export interface Scenario {
  name: string;
  description: string;
  diagnostics: {
    /** Agent log lines added per heartbeat (min, max). */
    chatterPerHeartbeat: readonly [number, number];
    /** The buffer is sent every this many heartbeats (errors go at once). */
    flushEveryHeartbeats: number;
  };
  events: {
    /** New operating-system events per burst (min, max). */
    perBurst: readonly [number, number];
    /** A burst every this many heartbeats. */
    everyHeartbeats: number;
    /** Recent noteworthy events reported once after enrollment. */
    backfill: number;
  };
  /** Scales the metric random walk (1 = a calm office). */
  metricVolatility: number;
  network: {
    /** Share of HTTP requests that fail as if the network dropped them. */
    requestFailureRate: number;
    /** Chance per heartbeat that the agent socket is cut. */
    socketDropRate: number;
  };
  hooks?: ScenarioHooks;
}

const steady: Scenario = {
  name: 'steady',
  description: 'a calm fleet: light log chatter, a few OS events now and then, a reliable network',
  diagnostics: { chatterPerHeartbeat: [0, 2], flushEveryHeartbeats: 5 },
  events: { perBurst: [1, 4], everyHeartbeats: 3, backfill: 15 },
  metricVolatility: 1,
  network: { requestFailureRate: 0, socketDropRate: 0 },
};

const noisyLogs: Scenario = {
  name: 'noisy-logs',
  description: 'chatty agents: bursts of tens of log lines and OS events on every heartbeat',
  diagnostics: { chatterPerHeartbeat: [10, 60], flushEveryHeartbeats: 1 },
  events: { perBurst: [10, 40], everyHeartbeats: 1, backfill: 60 },
  metricVolatility: 2.5,
  network: { requestFailureRate: 0, socketDropRate: 0 },
};

const flakyNetwork: Scenario = {
  name: 'flaky-network',
  description: 'a poor link: one request in ten fails and sockets drop often; agents back off and reconnect',
  diagnostics: { chatterPerHeartbeat: [0, 3], flushEveryHeartbeats: 4 },
  events: { perBurst: [1, 5], everyHeartbeats: 3, backfill: 15 },
  metricVolatility: 1.2,
  network: { requestFailureRate: 0.1, socketDropRate: 0.08 },
};

const scenarios = new Map<string, Scenario>([
  [steady.name, steady],
  [noisyLogs.name, noisyLogs],
  [flakyNetwork.name, flakyNetwork],
]);

export const DEFAULT_SCENARIO = steady.name;

export function registerScenario(scenario: Scenario): void {
  scenarios.set(scenario.name, scenario);
}

/** Chance per heartbeat that an agent of the `pam` scenario reports an elevation request. */
export const PAM_REQUESTS_PER_HEARTBEAT = 0.1;

registerScenario({
  ...steady,
  name: 'pam',
  description: `a calm fleet whose users ask for admin rights now and then (one heartbeat in ${Math.round(1 / PAM_REQUESTS_PER_HEARTBEAT)})`,
  hooks: pamScenarioHooks(PAM_REQUESTS_PER_HEARTBEAT),
});
registerScenario({
  ...steady,
  name: 'pam-load',
  description:
    'steady privileged-access load: every agent reports one elevation request per heartbeat, mixed kinds',
  hooks: pamScenarioHooks(1),
});

export function scenarioNames(): string[] {
  return [...scenarios.keys()];
}

export function getScenario(name: string): Scenario | null {
  return scenarios.get(name) ?? null;
}
