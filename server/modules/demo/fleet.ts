import type {
  SimulatedElevationKind,
  SimulatorElevationResponse,
  SimulatorElevationStats,
} from '../../contract';

// What the demo panel needs from a simulated fleet. The server owns the demo rules (which organizations, who may
// start it, enrollment keys, audit); the fleet itself is the bundled agent simulator, which the entries that
// compose the app (app/) plug in through `ServerOptions.demoFleet`, so server/ never imports agent-sim/.
// A server started without one reports the simulator as unavailable.

/** Starts simulated agents; one call per fleet (the panel replaces a running fleet by stopping it first). */
export interface DemoFleetLauncher {
  launch(plan: DemoFleetPlan): DemoFleet;
}

export interface DemoFleetPlan {
  /** The address the agents reach the server on (its own listening address). */
  serverUrl: string;
  count: number;
  /** Stable per organization: the same organization always gets the same machines. */
  seed: number;
  /** The organization's Windows domain (every machine's users, groups and logs name it). */
  domain: string;
  /** The simulator scenario (DEMO_SCENARIO). */
  scenario: string;
  /** Where the agents' credentials survive a restart, so the same devices come back instead of new ones. */
  stateFile: string;
  /**
   * Enrollment keys for the agents that have no saved credentials (by agent index); called once, before any
   * agent starts.
   */
  enrollmentKeys(indexes: readonly number[]): ReadonlyMap<number, string>;
  /** An agent gave up (shown as the panel's last error). */
  onAgentFailed(hostname: string, reason: string): void;
  warn(message: string, details: Record<string, unknown>): void;
}

export interface DemoFleet {
  readonly startedAt: Date;
  counts(): DemoFleetCounts;
  /** One connected agent reports an elevation request of `kind` through the public agent endpoint. */
  raiseElevation(kind: SimulatedElevationKind): Promise<DemoRaiseOutcome>;
  /** Stops every agent; their credentials are kept for the next launch. */
  stop(): Promise<void>;
}

export interface DemoFleetCounts {
  agents: number;
  connected: number;
  enrolled: number;
  heartbeats: number;
  lastError: string | null;
  elevation: SimulatorElevationStats;
}

export type DemoRaiseOutcome =
  | ({ ok: true } & Omit<SimulatorElevationResponse, 'success'>)
  /** No agent of the fleet is connected. */
  | { ok: false; reason: 'no_agent' }
  /** The server's limiter refused the report. */
  | { ok: false; reason: 'rate_limited'; retryAfterMs: number | null }
  /** The server did not take the report for another reason. */
  | { ok: false; reason: 'refused'; message: string };
