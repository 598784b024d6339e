// Over 400 lines: SimulatedAgent is the one owner of an agent's state and lifecycle; every seam (enrollment,
// heartbeat, socket, commands, updates, outbox, routine) already lives in its own file beside it.
import { randomUUID } from 'node:crypto';
import { agentHandle, type AgentHandle } from './handle';
import { CommandRunner } from './command-runner';
import { DEFAULT_AGENT_VERSION, type AgentOptions, type AgentPhase, type AgentStatus } from './agent-options';
import { AgentSocket } from './agent-socket';
import { AgentUpdater, type UpdateHow } from './agent-updates';
import { errorMessage } from './answers';
import { enrollUntilDone, savedAgentOf } from './enroll';
import { EventLogStore } from './eventlog';
import { heartbeatBody, HeartbeatSchedule, readHeartbeatAnswer, type HeartbeatOutcome } from './heartbeat';
import { agentIdentity, type AgentIdentity } from './identity';
import { Machine } from './machine';
import { diagnosticsOutbox, eventsOutbox, type Outbox, type OutboxSender } from './outbox';
import { AgentRoutine } from './routine';
import { elevationOf, type AgentElevation } from './pam';
import type { DeviceEvent, DiagnosticLog } from './protocol';
import { Rng } from './random';
import type { SavedAgent } from './state';
import { TransportError, type HttpAnswer } from './transport';

// One simulated agent: a stable machine (identity + seeded state) speaking the public agent protocol of
// DESIGN §3. It enrolls (or reuses saved credentials), heartbeats with jitter, keeps its WebSocket open with
// reconnect and backoff, answers commands from the socket and from heartbeats, reports software, diagnostic logs
// and OS events in bursts, and updates itself when offered a newer build whose checksum verifies.
//
// Failure handling, like a real agent: anything transient (refused connection, 5xx, 429, a dropped socket) is
// retried with exponential backoff and jitter, so a fleet rides through a server restart; a 401 on the heartbeat
// means the server no longer knows these credentials (the device was removed), and the agent stops for good
// unless it was told to re-enroll.
//
// This class holds the agent's state and lifecycle; its parts live beside it: options and counters
// (agent-options.ts), enrollment (enroll.ts), the heartbeat body and schedule (heartbeat.ts), the socket
// (agent-socket.ts), commands (command-runner.ts), self-update (agent-updates.ts), buffered logs and events
// (outbox.ts) and the scenario-paced routine (routine.ts).

export {
  DEFAULT_AGENT_VERSION,
  newCounters,
  type AgentEvent,
  type AgentOptions,
  type AgentPhase,
  type AgentStatus,
  type FleetCounters,
} from './agent-options';

export class SimulatedAgent {
  readonly index: number;
  readonly seed: number;
  readonly identity: AgentIdentity;
  readonly machine: Machine;
  readonly eventLogs: EventLogStore;

  private saved: SavedAgent | null = null;
  /** This installation's id: kept with the credentials, new only for a machine that never enrolled here. */
  private installId: string = randomUUID();
  private version: string;
  private phaseValue: AgentPhase = 'idle';
  private reason: string | null = null;
  private abort: AbortController | null = null;
  private intervalMs: number;
  private readonly schedule = new HeartbeatSchedule();
  private heartbeatsSent = 0;
  private readonly commands: CommandRunner;
  private readonly socket: AgentSocket;
  private readonly updater: AgentUpdater;
  private readonly diagnostics: Outbox<DiagnosticLog>;
  private readonly events: Outbox<DeviceEvent>;
  private readonly routine: AgentRoutine;
  private readonly handle: AgentHandle;

