import { SimulatedAgent, newCounters, type AgentStatus, type FleetCounters } from './agent';
import type { AgentEventListener } from './agent-options';
import { addElevationStats, newElevationStats, type ElevationStats, type RaiseFailure } from './pam';
import type { ElevationKind } from './pam-catalog';
import { DEFAULT_SCENARIO, getScenario, scenarioNames, type Scenario } from './scenarios';
import { FileCredentialStore, MemoryCredentialStore, type CredentialStore } from './state';
import { Gate } from './timing';
import { AgentHttp } from './transport';

// A fleet: N simulated agents in one process. They share one HTTP connection pool (global fetch keeps
// connections alive per origin), one set of counters, and a start-up gate so that a thousand agents enroll a
// few at a time instead of all at once. With a state file, credentials survive a restart of the simulator: the
// same devices come back instead of new ones being enrolled.

export interface FleetOptions {
  server: string;
  /** One key for the fleet, or a key per agent index (e.g. one key per site to spread devices over sites). */
  enrollmentKey?: string | ((index: number) => string | undefined) | undefined;
  enrollmentSecret?: string | undefined;
  count: number;
  seed?: number | undefined;
  /** The organization's Windows domain: every machine's users, groups and logs name it (default CONTOSO). */
  domain?: string | undefined;
  /** First agent index (a second fleet with the same seed can add machines after the first one's). */
  firstIndex?: number | undefined;
  scenario?: string | Scenario | undefined;
  /** Overrides the heartbeat interval the server hands out. */
  heartbeatSeconds?: number | undefined;
  /** The version freshly enrolled agents run. */
  agentVersion?: string | undefined;
  /** JSON state file for credentials (`--state FILE`); without it credentials live in memory only. */
  statePath?: string | undefined;
  /** Or any other credential store (the server's demo panel keeps one per organization). */
  credentials?: CredentialStore | undefined;
  /** How many agents enroll at the same time (default 16). */
  enrollConcurrency?: number | undefined;
  /** How many sockets may be in their opening handshake at the same time (default 32). */
  connectConcurrency?: number | undefined;
  /** Milliseconds between starting consecutive agents (default: spread the fleet over about 2 s, at most 5 ms each). */
  startSpacingMs?: number | undefined;
  spreadFirstHeartbeat?: boolean | undefined;
  reenrollOnUnauthorized?: boolean | undefined;
  onEvent?: AgentEventListener | undefined;
}

export interface FleetStats extends FleetCounters {
  agents: number;
  enrolled: number;
  connected: number;
  running: number;
  stopped: number;
  failed: number;
  /** The newest failure reason of an agent, if any. */
  lastError: string | null;
  /** Privileged access, summed over the agents. */
  elevation: ElevationStats;
}

export interface RaiseElevationInput {
  /** The agent's index (its machine number, as `firstIndex` counts); default: the next connected agent. */
  agentIndex?: number | undefined;
  /** Default: drawn by the `pam` scenario's weights. */
  kind?: ElevationKind | undefined;
}

export interface RaisedElevation {
  agentIndex: number;
  deviceId: string;
  hostname: string;
  kind: ElevationKind;
  /** The server's answer: the request id (null when ignored) and its status. */
  id: string | null;
  status: 'pending' | 'auto_approved' | 'denied' | 'ignored';
  expiresAt: string | null;
}

/** `raiseElevation` found no agent to ask, or the server did not take the request. */
export class ElevationRaiseError extends Error {
  constructor(
    message: string,
    readonly reason: 'no_agent' | RaiseFailure,
    readonly httpStatus: number | null = null,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'ElevationRaiseError';
  }
}

export class Fleet {
  readonly agents: SimulatedAgent[] = [];
  readonly counters: FleetCounters = newCounters();
  readonly scenario: Scenario;
  readonly seed: number;
  readonly http: AgentHttp;
  private readonly credentials: CredentialStore;
  private startTimers: NodeJS.Timeout[] = [];
  private lastError: string | null = null;
  private running = false;
  /** Round-robin position for `raiseElevation` without an agent index. */
  private nextRaiser = 0;
  startedAt: Date | null = null;

  constructor(private readonly options: FleetOptions) {
    if (!Number.isInteger(options.count) || options.count < 0)
      throw new Error('count must be a whole number');
    const scenario =
      typeof options.scenario === 'object'
        ? options.scenario
        : getScenario(options.scenario ?? DEFAULT_SCENARIO);
    if (!scenario)
      throw new Error(
        `unknown scenario "${String(options.scenario)}" (known: ${scenarioNames().join(', ')})`,
      );
    this.scenario = scenario;
    this.seed = options.seed ?? 1;
    const failureRate = scenario.network.requestFailureRate;
    this.http = new AgentHttp(
      options.server,
      failureRate > 0 ? () => Math.random() < failureRate : undefined,
    );
    this.credentials =
      options.credentials ??
      (options.statePath
        ? new FileCredentialStore(options.statePath, this.http.origin, this.seed)
        : new MemoryCredentialStore());
    const gate = new Gate(options.enrollConcurrency ?? 16);
    const connectGate = new Gate(options.connectConcurrency ?? 32);
    const first = options.firstIndex ?? 0;
    for (let i = 0; i < options.count; i++) {
      this.agents.push(
        new SimulatedAgent({
          http: this.http,
          seed: this.seed,
          index: first + i,
          domain: options.domain,
          scenario,
          credentials: this.credentials,
          counters: this.counters,
          enrollmentKey:
            typeof options.enrollmentKey === 'function'
              ? options.enrollmentKey(first + i)
              : options.enrollmentKey,
          enrollmentSecret: options.enrollmentSecret,
          agentVersion: options.agentVersion,
          heartbeatSeconds: options.heartbeatSeconds,
          startGate: gate,
          connectGate,
          spreadFirstHeartbeat: options.spreadFirstHeartbeat,
          reenrollOnUnauthorized: options.reenrollOnUnauthorized,
          onEvent: (agent, event) => {
            if (event.kind === 'failed') this.lastError = `${agent.identity.hostname}: ${event.reason}`;
            options.onEvent?.(agent, event);
          },
        }),
      );
    }
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Starts every agent, a few milliseconds apart so their sockets do not all open in the same instant. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.startedAt = new Date();
    const spacing = this.options.startSpacingMs ?? Math.min(5, 2000 / Math.max(1, this.agents.length));
    this.agents.forEach((agent, i) => {
      if (spacing <= 0 || i === 0) agent.start();
      else this.startTimers.push(setTimeout(() => agent.start(), i * spacing));
    });
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    for (const timer of this.startTimers) clearTimeout(timer);
    this.startTimers = [];
    await Promise.all(this.agents.map((agent) => agent.stop()));
    try {
      this.credentials.flush();
    } catch (err) {
      this.lastError = `saving agent credentials failed: ${err instanceof Error ? err.message : String(err)}`;
    }
  }

