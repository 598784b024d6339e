import WebSocket, { type RawData } from 'ws';
import { BUILT_IN_COMMANDS, type AgentHandle, type CommandOutcome } from './commands';
import { EventLogStore } from './eventlog';
import { agentIdentity, type AgentIdentity } from './identity';
import { Machine } from './machine';
import { elevationOf, type AgentElevation } from './pam';
import {
  archWord,
  enrollResponse,
  heartbeatResponse,
  MAX_LOGS_PER_REQUEST,
  platformWord,
  serverMessage,
  type CommandResult,
  type DeviceEvent,
  type DiagnosticLog,
  type EnrollRequest,
  type HeartbeatRequest,
  type UpgradeOffer,
} from './protocol';
import { backoff, jitter, Rng } from './random';
import type { Scenario } from './scenarios';
import type { CredentialStore, SavedAgent } from './state';
import { sleep, type Gate } from './timing';
import { retryAfterMs, TransportError, type AgentHttp, type HttpAnswer } from './transport';
import { compareVersions, downloadVerified, RefusedOffers } from './updater';

// One simulated agent: a stable machine (identity + seeded state) speaking the public agent protocol of
// DESIGN §3. It enrolls (or reuses saved credentials), heartbeats with jitter, keeps its WebSocket open with
// reconnect and backoff, answers commands from the socket and from heartbeats, reports software, diagnostic logs
// and OS events in bursts, and updates itself when offered a newer build whose checksum verifies.
//
// Failure handling, like a real agent: anything transient (refused connection, 5xx, 429, a dropped socket) is
// retried with exponential backoff and jitter, so a fleet rides through a server restart; a 401 on the heartbeat
// means the server no longer knows these credentials (the device was removed), and the agent stops for good
// unless it was told to re-enroll.

export const DEFAULT_AGENT_VERSION = '1.0.0';

const MAX_BUFFERED_LOGS = 5_000;
const MAX_BUFFERED_EVENTS = 5_000;
const EVENTS_PER_REQUEST = 500;
const REMEMBERED_COMMANDS = 500;
const SOCKET_BACKOFF_CAP_MS = 30_000;
/** A freshly enrolled agent reports within this long. */
const FIRST_BEAT_AFTER_ENROLL_MS = 5_000;
/** Generous: a busy server (or a fleet sharing its process) answers upgrades late rather than never. */
const HANDSHAKE_TIMEOUT_MS = 30_000;
/** Refused by policy (decommissioned, partner inactive): no point knocking often. */
const REFUSED_BACKOFF_CAP_MS = 5 * 60_000;

export type AgentPhase = 'idle' | 'enrolling' | 'running' | 'stopped' | 'failed';

/** Counters shared by every agent of a fleet. */
export interface FleetCounters {
  enrollments: number;
  heartbeats: number;
  errors: number;
  commands: number;
  logsSent: number;
  eventsSent: number;
  updates: number;
  updateRefusals: number;
  reconnects: number;
  uninstalls: number;
}

export function newCounters(): FleetCounters {
  return {
    enrollments: 0,
    heartbeats: 0,
    errors: 0,
    commands: 0,
    logsSent: 0,
    eventsSent: 0,
    updates: 0,
    updateRefusals: 0,
    reconnects: 0,
    uninstalls: 0,
  };
}

export type AgentEvent =
  | { kind: 'enrolled'; deviceId: string }
  | { kind: 'stopped'; reason: string }
  | { kind: 'failed'; reason: string }
  | { kind: 'updated'; from: string; to: string; how: 'auto-update' | 'dev_update' }
  | { kind: 'update_refused'; version: string; reason: string };

export interface AgentOptions {
  http: AgentHttp;
  seed: number;
  index: number;
  scenario: Scenario;
  credentials: CredentialStore;
  counters: FleetCounters;
  enrollmentKey?: string | undefined;
  enrollmentSecret?: string | undefined;
  /** The version a freshly enrolled agent runs (saved agents keep theirs). */
  agentVersion?: string | undefined;
  /** Overrides the interval the server hands out. */
  heartbeatSeconds?: number | undefined;
  /** Spreads enrollment over a fleet. */
  startGate?: Gate | undefined;
  /** Bounds how many sockets of a fleet are in their opening handshake at once. */
  connectGate?: Gate | undefined;
  /** Spread the first heartbeat (default; see heartbeatLoop); false beats at once (tests). */
  spreadFirstHeartbeat?: boolean | undefined;
  /** When the server refuses the credentials: enroll again with the key instead of stopping. */
  reenrollOnUnauthorized?: boolean | undefined;
  onEvent?: ((agent: SimulatedAgent, event: AgentEvent) => void) | undefined;
}

export interface AgentStatus {
  index: number;
  hostname: string;
  phase: AgentPhase;
  reason: string | null;
  enrolled: boolean;
  connected: boolean;
  agentId: string | null;
  deviceId: string | null;
  agentVersion: string;
  autoUpdate: boolean;
  heartbeats: number;
}

