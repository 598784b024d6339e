import { z } from 'zod';
import type { Architecture, OsType } from './identity';

// The agent protocol v1 (DESIGN §3) as the agent sees it. The simulator never imports server/, so the bodies
// are written out here; what the server sends is checked with zod before the agent acts on it (a trust
// boundary in both directions). Unknown fields are tolerated: a newer server may add some.

export const API_PREFIX = '/api/v1';

export interface EnrollRequest {
  enrollmentKey: string;
  /** The agent's stable id for this installation: a repeated enrollment returns the same device. */
  installId?: string;
  enrollmentSecret?: string;
  hostname: string;
  osType: OsType;
  osVersion: string;
  architecture: Architecture;
  agentVersion: string;
  displayName?: string;
  deviceRole?: string;
  osBuild?: string;
  hardware?: {
    manufacturer: string;
    model: string;
    serialNumber: string;
    cpuModel: string;
    cpuCores: number;
    ramTotalMb: number;
    diskTotalGb: number;
    gpuModel: string;
  };
  network?: { ipAddress: string; macAddress: string };
}

export const enrollResponse = z.object({
  agentId: z.string().min(1),
  deviceId: z.string().min(1),
  orgId: z.string().min(1),
  siteId: z.string().nullable().optional(),
  authToken: z.string().min(1),
  heartbeatIntervalSeconds: z.number().positive().optional(),
});
export type EnrollResponse = z.infer<typeof enrollResponse>;

export type PostureStatus = 'installed' | 'running' | 'stopped';

export interface HeartbeatRequest {
  status: 'ok' | 'warning' | 'error';
  agentVersion: string;
  platform?: string;
  arch?: string;
  metrics?: { cpuPercent: number; ramPercent: number; diskPercent: number };
  uptimeSeconds?: number;
  lastUser?: string | null;
  rebootRequired?: boolean;
  managementPosture?: Array<{ product: string; status: PostureStatus }>;
}

const commandPayload = z.record(z.string(), z.unknown()).catch({});

export const heartbeatResponse = z.object({
  commands: z
    .array(z.object({ id: z.string().min(1), type: z.string().min(1), payload: commandPayload.optional() }))
    .catch([])
    .default([]),
  upgradeTo: z
    .object({ version: z.string().min(1), downloadUrl: z.string().min(1), checksum: z.string().min(1) })
    .nullable()
    .optional(),
  heartbeatIntervalSeconds: z.number().positive().optional(),
});
export type HeartbeatResponse = z.infer<typeof heartbeatResponse>;
export type UpgradeOffer = NonNullable<HeartbeatResponse['upgradeTo']>;

export type CommandStatus = 'completed' | 'failed' | 'timeout';

export interface CommandResult {
  status: CommandStatus;
  result?: unknown;
  error?: string;
}

/** What arrives on the agent socket. */
export const serverMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('connected') }).loose(),
  z
    .object({
      type: z.literal('command'),
      id: z.string().min(1),
      commandType: z.string().min(1),
      payload: commandPayload.optional(),
    })
    .loose(),
  z.object({ type: z.literal('ping') }).loose(),
]);
export type ServerMessage = z.infer<typeof serverMessage>;

export interface CommandResultMessage {
  type: 'command_result';
  commandId: string;
  status: CommandStatus;
  result?: unknown;
  error?: string;
}

export interface DiagnosticLog {
  timestamp: string;
  level: 'debug' | 'info' | 'warn' | 'error';
  component: string;
  message: string;
  fields?: Record<string, unknown>;
  agentVersion?: string;
}

export interface DeviceEvent {
  timestamp: string;
  level: 'info' | 'warning' | 'error' | 'critical';
  category: 'security' | 'hardware' | 'application' | 'system';
  source: string;
  eventId?: string;
  message: string;
  details?: Record<string, unknown>;
}

export interface SoftwareItem {
  name: string;
  version: string;
  publisher: string;
}

/**
 * Validates a command payload from the server; the first issue becomes the command's failure reason (a malformed
 * payload fails the command, it never throws).
 */
export function parsePayload<T>(
  schema: z.ZodType<T>,
  payload: unknown,
): { ok: true; value: T } | { ok: false; error: string } {
  const parsed = schema.safeParse(payload ?? {});
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  return {
    ok: false,
    error: `Invalid payload: ${issue ? `${issue.path.join('.') || 'payload'}: ${issue.message}` : 'unreadable'}`,
  };
}

/**
 * `POST /agents/:id/elevation-requests` (spec 2 Privileged access; the fields after `observed_at` are the
 * issue-5 extensions): what the agent saw when something asked for administrator rights. snake_case as fixed.
 */
export interface ElevationRequestBody {
  subject_username?: string;
  target_executable_path?: string;
  /** sha256 hex. */
  target_executable_hash?: string;
  target_executable_signer?: string;
  /** sha256 hex. */
  target_signer_thumbprint?: string;
  pid?: number;
  parent_image?: string;
  command_line?: string;
  /** ISO 8601. */
  observed_at?: string;
  flow_type?: 'uac_intercept' | 'tech_jit_admin' | 'ai_tool_action';
  subject_ad_groups?: string[];
  /** Required for `ai_tool_action`. */
  tool_name?: string;
  risk_tier?: number;
  action_digest?: string;
  action_timeout_seconds?: number;
}

/** 201 `{id, status: pending|auto_approved|denied, expiresAt}`; 200 `{id: null, status: 'ignored'}`. */
export const elevationIngestResponse = z.object({
  id: z.string().min(1).nullable(),
  status: z.enum(['pending', 'auto_approved', 'denied', 'ignored']),
  expiresAt: z.string().nullable().optional(),
});
export type ElevationIngestResponse = z.infer<typeof elevationIngestResponse>;

/** Spec 2: at most 500 diagnostic entries per request. */
export const MAX_LOGS_PER_REQUEST = 500;

/** Download words (agent-version registry) for the device words the agent enrolls with. */
export function platformWord(osType: OsType): 'windows' | 'darwin' | 'linux' {
  return osType === 'macos' ? 'darwin' : osType;
}

export function archWord(architecture: Architecture): 'amd64' | 'arm64' {
  return architecture === 'x64' ? 'amd64' : 'arm64';
}