  constructor(private readonly opts: AgentOptions) {
    this.index = opts.index;
    this.seed = opts.seed;
    this.identity = agentIdentity(opts.seed, opts.index, opts.domain);
    this.machine = new Machine(this.identity, opts.seed, opts.index, {
      metricVolatility: opts.scenario.metricVolatility,
    });
    this.eventLogs = new EventLogStore(this.identity, opts.seed, opts.index);
    this.version = opts.agentVersion ?? DEFAULT_AGENT_VERSION;
    this.intervalMs = (opts.heartbeatSeconds ?? 60) * 1000;
    this.handle = agentHandle(this, {
      log: (level, component, message, fields) => this.log(level, component, message, fields),
      request: (method, path, body) => this.agentRequest(method, path, body, this.abort?.signal),
      devUpdate: (url, checksum) => this.updater.devUpdate(url, checksum),
      uninstall: (removeConfig) => this.uninstall(removeConfig),
    });
    const common = {
      http: opts.http,
      counters: opts.counters,
      runSignal: () => this.abort?.signal ?? null,
      credentials: () => this.saved,
      version: () => this.version,
      log: this.log.bind(this),
    };
    this.socket = new AgentSocket({
      ...common,
      connectGate: opts.connectGate,
      heartbeatIntervalMs: () => this.intervalMs,
      wakeHeartbeat: () => this.wakeHeartbeat(),
      onCommand: (id, type, payload) =>
        this.background(this.commands.run(id, type, payload, 'socket'), 'commands'),
    });
    this.commands = new CommandRunner({
      counters: opts.counters,
      get scenarioCommands() {
        return opts.scenario.hooks?.commands;
      },
      handle: this.handle,
      runSignal: common.runSignal,
      log: common.log,
      sendOverSocket: (message) => this.socket.send(message),
      request: (method, path, body, signal) => this.agentRequest(method, path, body, signal),
    });
    this.updater = new AgentUpdater({
      ...common,
      flushDiagnostics: () => void this.flushDiagnostics(),
      onRefused: (version, reason) => this.opts.onEvent?.(this, { kind: 'update_refused', version, reason }),
      adopt: (version, how, autoUpdate) => this.adopt(version, how, autoUpdate),
    });
    const sender: OutboxSender = {
      runSignal: common.runSignal,
      enrolled: () => this.saved !== null,
      request: (method, path, body, signal) => this.agentRequest(method, path, body, signal),
      onError: () => void opts.counters.errors++,
    };
    this.diagnostics = diagnosticsOutbox(sender, opts.counters);
    this.events = eventsOutbox(sender, opts.counters);
    this.routine = new AgentRoutine({
      ...common,
      scenario: opts.scenario,
      rng: Rng.of(opts.seed, opts.index, 'scenario', opts.scenario.name),
      machine: this.machine,
      identity: this.identity,
      eventLogs: this.eventLogs,
      handle: this.handle,
      diagnostics: this.diagnostics,
      events: this.events,
      socket: this.socket,
      persist: () => this.persist(),
      heartbeatsSent: () => this.heartbeatsSent,
      request: sender.request,
    });
  }

  // ------------------------------------------------------------------------------------------------ lifecycle

  get status(): AgentStatus {
    return {
      index: this.index,
      hostname: this.identity.hostname,
      phase: this.phaseValue,
      reason: this.reason,
      enrolled: this.saved !== null,
      connected: this.socket.connected,
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
    return this.socket.connected;
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
    await this.socket.close(1001, 'agent stopping');
  }

  /** Ends the agent's activity with a final phase (uninstalled, refused, failed). */
  private halt(phase: 'stopped' | 'failed', reason: string): void {
    this.phaseValue = phase;
    this.reason = reason;
    const abort = this.abort;
    this.abort = null;
    abort?.abort();
    this.elevation.reset();
    void this.socket.close(1000, reason.slice(0, 100));
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
      if (slot.agent.installId) this.installId = slot.agent.installId;
    }
    while (!signal.aborted) {
      let fresh = false;
      if (!this.saved) {
        if (!(await this.enroll(signal))) return;
        fresh = true;
      }
      if (signal.aborted) return;
      this.phaseValue = 'running';
      this.socket.connect();
      this.background(this.routine.afterStart(fresh, signal), 'start-up');
      const end = await this.heartbeatLoop(signal, fresh);
      if (end !== 'reenroll') return;
    }
  }

  // ----------------------------------------------------------------------------------------------- enrollment

  private async enroll(signal: AbortSignal): Promise<boolean> {
    this.phaseValue = 'enrolling';
    const { opts } = this;
    const outcome = await enrollUntilDone({
      attempt: {
        http: opts.http,
        identity: this.identity,
        installId: this.installId,
        enrollmentKey: opts.enrollmentKey,
        enrollmentSecret: opts.enrollmentSecret,
        agentVersion: () => this.version,
        signal,
      },
      startGate: opts.startGate,
      onEnrolled: (r) => {
        this.saved = savedAgentOf(r, this.version, this.installId);
        if (!opts.heartbeatSeconds && r.heartbeatIntervalSeconds)
          this.intervalMs = r.heartbeatIntervalSeconds * 1000;
        this.persist();
        opts.counters.enrollments++;
        opts.onEvent?.(this, { kind: 'enrolled', deviceId: r.deviceId });
      },
      onError: () => void opts.counters.errors++,
      onDeferred: () => void opts.counters.enrollDeferrals++,
    });
    if (outcome?.kind === 'fatal' && !signal.aborted) this.halt('failed', outcome.reason);
    return outcome?.kind === 'ok';
  }

