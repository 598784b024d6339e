import type { AgentHandle } from './handle';
import type { AgentLog, FleetCounters } from './agent-options';
import type { AgentSocket } from './agent-socket';
import { EventLogStore } from './eventlog';
import type { AgentIdentity } from './identity';
import type { Machine } from './machine';
import type { Outbox } from './outbox';
import type { DeviceEvent, DiagnosticLog } from './protocol';
import type { Rng } from './random';
import type { Scenario } from './scenarios';
import type { SavedAgent } from './state';
import type { HttpAnswer } from './transport';

// What an agent does besides beating, paced by its scenario: software once per enrollment, a first look at
// recent OS events, diagnostic chatter, bursts of OS events, the occasional dropped link, the scenario's hooks.

export interface RoutineHost {
  readonly scenario: Scenario;
  /** Seeded per agent and scenario, so a fleet's routine is the same on every run. */
  readonly rng: Rng;
  readonly machine: Machine;
  readonly identity: AgentIdentity;
  readonly eventLogs: EventLogStore;
  readonly handle: AgentHandle;
  readonly counters: FleetCounters;
  readonly diagnostics: Outbox<DiagnosticLog>;
  readonly events: Outbox<DeviceEvent>;
  readonly socket: AgentSocket;
  runSignal(): AbortSignal | null;
  credentials(): SavedAgent | null;
  persist(): void;
  version(): string;
  heartbeatsSent(): number;
  log: AgentLog;
  request(method: string, path: string, body: unknown, signal: AbortSignal): Promise<HttpAnswer>;
}

export class AgentRoutine {
  private reportingSoftware = false;

  constructor(private readonly host: RoutineHost) {}

  /** After (re)start: software once per enrollment, a first look at recent OS events, scenario hook. */
  async afterStart(fresh: boolean, signal: AbortSignal): Promise<void> {
    const { host } = this;
    if (!host.credentials()) return;
    host.log('info', 'service', `agent ${host.version()} started`, {
      hostname: host.identity.hostname,
      os: `${host.identity.osVersion} (${host.identity.osBuild})`,
      enrolled: fresh ? 'now' : 'earlier',
    });
    await this.reportSoftware(signal);
    const backfill = host.scenario.events.backfill;
    if (fresh && backfill > 0) {
      for (const { log, entry, template } of host.eventLogs.recentNotable(backfill))
        host.events.push(EventLogStore.toDeviceEvent(entry, template, log));
      void host.events.flush();
    }
    await host.scenario.hooks?.onStart?.(host.handle);
  }

  /** Routine work between heartbeats, paced by the scenario. */
  async afterHeartbeat(): Promise<void> {
    const { host } = this;
    const { scenario, rng } = host;
    const beats = host.heartbeatsSent();
    const chatter = rng.int(
      scenario.diagnostics.chatterPerHeartbeat[0],
      scenario.diagnostics.chatterPerHeartbeat[1],
    );
    if (chatter > 0) host.diagnostics.push(...host.machine.chatter(chatter, host.version()));
    if (beats % scenario.diagnostics.flushEveryHeartbeats === 0) void host.diagnostics.flush();
    const signal = host.runSignal();
    if (beats % 10 === 0 && signal) void this.reportSoftware(signal);
    if (beats % scenario.events.everyHeartbeats === 0) {
      const count = rng.int(scenario.events.perBurst[0], scenario.events.perBurst[1]);
      for (const { log, entry, template } of host.eventLogs.append(count)) {
        if (entry.level !== 'verbose') host.events.push(EventLogStore.toDeviceEvent(entry, template, log));
      }
      void host.events.flush();
    }
    // Only when (not what) the network fails is random: a simulated dropped link.
    if (
      scenario.network.socketDropRate > 0 &&
      host.socket.attached &&
      Math.random() < scenario.network.socketDropRate
    ) {
      host.log('warn', 'websocket', 'connection reset by the network');
      host.socket.drop();
    }
    try {
      await scenario.hooks?.onHeartbeat?.(host.handle);
    } catch (err) {
      host.log('error', 'scenario', `scenario hook failed: ${String(err)}`);
    }
  }

  /** The installed software, once per enrollment (retried on later heartbeats until the server took it). */
  private async reportSoftware(signal: AbortSignal): Promise<void> {
    const { host } = this;
    const saved = host.credentials();
    if (!saved || saved.softwareReported || this.reportingSoftware) return;
    this.reportingSoftware = true;
    try {
      const answer = await host.request('PUT', '/software', { software: host.machine.software() }, signal);
      if (answer.status === 200 || answer.status === 201) {
        saved.softwareReported = true;
        host.persist();
      } else host.log('warn', 'inventory', `software report refused: HTTP ${answer.status}`);
    } catch {
      if (!signal.aborted) host.counters.errors++;
    } finally {
      this.reportingSoftware = false;
    }
  }
}
