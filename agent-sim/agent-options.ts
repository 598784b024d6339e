import type { AgentIdentity } from './identity';
import type { DiagnosticLog } from './protocol';
import type { Scenario } from './scenarios';
import type { CredentialStore } from './state';
import type { Gate } from './timing';
import type { AgentHttp } from './transport';

// What a simulated agent is configured with and what it reports: its options, its status, the events it raises
// and the counters a fleet shares.

export const DEFAULT_AGENT_VERSION = '1.0.0';

export type AgentPhase = 'idle' | 'enrolling' | 'running' | 'stopped' | 'failed';

/** Counters shared by every agent of a fleet. */
export interface FleetCounters {
  enrollments: number;
  /** Enrollment attempts the server paced with a 429 (honoured, not errors). */
  enrollDeferrals: number;
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
    enrollDeferrals: 0,
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
  /** The fleet's Windows domain (identity.ts DEFAULT_DOMAIN when absent). */
  domain?: string | undefined;
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
  onEvent?: AgentEventListener | undefined;
}

/** Told of each agent's milestones and failures; the agent is named by its identity. */
export type AgentEventListener = (agent: { readonly identity: AgentIdentity }, event: AgentEvent) => void;

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

/** A diagnostic line's writer, as the agent's parts use it. */
export type AgentLog = (
  level: DiagnosticLog['level'],
  component: string,
  message: string,
  fields?: Record<string, unknown>,
) => void;
