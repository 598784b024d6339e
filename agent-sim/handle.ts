import type { EventLogStore } from './eventlog';
import type { AgentIdentity } from './identity';
import type { CommandResult, DiagnosticLog } from './protocol';
import { Rng } from './random';
import type { HttpAnswer } from './transport';

// What command handlers and scenario hooks may use of their agent, and the shapes they answer with. A leaf
// module: the built-in commands, the PAM behaviour and the scenarios all build on it without importing each other.

/** What a handler may use of its agent. */
export interface AgentHandle {
  readonly index: number;
  readonly seed: number;
  readonly identity: AgentIdentity;
  readonly agentId: string | null;
  readonly deviceId: string | null;
  readonly agentVersion: string;
  readonly eventLogs: EventLogStore;
  /** A seeded generator for this agent and purpose (scenario hooks use it to stay deterministic). */
  rng(purpose: string): Rng;
  /** Adds a line to the agent's diagnostic log (sent with the next flush; errors are sent at once). */
  log(
    level: DiagnosticLog['level'],
    component: string,
    message: string,
    fields?: Record<string, unknown>,
  ): void;
  /** An authenticated call to this agent's own endpoints: `request('POST', '/logs', body)` -> /agents/:id/logs. */
  request(method: string, path: string, body?: unknown): Promise<HttpAnswer>;
  /** `dev_update`: download, verify, then (after the result is sent) switch and turn auto-update off. */
  devUpdate(downloadUrl: string, checksum: string): Promise<CommandOutcome>;
  /** `self_uninstall`: stop for good, forgetting the credentials when asked. */
  uninstall(removeConfig: boolean): void;
}

/** The parts of an agent its handle shows; read live, so a handle always sees the agent as it is now. */
export interface HandleSource {
  readonly index: number;
  readonly seed: number;
  readonly identity: AgentIdentity;
  readonly agentId: string | null;
  readonly deviceId: string | null;
  readonly agentVersion: string;
  readonly eventLogs: EventLogStore;
}

export type HandleActions = Pick<AgentHandle, 'log' | 'request' | 'devUpdate' | 'uninstall'>;

export function agentHandle(agent: HandleSource, actions: HandleActions): AgentHandle {
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
      return agent.agentVersion;
    },
    get eventLogs() {
      return agent.eventLogs;
    },
    rng: (purpose) => Rng.of(agent.seed, agent.index, purpose),
    ...actions,
  };
}

export interface CommandOutcome extends CommandResult {
  /** Runs after the result was delivered (an uninstall must report before it stops). */
  after?: () => void;
}

export type CommandHandler = (
  payload: Record<string, unknown>,
  agent: AgentHandle,
) => CommandOutcome | Promise<CommandOutcome>;

export interface ScenarioHooks {
  /** Command types this scenario adds or overrides (both over the socket and claimed by heartbeat). */
  commands?: Record<string, CommandHandler>;
  /** Once, after the agent enrolled (or came back with saved credentials). */
  onStart?(agent: AgentHandle): void | Promise<void>;
  /** After every successful heartbeat. */
  onHeartbeat?(agent: AgentHandle): void | Promise<void>;
}