type HeartbeatOutcome =
  | { kind: 'ok' }
  | { kind: 'retry'; afterMs?: number | undefined; capMs?: number }
  | { kind: 'reenroll' }
  | { kind: 'halted' };

type EnrollOutcome = { kind: 'ok' } | { kind: 'fatal'; reason: string } | { kind: 'retry'; afterMs?: number };

const errorText = (body: unknown): string => {
  if (body && typeof body === 'object') {
    const b = body as { error?: unknown; reason?: unknown; code?: unknown };
    return [b.error, b.code, b.reason].filter((x) => typeof x === 'string').join(' / ');
  }
  return typeof body === 'string' ? body.slice(0, 200) : '';
};

/** The server's Retry-After, honoured up to the longest pause an agent takes (a wild value must not park it). */
const serverDelay = (headers: Headers): number | undefined => {
  const ms = retryAfterMs(headers);
  return ms === null ? undefined : Math.min(ms, REFUSED_BACKOFF_CAP_MS);
};

/** The server does not know this agent id (the spec's 404 'Agent not found'), as opposed to a missing route. */
const agentUnknown = (answer: HttpAnswer) =>
  answer.status === 404 && (answer.body as { error?: unknown } | null)?.error === 'Agent not found';

export class SimulatedAgent {
  readonly index: number;
  readonly seed: number;
  readonly identity: AgentIdentity;
  readonly machine: Machine;
  readonly eventLogs: EventLogStore;

  private saved: SavedAgent | null = null;
  private version: string;
  private phaseValue: AgentPhase = 'idle';
  private reason: string | null = null;
  private abort: AbortController | null = null;
  private intervalMs: number;
  private heartbeatSleep: ReturnType<typeof sleep> | null = null;
  private heartbeatsSent = 0;

  private ws: WebSocket | null = null;
  /** Waiting at the connect gate. */
  private socketPending = false;
  private socketOpen = false;
  private socketAttempt = 0;
  private reconnectNow = false;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private idleTimer: NodeJS.Timeout | null = null;

  private diagnostics: DiagnosticLog[] = [];
  private pendingEvents: DeviceEvent[] = [];
  private flushingLogs = false;
  private flushingEvents = false;
  private reportingSoftware = false;
  private readonly handled = new Set<string>();
  private updating = false;
  /** Builds whose checksum did not verify: long pauses. Downloads that failed in transit: short ones. */
  private readonly refusedOffers = new RefusedOffers();
  private readonly failedDownloads = new RefusedOffers(30_000, 30 * 60_000);
  private announcedVersion: string | null = null;
  private readonly scenarioRng: Rng;
  private readonly handle: AgentHandle;

  constructor(private readonly opts: AgentOptions) {
    this.index = opts.index;
    this.seed = opts.seed;
    this.identity = agentIdentity(opts.seed, opts.index);
    this.machine = new Machine(this.identity, opts.seed, opts.index, {
      metricVolatility: opts.scenario.metricVolatility,
    });
    this.eventLogs = new EventLogStore(this.identity, opts.seed, opts.index);
    this.version = opts.agentVersion ?? DEFAULT_AGENT_VERSION;
    this.intervalMs = (opts.heartbeatSeconds ?? 60) * 1000;
    this.scenarioRng = Rng.of(opts.seed, opts.index, 'scenario', opts.scenario.name);
    this.handle = this.makeHandle();
  }

  // ------------------------------------------------------------------------------------------------ lifecycle

  get status(): AgentStatus {
    return {
      index: this.index,
      hostname: this.identity.hostname,
      phase: this.phaseValue,
      reason: this.reason,
      enrolled: this.saved !== null,
      connected: this.socketOpen,
      agentId: this.saved?.agentId ?? null,
      deviceId: this.saved?.deviceId ?? null,
      agentVersion: this.version,
      autoUpdate: this.saved?.autoUpdate ?? true,
      heartbeats: this.heartbeatsSent,
    };
  }

  get phase(): AgentPhase {
    return this.phaseValue;
  }

  get connected(): boolean {
    return this.socketOpen;
  }

  get agentVersion(): string {
    return this.version;
  }

  get deviceId(): string | null {
    return this.saved?.deviceId ?? null;
  }

  get agentId(): string | null {
    return this.saved?.agentId ?? null;
  }

  /** Privileged access: the requests this agent raised and the grants it holds (agent-sim/pam.ts). */
  get elevation(): AgentElevation {
    return elevationOf(this.handle);
  }

  start(): void {
    if (this.abort) return;
    const abort = new AbortController();
    this.abort = abort;
    this.phaseValue = 'enrolling';
    this.reason = null;
    this.run(abort.signal).catch((err: unknown) => this.halt('failed', `unexpected error: ${String(err)}`));
  }

