import { z } from 'zod';
import { ARCHITECTURES, DEVICE_ROLES, OS_TYPES } from '../../contract/devices';

// Request bodies of the agent protocol (DESIGN §3; spec 2 for logs). Objects strip unknown keys: an agent newer
// than the server may send fields we do not know, and that must not break its heartbeat.

const text = (max: number) => z.string().trim().max(max);
const optionalText = (max: number) => text(max).nullish();
const percent = z.number().min(0).max(100).nullish();
const count = z
  .number()
  .int()
  .min(0)
  .max(2 ** 40)
  .nullish();
// Stored in UTC: log queries compare and sort timestamps as text, which only works when every row has one form.
const isoTimestamp = z.iso
  .datetime({ offset: true, message: 'must be an ISO 8601 timestamp' })
  .transform((v) => new Date(v).toISOString());

export const agentIdParams = z.object({ agentId: z.string().min(1).max(100) });
export const commandParams = z.object({
  agentId: z.string().min(1).max(100),
  commandId: z.string().min(1).max(100),
});

export const enrollBody = z.object({
  enrollmentKey: z.string().min(1, 'enrollmentKey is required').max(200),
  // The agent's own stable id for this installation (DESIGN §3): enrolling again with the same key and install id
  // returns the same device with a new credential instead of a second device.
  installId: z
    .string()
    .regex(/^[\x21-\x7e]{8,128}$/, 'installId must be 8 to 128 printable characters without spaces')
    .optional(),
  enrollmentSecret: z.string().max(500).optional(),
  hostname: text(255).min(1, 'hostname is required'),
  osType: z.enum(OS_TYPES),
  osVersion: text(255).min(1, 'osVersion is required'),
  architecture: z.enum(ARCHITECTURES),
  agentVersion: text(50).min(1, 'agentVersion is required'),
  displayName: optionalText(255),
  deviceRole: z.enum(DEVICE_ROLES).optional(),
  osBuild: optionalText(255),
  hardware: z
    .object({
      manufacturer: optionalText(255),
      model: optionalText(255),
      serialNumber: optionalText(255),
      cpuModel: optionalText(255),
      cpuCores: z.number().int().min(0).max(100_000).nullish(),
      ramTotalMb: count,
      diskTotalGb: count,
      gpuModel: optionalText(255),
    })
    .optional(),
  network: z
    .object({
      ipAddress: optionalText(64),
      macAddress: optionalText(64),
    })
    .optional(),
});
export type EnrollBody = z.infer<typeof enrollBody>;

export const heartbeatBody = z.object({
  status: z.enum(['ok', 'warning', 'error']),
  agentVersion: text(50).min(1, 'agentVersion is required'),
  platform: z.string().max(50).optional(),
  arch: z.string().max(50).optional(),
  metrics: z
    .object({
      cpuPercent: percent,
      ramPercent: percent,
      diskPercent: percent,
    })
    .optional(),
  uptimeSeconds: count,
  lastUser: optionalText(255),
  rebootRequired: z.boolean().nullish(),
  managementPosture: z
    .array(z.object({ product: text(100).min(1), status: text(50).min(1) }))
    .max(100)
    .nullish(),
});
export type HeartbeatBody = z.infer<typeof heartbeatBody>;

/** Our extension: the agent's installed software, replaced as a whole (saved filters on software.installed). */
export const MAX_SOFTWARE = 5000;
export const softwareBody = z.object({
  software: z
    .array(
      z.object({
        name: text(255).min(1, 'name is required'),
        version: optionalText(100),
        publisher: optionalText(255),
      }),
    )
    .max(MAX_SOFTWARE, `at most ${MAX_SOFTWARE} software entries per report`),
});
export type SoftwareBody = z.infer<typeof softwareBody>;

export const commandResultBody = z.object({
  status: z.enum(['completed', 'failed', 'timeout']),
  result: z.unknown().optional(),
  error: z.string().max(10_000).optional(),
});

/** Spec 2: at most 500 diagnostic log entries per request. */
export const MAX_DIAGNOSTIC_LOGS = 500;
/** Event log submissions: spec 2 names no cap; 1000 keeps one request well inside the body limit. */
export const MAX_EVENT_LOGS = 1000;

const jsonObject = z.record(z.string(), z.unknown());

export const diagnosticLogsBody = z.object({
  logs: z
    .array(
      z.object({
        timestamp: isoTimestamp,
        level: z.enum(['debug', 'info', 'warn', 'error']),
        component: z.string().min(1, 'component is required').max(100),
        message: z.string().max(10_000),
        fields: jsonObject.optional(),
        agentVersion: z.string().max(50).optional(),
      }),
    )
    .max(MAX_DIAGNOSTIC_LOGS, `at most ${MAX_DIAGNOSTIC_LOGS} log entries per request`),
});
export type DiagnosticLogsBody = z.infer<typeof diagnosticLogsBody>;

export const eventLogsBody = z.object({
  events: z
    .array(
      z.object({
        timestamp: isoTimestamp,
        level: z.enum(['info', 'warning', 'error', 'critical']),
        category: z.enum(['security', 'hardware', 'application', 'system']),
        source: z.string().min(1, 'source is required').max(255),
        // OS event ids are numbers on Windows and strings elsewhere; both are stored as text.
        eventId: z
          .union([z.string().min(1).max(100), z.number().int()])
          .nullish()
          .transform((v) => (v === null || v === undefined ? null : String(v))),
        message: z.string().max(10_000),
        details: jsonObject.optional(),
      }),
    )
    .max(MAX_EVENT_LOGS, `at most ${MAX_EVENT_LOGS} events per request`),
});
export type EventLogsBody = z.infer<typeof eventLogsBody>;