  private persist(): void {
    if (this.saved) this.opts.credentials.set(this.index, { state: 'active', agent: this.saved });
  }

  // ------------------------------------------------------------------------------------------------ heartbeat

  private heartbeatLoop(signal: AbortSignal, fresh: boolean): Promise<'aborted' | 'reenroll' | 'halted'> {
    return this.schedule.run(signal, {
      fresh,
      spreadFirst: this.opts.spreadFirstHeartbeat !== false,
      intervalMs: () => this.intervalMs,
      beat: (s) => this.heartbeat(s),
    });
  }

  private wakeHeartbeat(): void {
    this.schedule.wake();
  }

  private async heartbeat(signal: AbortSignal): Promise<HeartbeatOutcome> {
    const { counters } = this.opts;
    let answer: HttpAnswer;
    try {
      answer = await this.agentRequest(
        'POST',
        '/heartbeat',
        heartbeatBody(this.machine, this.identity, this.version),
        signal,
      );
    } catch (err) {
      if (signal.aborted) return { kind: 'retry' };
      counters.errors++;
      this.log('warn', 'heartbeat', `heartbeat failed: ${errorMessage(err)}`);
      return { kind: 'retry' };
    }
    const read = readHeartbeatAnswer(answer);
    if (read.kind === 'credentials_refused') return this.credentialsRefused(read.why);
    if (read.kind === 'failed') {
      counters.errors++;
      this.log('warn', 'heartbeat', `heartbeat answered HTTP ${answer.status}`, { error: read.error });
      return read.retry;
    }
    counters.heartbeats++;
    this.heartbeatsSent++;
    if (read.kind === 'unreadable') {
      counters.errors++;
      this.log('error', 'heartbeat', 'unreadable heartbeat response', { issue: read.issue });
      return { kind: 'ok' };
    }
    const { response } = read;
    if (!this.opts.heartbeatSeconds && response.heartbeatIntervalSeconds)
      this.intervalMs = response.heartbeatIntervalSeconds * 1000;
    for (const command of response.commands)
      this.background(this.commands.run(command.id, command.type, command.payload ?? {}, 'http'), 'commands');
    if (response.upgradeTo) this.background(this.updater.consider(response.upgradeTo), 'updater');
    await this.routine.afterHeartbeat();
    return { kind: 'ok' };
  }

  private credentialsRefused(why: string): HeartbeatOutcome {
    if (this.opts.reenrollOnUnauthorized && this.opts.enrollmentKey) {
      this.saved = null;
      this.opts.credentials.set(this.index, null);
      void this.socket.close(1000, 'credentials refused; enrolling again');
      return { kind: 'reenroll' };
    }
    this.opts.credentials.set(this.index, { state: 'revoked', agent: null });
    this.halt('stopped', `the server refused the agent's credentials (${why})`);
    return { kind: 'halted' };
  }

  // -------------------------------------------------------------------------------------------------- updates

  private adopt(version: string, how: UpdateHow, autoUpdate: boolean): void {
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
    // "Restart" under the new version: reconnect at once and beat immediately.
    this.socket.restart();
    this.wakeHeartbeat();
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
    this.diagnostics.push({
      timestamp: new Date().toISOString(),
      level,
      component,
      message,
      fields,
      agentVersion: this.version,
    });
  }

  /** Sends buffered diagnostic lines, at most 500 per request (spec 2). Kept for later on a transient failure. */
  flushDiagnostics(): Promise<void> {
    return this.diagnostics.flush();
  }

  flushEvents(): Promise<void> {
    return this.events.flush();
  }

  // ------------------------------------------------------------------------------------------------- plumbing

  /** Work the agent does not wait for: a failure is logged (a scenario hook may throw), never unhandled. */
  private background(work: Promise<unknown>, component: string): void {
    work.catch((err: unknown) => {
      this.opts.counters.errors++;
      this.log('error', component, `unexpected failure: ${errorMessage(err)}`);
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
}