  /** Stops the agent (keeps its credentials); resolves once its socket is closed. */
  async stop(): Promise<void> {
    const abort = this.abort;
    if (!abort) return;
    this.abort = null;
    abort.abort();
    // Grants are process memory: a stopped agent holds none (a real agent clears leftovers when it boots).
    this.elevation.reset();
    if (this.phaseValue === 'enrolling' || this.phaseValue === 'running' || this.phaseValue === 'idle') {
      this.phaseValue = 'stopped';
      this.reason = 'stopped';
    }
    await this.closeSocket(1001, 'agent stopping');
  }

  /** Ends the agent's activity with a final phase (uninstalled, refused, failed). */
  private halt(phase: 'stopped' | 'failed', reason: string): void {
    this.phaseValue = phase;
    this.reason = reason;
    const abort = this.abort;
    this.abort = null;
    abort?.abort();
    this.elevation.reset();
    void this.closeSocket(1000, reason.slice(0, 100));
    this.opts.onEvent?.(this, phase === 'failed' ? { kind: 'failed', reason } : { kind: 'stopped', reason });
  }

  private async run(signal: AbortSignal): Promise<void> {
    const slot = this.opts.credentials.get(this.index);
    if (slot?.state === 'uninstalled') return this.halt('stopped', 'uninstalled earlier by the server');
    if (slot?.state === 'revoked' && !this.opts.reenrollOnUnauthorized)
      return this.halt('stopped', 'the server refused these credentials earlier');
    if (slot?.state === 'active') {
      this.saved = slot.agent;
      this.version = slot.agent.agentVersion;
    }
    while (!signal.aborted) {
      let fresh = false;
      if (!this.saved) {
        if (!(await this.enroll(signal))) return;
        fresh = true;
      }
      if (signal.aborted) return;
      this.phaseValue = 'running';
      this.connectSocket();
      this.background(this.afterStart(fresh, signal), 'start-up');
      const end = await this.heartbeatLoop(signal, fresh);
      if (end !== 'reenroll') return;
    }
  }

  // ----------------------------------------------------------------------------------------------- enrollment

  private async enroll(signal: AbortSignal): Promise<boolean> {
    this.phaseValue = 'enrolling';
    let attempt = 0;
    while (!signal.aborted) {
      const outcome = this.opts.startGate
        ? await this.opts.startGate.run(() => this.tryEnroll(signal))
        : await this.tryEnroll(signal);
      if (outcome.kind === 'ok') return true;
      if (outcome.kind === 'fatal') {
        if (!signal.aborted) this.halt('failed', outcome.reason);
        return false;
      }
      await sleep(outcome.afterMs ?? backoff(attempt++, 1000, SOCKET_BACKOFF_CAP_MS), signal);
    }
    return false;
  }

  private enrollBody(key: string): EnrollRequest {
    const id = this.identity;
    return {
      enrollmentKey: key,
      ...(this.opts.enrollmentSecret ? { enrollmentSecret: this.opts.enrollmentSecret } : {}),
      hostname: id.hostname,
      osType: id.osType,
      osVersion: id.osVersion,
      osBuild: id.osBuild,
      architecture: id.architecture,
      agentVersion: this.version,
      deviceRole: id.deviceRole,
      hardware: id.hardware,
      network: id.network,
    };
  }

  private async tryEnroll(signal: AbortSignal): Promise<EnrollOutcome> {
    const key = this.opts.enrollmentKey;
    if (!key) return { kind: 'fatal', reason: 'no saved credentials and no enrollment key' };
    let answer: HttpAnswer;
    try {
      answer = await this.opts.http.request('POST', '/agents/enroll', { body: this.enrollBody(key), signal });
    } catch {
      if (!signal.aborted) this.opts.counters.errors++;
      return { kind: 'retry' };
    }
    if (answer.status === 201 || answer.status === 200) {
      const parsed = enrollResponse.safeParse(answer.body);
      if (!parsed.success)
        return { kind: 'fatal', reason: 'the server answered enrollment with an unreadable body' };
      const r = parsed.data;
      this.saved = {
        agentId: r.agentId,
        deviceId: r.deviceId,
        orgId: r.orgId,
        siteId: r.siteId ?? null,
        authToken: r.authToken,
        agentVersion: this.version,
        autoUpdate: true,
        softwareReported: false,
      };
      if (!this.opts.heartbeatSeconds && r.heartbeatIntervalSeconds)
        this.intervalMs = r.heartbeatIntervalSeconds * 1000;
      this.persist();
      this.opts.counters.enrollments++;
      this.opts.onEvent?.(this, { kind: 'enrolled', deviceId: r.deviceId });
      return { kind: 'ok' };
    }
    this.opts.counters.errors++;
    if (answer.status === 429) return { kind: 'retry', afterMs: serverDelay(answer.headers) };
    if (answer.status >= 500) return { kind: 'retry' };
    // 400 (bad body), 401 (key not found, expired, exhausted), 403 (secret, device cap, partner): no retry helps.
    return {
      kind: 'fatal',
      reason: `enrollment refused: HTTP ${answer.status} ${errorText(answer.body)}`.trim(),
    };
  }

  private persist(): void {
    if (this.saved) this.opts.credentials.set(this.index, { state: 'active', agent: this.saved });
  }