  stats(): FleetStats {
    let enrolled = 0;
    let connected = 0;
    let running = 0;
    let stopped = 0;
    let failed = 0;
    const elevation = newElevationStats();
    for (const agent of this.agents) {
      addElevationStats(elevation, agent.elevation.stats);
      const s = agent.status;
      if (s.enrolled) enrolled++;
      if (s.connected) connected++;
      if (s.phase === 'running' || s.phase === 'enrolling') running++;
      else if (s.phase === 'failed') failed++;
      else if (s.phase === 'stopped') stopped++;
    }
    return {
      ...this.counters,
      agents: this.agents.length,
      enrolled,
      connected,
      running,
      stopped,
      failed,
      lastError: this.lastError,
      elevation,
    };
  }

  /**
   * Makes one agent report an elevation request now (tests and the demo panel): the agent at `agentIndex`, or
   * the next connected one. Resolves with the server's answer; rejects with ElevationRaiseError when no agent can
   * ask or the server did not take the request.
   */
  async raiseElevation(input: RaiseElevationInput = {}): Promise<RaisedElevation> {
    const agent = this.pickRaiser(input.agentIndex);
    // The device the request is filed under (an agent re-enrolling meanwhile would get a new one).
    const deviceId = agent.deviceId!;
    const outcome = await agent.elevation.raise(input.kind);
    if (!outcome.ok)
      throw new ElevationRaiseError(
        `${agent.identity.hostname}: ${outcome.error}`,
        outcome.reason,
        outcome.httpStatus,
        outcome.retryAfterMs,
      );
    return {
      agentIndex: agent.index,
      deviceId,
      hostname: agent.identity.hostname,
      kind: outcome.kind,
      id: outcome.id,
      status: outcome.status,
      expiresAt: outcome.expiresAt,
    };
  }

  private pickRaiser(agentIndex: number | undefined): SimulatedAgent {
    const usable = (a: SimulatedAgent) => a.phase === 'running' && a.deviceId !== null;
    if (agentIndex !== undefined) {
      const agent = this.agents.find((a) => a.index === agentIndex);
      if (!agent) throw new ElevationRaiseError(`no agent with index ${agentIndex}`, 'no_agent');
      if (!usable(agent))
        throw new ElevationRaiseError(`${agent.identity.hostname} is not running`, 'no_agent');
      return agent;
    }
    const connected = this.agents.filter((a) => a.connected && usable(a));
    if (connected.length === 0) throw new ElevationRaiseError('no simulated agent is connected', 'no_agent');
    return connected[this.nextRaiser++ % connected.length]!;
  }

  statuses(): AgentStatus[] {
    return this.agents.map((a) => a.status);
  }
}

/** The one-line status the CLI prints every few seconds. */
export function formatStats(s: FleetStats): string {
  const parts = [
    `${s.connected}/${s.agents} connected`,
    `${s.enrolled} enrolled`,
    `${s.heartbeats} heartbeats`,
    `${s.logsSent} log lines`,
    `${s.eventsSent} events`,
    `${s.commands} commands`,
    `${s.updates} updates`,
    `${s.errors} errors`,
  ];
  if (s.enrollDeferrals) parts.push(`${s.enrollDeferrals} enrollments deferred (429)`);
  if (s.updateRefusals) parts.push(`${s.updateRefusals} updates refused`);
  if (s.reconnects) parts.push(`${s.reconnects} reconnects`);
  if (s.stopped) parts.push(`${s.stopped} stopped`);
  if (s.failed) parts.push(`${s.failed} failed`);
  const e = s.elevation;
  if (e.raised || e.actuated || e.cleanedUp) {
    const answers = [
      `${e.pending} pending`,
      `${e.autoApproved} auto-approved`,
      `${e.denied} denied`,
      `${e.ignored} ignored`,
    ];
    if (e.rateLimited) answers.push(`${e.rateLimited} rate-limited`);
    if (e.rejected + e.failed) answers.push(`${e.rejected + e.failed} not reported`);
    parts.push(
      `${e.raised} elevation requests (${answers.join(', ')})`,
      `${e.grantsActive} grants active`,
      `${e.actuated} actuated`,
      `${e.cleanedUp} cleaned up`,
    );
    if (e.expiredLocally) parts.push(`${e.expiredLocally} expired locally`);
  }
  return parts.join(', ');
}