  /** After (re)start: software once per enrollment, a first look at recent OS events, scenario hook. */
  private async afterStart(fresh: boolean, signal: AbortSignal): Promise<void> {
    const saved = this.saved;
    if (!saved) return;
    this.log('info', 'service', `agent ${this.version} started`, {
      hostname: this.identity.hostname,
      os: `${this.identity.osVersion} (${this.identity.osBuild})`,
      enrolled: fresh ? 'now' : 'earlier',
    });
    await this.reportSoftware(signal);
    const backfill = this.opts.scenario.events.backfill;
    if (fresh && backfill > 0) {
      for (const { log, entry, template } of this.eventLogs.recentNotable(backfill))
        this.queueEvent(EventLogStore.toDeviceEvent(entry, template, log));
      void this.flushEvents();
    }
    await this.opts.scenario.hooks?.onStart?.(this.handle);
  }

  /** The installed software, once per enrollment (retried on later heartbeats until the server took it). */
  private async reportSoftware(signal: AbortSignal): Promise<void> {
    const saved = this.saved;
    if (!saved || saved.softwareReported || this.reportingSoftware) return;
    this.reportingSoftware = true;
    try {
      const answer = await this.agentRequest(
        'PUT',
        '/software',
        { software: this.machine.software() },
        signal,
      );
      if (answer.status === 200 || answer.status === 201) {
        saved.softwareReported = true;
        this.persist();
      } else this.log('warn', 'inventory', `software report refused: HTTP ${answer.status}`);
    } catch {
      if (!signal.aborted) this.opts.counters.errors++;
    } finally {
      this.reportingSoftware = false;
    }
  }

  // ------------------------------------------------------------------------------------------------ heartbeat

  /**
   * The first beat is spread so a fleet does not beat in lockstep: over the whole interval for agents coming
   * back with saved credentials (they all start at once), within the first few seconds after a fresh
   * enrollment (enrollment is already paced by the fleet's gate, and a new device should report soon).
   */
  private async heartbeatLoop(
    signal: AbortSignal,
    fresh: boolean,
  ): Promise<'aborted' | 'reenroll' | 'halted'> {
    const window = fresh ? Math.min(this.intervalMs, FIRST_BEAT_AFTER_ENROLL_MS) : this.intervalMs;
    let delay = this.opts.spreadFirstHeartbeat === false ? 0 : Math.random() * window;
    let failures = 0;
    while (!signal.aborted) {
      this.heartbeatSleep = sleep(delay, signal);
      await this.heartbeatSleep;
      this.heartbeatSleep = null;
      if (signal.aborted) break;
      const outcome = await this.heartbeat(signal);
      if (outcome.kind === 'ok') {
        failures = 0;
        delay = jitter(this.intervalMs);
      } else if (outcome.kind === 'retry') {
        delay = outcome.afterMs ?? backoff(failures++, 1000, outcome.capMs ?? SOCKET_BACKOFF_CAP_MS);
      } else return outcome.kind;
    }
    return 'aborted';
  }

  /** Beats now instead of at the next scheduled time (after a restart, or when the socket was refused). */
  private wakeHeartbeat(): void {
    this.heartbeatSleep?.wake();
  }

  private heartbeatBody(): HeartbeatRequest {
    const metrics = this.machine.tick();
    const posture = this.machine.posture();
    return {
      status: this.machine.health(),
      agentVersion: this.version,
      platform: platformWord(this.identity.osType),
      arch: archWord(this.identity.architecture),
      metrics,
      uptimeSeconds: this.machine.uptimeSeconds(),
      lastUser: this.machine.lastUser(),
      rebootRequired: this.machine.rebootRequired,
      ...(posture ? { managementPosture: posture } : {}),
    };
  }

  private async heartbeat(signal: AbortSignal): Promise<HeartbeatOutcome> {
    const { counters } = this.opts;
    let answer: HttpAnswer;
    try {
      answer = await this.agentRequest('POST', '/heartbeat', this.heartbeatBody(), signal);
    } catch (err) {
      if (signal.aborted) return { kind: 'retry' };
      counters.errors++;
      this.log('warn', 'heartbeat', `heartbeat failed: ${err instanceof Error ? err.message : String(err)}`);
      return { kind: 'retry' };
    }
    if (answer.status === 401 || agentUnknown(answer)) return this.credentialsRefused(answer);
    if (answer.status !== 200) {
      counters.errors++;
      this.log('warn', 'heartbeat', `heartbeat answered HTTP ${answer.status}`, {
        error: errorText(answer.body),
      });
      if (answer.status === 429) return { kind: 'retry', afterMs: serverDelay(answer.headers) };
      if (answer.status === 403) return { kind: 'retry', capMs: REFUSED_BACKOFF_CAP_MS };
      return { kind: 'retry' };
    }
    counters.heartbeats++;
    this.heartbeatsSent++;
    const parsed = heartbeatResponse.safeParse(answer.body);
    if (!parsed.success) {
      counters.errors++;
      this.log('error', 'heartbeat', 'unreadable heartbeat response', {
        issue: parsed.error.issues[0]?.message,
      });
      return { kind: 'ok' };
    }
    const response = parsed.data;
    if (!this.opts.heartbeatSeconds && response.heartbeatIntervalSeconds)
      this.intervalMs = response.heartbeatIntervalSeconds * 1000;
    for (const command of response.commands)
      this.background(this.runCommand(command.id, command.type, command.payload ?? {}, 'http'), 'commands');
    if (response.upgradeTo) this.background(this.considerUpgrade(response.upgradeTo), 'updater');
    await this.afterHeartbeat();
    return { kind: 'ok' };
  }

  private credentialsRefused(answer: HttpAnswer): HeartbeatOutcome {
    const why = `HTTP ${answer.status} ${errorText(answer.body)}`.trim();
    if (this.opts.reenrollOnUnauthorized && this.opts.enrollmentKey) {
      this.saved = null;
      this.opts.credentials.set(this.index, null);
      void this.closeSocket(1000, 'credentials refused; enrolling again');
      return { kind: 'reenroll' };
    }
    this.opts.credentials.set(this.index, { state: 'revoked', agent: null });
    this.halt('stopped', `the server refused the agent's credentials (${why})`);
    return { kind: 'halted' };
  }

  /** Routine work between heartbeats, paced by the scenario. */
  private async afterHeartbeat(): Promise<void> {
    const scenario = this.opts.scenario;
    const rng = this.scenarioRng;
    const chatter = rng.int(
      scenario.diagnostics.chatterPerHeartbeat[0],
      scenario.diagnostics.chatterPerHeartbeat[1],
    );
    if (chatter > 0) this.pushLogs(this.machine.chatter(chatter, this.version));
    if (this.heartbeatsSent % scenario.diagnostics.flushEveryHeartbeats === 0) void this.flushDiagnostics();
    if (this.heartbeatsSent % 10 === 0 && this.abort) void this.reportSoftware(this.abort.signal);
    if (this.heartbeatsSent % scenario.events.everyHeartbeats === 0) {
      const count = rng.int(scenario.events.perBurst[0], scenario.events.perBurst[1]);
      for (const { log, entry, template } of this.eventLogs.append(count)) {
        if (entry.level !== 'verbose') this.queueEvent(EventLogStore.toDeviceEvent(entry, template, log));
      }
      void this.flushEvents();
    }
    // Only when (not what) the network fails is random: a simulated dropped link.
    if (scenario.network.socketDropRate > 0 && this.ws && Math.random() < scenario.network.socketDropRate) {
      this.log('warn', 'websocket', 'connection reset by the network');
      this.ws.terminate();
    }
    try {
      await scenario.hooks?.onHeartbeat?.(this.handle);
    } catch (err) {
      this.log('error', 'scenario', `scenario hook failed: ${String(err)}`);
    }
  }

  // --------------------------------------------------------------------------------------------------- socket

  /**
   * Opens the agent socket, through the fleet's connect gate when there is one: a fleet coming up (or coming
   * back after a server restart) then has a bounded number of handshakes in flight, so each one completes in
   * time instead of all of them timing out together and retrying in a storm.
   */
  private connectSocket(): void {
    const signal = this.abort?.signal;
    if (!signal || signal.aborted || !this.saved) return;
    this.clearReconnect();
    if (this.ws || this.socketPending) return;
    this.socketPending = true;
    const open = () =>
      new Promise<void>((settled) => {
        this.socketPending = false;
        const saved = this.saved;
        if (signal.aborted || !saved || this.ws) return settled();
        // The gate slot is held until the handshake ends one way or the other, and never past its timeout.
        const guard = setTimeout(() => {
          if (this.ws?.readyState === WebSocket.CONNECTING) this.ws.terminate();
          done();
        }, HANDSHAKE_TIMEOUT_MS + 5_000);
        const done = () => {
          clearTimeout(guard);
          settled();
        };
        try {
          this.openSocket(saved, signal, done);
        } catch (err) {
          // No socket, so no close event to schedule the next attempt: schedule it here.
          done();
          this.ws = null;
          this.opts.counters.errors++;
          this.log(
            'warn',
            'websocket',
            `cannot open the socket: ${err instanceof Error ? err.message : String(err)}`,
          );
          this.reconnectTimer = setTimeout(
            () => this.connectSocket(),
            backoff(this.socketAttempt++, 1000, SOCKET_BACKOFF_CAP_MS),
          );
        }
      });
    const gate = this.opts.connectGate;
    (gate ? gate.run(open) : open()).catch(() => undefined);
  }

  private openSocket(saved: SavedAgent, signal: AbortSignal, settled: () => void): void {
    const ws = new WebSocket(this.opts.http.wsUrl(`/agents/${encodeURIComponent(saved.agentId)}/ws`), {
      headers: {
        authorization: `Bearer ${saved.authToken}`,
        'user-agent': `gatehouse-agent/${this.version} (simulated)`,
      },
      handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
    });
    this.ws = ws;
    let refusedStatus: number | null = null;
    let lastError: string | null = null;
    ws.on('open', () => {
      settled();
      if (this.ws !== ws) return;
      this.socketOpen = true;
      this.socketAttempt = 0;
      this.armIdle(ws);
    });
    ws.on('ping', () => this.armIdle(ws));
    ws.on('message', (data, isBinary) => {
      this.armIdle(ws);
      this.onSocketMessage(ws, data, isBinary);
    });
    ws.on('error', (err) => {
      const status = /Unexpected server response: (\d+)/.exec(err.message)?.[1];
      if (status) refusedStatus = Number(status);
      else lastError = err.message;
    });
    ws.on('close', (code) => {
      settled();
      const wasOpen = this.socketOpen && this.ws === ws;
      if (this.ws !== ws) return;
      this.ws = null;
      this.socketOpen = false;
      this.clearIdle();
      if (!this.abort || this.abort.signal !== signal || signal.aborted) return;
      if (wasOpen) {
        this.opts.counters.reconnects++;
        if (!this.reconnectNow)
          this.log('warn', 'websocket', `connection closed (code ${code}); reconnecting`);
      } else if (refusedStatus !== null || lastError) {
        this.opts.counters.errors++;
      }
      // A refused upgrade: the heartbeat is where the agent learns whether its credentials still hold.
      if (refusedStatus === 401 || refusedStatus === 404) this.wakeHeartbeat();
      const cap = refusedStatus === 403 ? REFUSED_BACKOFF_CAP_MS : SOCKET_BACKOFF_CAP_MS;
      const delay = this.reconnectNow ? 0 : backoff(this.socketAttempt++, 1000, cap);
      this.reconnectNow = false;
      this.reconnectTimer = setTimeout(() => this.connectSocket(), delay);
    });
  }

  /** No frame (ping or message) for a long while means a dead link the OS has not noticed: drop it. */
  private armIdle(ws: WebSocket): void {
    this.clearIdle();
    const idleMs = Math.max(90_000, 3 * this.intervalMs);
    this.idleTimer = setTimeout(() => {
      if (this.ws === ws) ws.terminate();
    }, idleMs);
    this.idleTimer.unref?.();
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private clearReconnect(): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
  }

  private closeSocket(code: number, reason: string): Promise<void> {
    this.clearReconnect();
    this.socketPending = false;
    this.clearIdle();
    const ws = this.ws;
    this.ws = null;
    this.socketOpen = false;
    if (!ws || ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      const force = setTimeout(() => {
        ws.terminate();
        resolve();
      }, 1_000);
      ws.once('close', () => {
        clearTimeout(force);
        resolve();
      });
      if (ws.readyState === WebSocket.CONNECTING) ws.terminate();
      else ws.close(code, reason);
    });
  }

  /** "Restart" after an update: reconnect at once under the new version and beat immediately. */
  private restart(): void {
    if (this.ws) {
      this.reconnectNow = true;
      this.ws.close(1012, 'agent restarting');
    } else {
      this.connectSocket();
    }
    this.wakeHeartbeat();
  }

  private onSocketMessage(ws: WebSocket, data: RawData, isBinary: boolean): void {
    if (isBinary) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(data.toString());
    } catch {
      this.log('warn', 'websocket', 'unreadable message from the server');
      return;
    }
    const message = serverMessage.safeParse(parsed);
    // Acks, pongs and error notes need no action; unknown types come from newer servers.
    if (!message.success) return;
    if (message.data.type === 'ping' && ws.readyState === WebSocket.OPEN)
      ws.send(JSON.stringify({ type: 'pong' }));
    if (message.data.type === 'command')
      this.background(
        this.runCommand(message.data.id, message.data.commandType, message.data.payload ?? {}, 'socket'),
        'commands',
      );
  }

  // ------------------------------------------------------------------------------------------------- commands

  private async runCommand(
    id: string,
    type: string,
    payload: Record<string, unknown>,
    via: 'socket' | 'http',
  ): Promise<void> {
    // A queued command may reach the agent both over the socket and in a heartbeat: run it once.
    if (this.handled.has(id)) return;
    this.handled.add(id);
    if (this.handled.size > REMEMBERED_COMMANDS) this.handled.delete(this.handled.values().next().value!);
    this.opts.counters.commands++;
    const handler = this.opts.scenario.hooks?.commands?.[type] ?? BUILT_IN_COMMANDS[type];
    let outcome: CommandOutcome;
    if (!handler) outcome = { status: 'failed', error: `Unsupported command type: ${type}` };
    else {
      try {
        outcome = await handler(payload, this.handle);
      } catch (err) {
        outcome = { status: 'failed', error: err instanceof Error ? err.message : String(err) };
      }
    }
    const { after, ...result } = outcome;
    if (result.status !== 'completed')
      this.log('warn', 'commands', `${type} ${result.status}: ${result.error ?? ''}`);
    await this.deliverResult(id, result, via);
    after?.();
  }

  private async deliverResult(id: string, result: CommandResult, via: 'socket' | 'http'): Promise<void> {
    const ws = this.ws;
    if (via === 'socket' && ws && ws.readyState === WebSocket.OPEN) {
      ws.send(JSON.stringify({ type: 'command_result', commandId: id, ...result }));
      return;
    }
    for (let attempt = 0; attempt < 4; attempt++) {
      const signal = this.abort?.signal;
      try {
        const answer = await this.agentRequest(
          'POST',
          `/commands/${encodeURIComponent(id)}/result`,
          result,
          signal,
        );
        if (answer.status < 500 && answer.status !== 429) {
          if (answer.status >= 400)
            this.log('warn', 'commands', `result for ${id} refused: HTTP ${answer.status}`);
          return;
        }
      } catch {
        // retried below
      }
      this.opts.counters.errors++;
      await sleep(backoff(attempt, 500, 5_000), signal);
      if (signal?.aborted) return;
    }
  }

  // -------------------------------------------------------------------------------------------------- updates

  private async considerUpgrade(offer: UpgradeOffer): Promise<void> {
    const saved = this.saved;
    if (this.updating || !saved) return;
    if (compareVersions(offer.version, this.version) <= 0) return;
    if (!saved.autoUpdate) {
      // Spec 3: with auto_update off the agent only notes that a newer version exists.
      if (this.announcedVersion !== offer.version) {
        this.announcedVersion = offer.version;
        this.log(
          'info',
          'updater',
          `agent ${offer.version} is available; auto-update is off, staying on ${this.version}`,
        );
      }
      return;
    }
    if (
      this.refusedOffers.blocked(offer.version, offer.checksum) ||
      this.failedDownloads.blocked(offer.version, offer.checksum)
    )
      return;
    this.updating = true;
    try {
      this.log('info', 'updater', `downloading agent ${offer.version}`, { from: this.version });
      const download = await downloadVerified(
        this.opts.http,
        offer.downloadUrl,
        offer.checksum,
        saved.authToken,
        this.abort?.signal,
      );
      if (this.abort === null) return;
      if (!download.ok) {
        if (download.reason === 'download_failed') {
          const waitMs = this.failedDownloads.refuse(offer.version, offer.checksum);
          this.log('warn', 'updater', `update to ${offer.version} postponed: ${download.message}`, {
            version: offer.version,
            retryInSeconds: Math.round(waitMs / 1000),
          });
          return;
        }
        const waitMs = this.refusedOffers.refuse(offer.version, offer.checksum);
        this.opts.counters.updateRefusals++;
        this.log(
          'error',
          'updater',
          `update to ${offer.version} refused: ${download.message}; keeping ${this.version}`,
          {
            version: offer.version,
            reason: download.reason,
            expectedChecksum: offer.checksum,
            actualChecksum: download.actual ?? null,
            retryInMinutes: Math.round(waitMs / 60_000),
          },
        );
        void this.flushDiagnostics();
        this.opts.onEvent?.(this, {
          kind: 'update_refused',
          version: offer.version,
          reason: download.reason,
        });
        return;
      }
      this.adopt(offer.version, 'auto-update', true);
    } finally {
      this.updating = false;
    }
  }

  private async devUpdate(downloadUrl: string, checksum: string): Promise<CommandOutcome> {
    const saved = this.saved;
    if (!saved) return { status: 'failed', error: 'agent is not enrolled' };
    if (this.updating) return { status: 'failed', error: 'an update is already in progress' };
    this.updating = true;
    try {
      const download = await downloadVerified(
        this.opts.http,
        downloadUrl,
        checksum,
        saved.authToken,
        this.abort?.signal,
      );
      if (!download.ok) {
        this.opts.counters.updateRefusals++;
        this.log('error', 'updater', `dev_update refused: ${download.message}; keeping ${this.version}`, {
          reason: download.reason,
          expectedChecksum: checksum,
          actualChecksum: download.actual ?? null,
        });
        void this.flushDiagnostics();
        return { status: 'failed', error: download.message };
      }
      // The payload names no version: the build says which one it is (see versionOfDownload).
      const version = download.version ?? `${this.version}-dev.${download.checksum.slice(0, 8)}`;
      return {
        status: 'completed',
        result: { version, checksum: download.checksum, autoUpdate: false },
        after: () => this.adopt(version, 'dev_update', false),
      };
    } finally {
      this.updating = false;
    }
  }

  private adopt(version: string, how: 'auto-update' | 'dev_update', autoUpdate: boolean): void {
    const from = this.version;
    this.version = version;
    if (this.saved) {
      this.saved.agentVersion = version;
      // dev_update switches auto-update off on this agent (spec 3); an auto-update keeps the setting.
      if (!autoUpdate) this.saved.autoUpdate = false;
      this.persist();
    }
    this.opts.counters.updates++;
    this.log('info', 'updater', `updated from ${from} to ${version} (${how}); restarting`, {
      from,
      to: version,
    });
    this.opts.onEvent?.(this, { kind: 'updated', from, to: version, how });
    this.restart();
  }

  private uninstall(removeConfig: boolean): void {
    this.opts.credentials.set(this.index, { state: 'uninstalled', agent: removeConfig ? null : this.saved });
    if (removeConfig) this.saved = null;
    this.opts.counters.uninstalls++;
    this.halt('stopped', 'uninstalled by the server (self_uninstall)');
  }

  // ----------------------------------------------------------------------------------------- logs and events

  log(
    level: DiagnosticLog['level'],
    component: string,
    message: string,
    fields: Record<string, unknown> = {},
  ): void {
    this.pushLogs([
      { timestamp: new Date().toISOString(), level, component, message, fields, agentVersion: this.version },
    ]);
  }

  private pushLogs(lines: DiagnosticLog[]): void {
    this.diagnostics.push(...lines);
    // A long outage must not grow the buffer without bound: the oldest lines go first.
    if (this.diagnostics.length > MAX_BUFFERED_LOGS)
      this.diagnostics.splice(0, this.diagnostics.length - MAX_BUFFERED_LOGS);
  }

  private queueEvent(event: DeviceEvent): void {
    this.pendingEvents.push(event);
    if (this.pendingEvents.length > MAX_BUFFERED_EVENTS)
      this.pendingEvents.splice(0, this.pendingEvents.length - MAX_BUFFERED_EVENTS);
  }

  /** Sends buffered diagnostic lines, at most 500 per request (spec 2). Kept for later on a transient failure. */
  async flushDiagnostics(): Promise<void> {
    if (this.flushingLogs || !this.saved) return;
    this.flushingLogs = true;
    try {
      while (this.diagnostics.length > 0 && this.abort) {
        const batch = this.diagnostics.slice(0, MAX_LOGS_PER_REQUEST);
        const answer = await this.agentRequest('POST', '/logs', { logs: batch }, this.abort.signal);
        if (answer.status === 200 || answer.status === 201) {
          this.diagnostics.splice(0, batch.length);
          this.opts.counters.logsSent += batch.length;
        } else if (answer.status === 400 || answer.status === 413) {
          // The server will never take these lines; keeping them would block every later flush.
          this.diagnostics.splice(0, batch.length);
          this.opts.counters.errors++;
        } else break;
      }
    } catch {
      if (this.abort) this.opts.counters.errors++;
    } finally {
      this.flushingLogs = false;
    }
  }

  async flushEvents(): Promise<void> {
    if (this.flushingEvents || !this.saved) return;
    this.flushingEvents = true;
    try {
      while (this.pendingEvents.length > 0 && this.abort) {
        const batch = this.pendingEvents.slice(0, EVENTS_PER_REQUEST);
        const answer = await this.agentRequest('PUT', '/eventlogs', { events: batch }, this.abort.signal);
        if (answer.status === 200 || answer.status === 201) {
          this.pendingEvents.splice(0, batch.length);
          this.opts.counters.eventsSent += batch.length;
        } else if (answer.status === 400 || answer.status === 413) {
          this.pendingEvents.splice(0, batch.length);
          this.opts.counters.errors++;
        } else break;
      }
    } catch {
      if (this.abort) this.opts.counters.errors++;
    } finally {
      this.flushingEvents = false;
    }
  }

  // ------------------------------------------------------------------------------------------------- plumbing

  /** Work the agent does not wait for: a failure is logged (a scenario hook may throw), never unhandled. */
  private background(work: Promise<unknown>, component: string): void {
    work.catch((err: unknown) => {
      this.opts.counters.errors++;
      this.log('error', component, `unexpected failure: ${err instanceof Error ? err.message : String(err)}`);
    });
  }

  private agentRequest(
    method: string,
    path: string,
    body: unknown,
    signal?: AbortSignal,
  ): Promise<HttpAnswer> {
    const saved = this.saved;
    if (!saved) return Promise.reject(new TransportError('agent is not enrolled'));
    return this.opts.http.request(method, `/agents/${encodeURIComponent(saved.agentId)}${path}`, {
      body,
      token: saved.authToken,
      signal,
    });
  }

  private makeHandle(): AgentHandle {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the handle is a view onto this agent
    const agent = this;
    return {
      get index() {
        return agent.index;
      },
      get seed() {
        return agent.seed;
      },
      get identity() {
        return agent.identity;
      },
      get agentId() {
        return agent.agentId;
      },
      get deviceId() {
        return agent.deviceId;
      },
      get agentVersion() {
        return agent.version;
      },
      get eventLogs() {
        return agent.eventLogs;
      },
      rng: (purpose) => Rng.of(agent.seed, agent.index, purpose),
      log: (level, component, message, fields) => agent.log(level, component, message, fields),
      request: (method, path, body) => agent.agentRequest(method, path, body, agent.abort?.signal),
      devUpdate: (url, checksum) => agent.devUpdate(url, checksum),
      uninstall: (removeConfig) => agent.uninstall(removeConfig),
    };
  }
}
