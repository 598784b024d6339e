import { z } from 'zod';
import { APPROVER_DEVICE_NAME_MAX, DECISION_REASON_MAX } from '../../contract/pam';
import { paginationQuery } from '../../http/pagination';
import { commaList } from '../devices';

// Request bodies and queries of the elevation-request routes (spec 2 Privileged access; DESIGN §3 and §5).
// "Invalid PAM id" (spec 2 errors, 400) is a malformed id in the path.

const text = (max: number) => z.string().trim().max(max);
const optionalText = (max: number) =>
  text(max)
    .nullish()
    .transform((v) => v || null);
const sha256Hex = (field: string) =>
  z
    .string()
    .trim()
    .regex(/^[0-9a-fA-F]{64}$/, `${field} must be a SHA-256 hex digest`)
    .transform((v) => v.toLowerCase());
const isoTimestamp = z.iso
  .datetime({ offset: true, message: 'must be an ISO 8601 timestamp' })
  .transform((v) => new Date(v).toISOString());

export const idParams = z.object({ id: z.uuid('Invalid PAM id') });
export const agentIdParams = z.object({ agentId: z.string().min(1).max(100) });

/** The agent's report (spec 2: snake_case). Unknown keys are dropped: a newer agent must not be refused. */
export const ingestBody = z
  .object({
    subject_username: optionalText(255),
    target_executable_path: optionalText(1024),
    target_executable_hash: sha256Hex('target_executable_hash').nullish(),
    target_executable_signer: optionalText(255),
    target_signer_thumbprint: sha256Hex('target_signer_thumbprint').nullish(),
    pid: z
      .number()
      .int()
      .min(0)
      .max(2 ** 32)
      .nullish(),
    parent_image: optionalText(1024),
    command_line: optionalText(8192),
    observed_at: isoTimestamp.nullish(),
    flow_type: z.enum(['uac_intercept', 'tech_jit_admin', 'ai_tool_action']).default('uac_intercept'),
    subject_ad_groups: z.array(text(255)).max(200).nullish(),
    tool_name: optionalText(100),
    risk_tier: z.number().int().min(0).max(4).nullish(),
    action_digest: optionalText(128),
    action_timeout_seconds: z.number().int().min(1).max(86_400).nullish(),
  })
  .superRefine((body, issues) => {
    if (body.flow_type === 'ai_tool_action' && !body.tool_name) {
      issues.addIssue({ code: 'custom', path: ['tool_name'], message: 'is required for ai_tool_action' });
    }
    if (body.flow_type !== 'ai_tool_action' && !body.target_executable_path && !body.command_line) {
      issues.addIssue({
        code: 'custom',
        path: ['target_executable_path'],
        message: 'target_executable_path or command_line is required',
      });
    }
  });
export type IngestBody = z.infer<typeof ingestBody>;

const STATUSES = [
  'pending',
  'approved',
  'auto_approved',
  'denied',
  'expired',
  'revoked',
  'actuating',
] as const;
const FLOW_TYPES = ['uac_intercept', 'tech_jit_admin', 'ai_tool_action'] as const;
const RISK_LEVELS = ['low', 'medium', 'high', 'critical'] as const;
export const ORDERS = ['risk', 'oldest', 'newest'] as const;

export const listQuery = z.object({
  ...paginationQuery(),
  status: z.enum(STATUSES).optional(),
  flowType: z.enum(FLOW_TYPES).optional(),
  deviceId: z.uuid('deviceId must be a UUID').optional(),
  siteId: z.uuid('siteId must be a UUID').optional(),
  orgId: z.uuid('orgId must be a UUID').optional(),
  from: isoTimestamp.optional(),
  to: isoTimestamp.optional(),
  // Gatehouse extensions for the inbox (spec 2 leaves them open):
  /** Comma-separated risk levels, e.g. `critical,high`. */
  riskLevel: commaList('riskLevel', RISK_LEVELS).optional(),
  /** The user the request is for contains this (case-insensitive). */
  user: text(255).min(1, 'user must not be empty').optional(),
  /** The device's hostname contains this (case-insensitive); `deviceId` names one device exactly. */
  device: text(255).min(1, 'device must not be empty').optional(),
  /** Contains (case-insensitive): executable path, signer, command line, AI tool, user or device hostname. */
  q: text(200).min(1, 'q must not be empty').optional(),
  /**
   * `risk`: critical first, the longest waiting first within a risk (the triage order, and the default when
   * `status=pending`); `oldest` and `newest` by request time (`newest` is the default otherwise).
   */
  order: z.enum(ORDERS).optional(),
});
export type ListQuery = z.infer<typeof listQuery>;

export const activeQuery = z.object({ orgId: z.uuid('orgId must be a UUID').optional() });

/** A WebAuthn JSON response: its inner shape is @simplewebauthn's to check, not ours. */
const webauthnResponse = z.looseObject({
  id: z.string().min(1).max(1024),
  rawId: z.string().min(1).max(1024),
  type: z.literal('public-key'),
  response: z.looseObject({}),
});

/** The most requests one bulk decision may name. */
export const BULK_MAX = 100;

export const respondBody = z.object({
  decision: z.enum(['approve', 'deny'], "decision must be 'approve' or 'deny'"),
  reason: text(DECISION_REASON_MAX).optional(),
  durationMinutes: z.number().int().min(1).max(1440).optional(),
  proof: webauthnResponse.optional(),
  reauthPassword: z.string().min(1).max(1024).optional(),
  reauthMfaCode: z.string().trim().min(1).max(64).optional(),
});
export type RespondBody = z.infer<typeof respondBody>;

/**
 * Gatehouse extension: one decision for several pending requests, each still decided on its own (its own
 * compare-and-swap, step-up, audit entry and push). `proof` is per request: an assertion is bound to one request.
 */
export const bulkRespondBody = z
  .object({
    decision: respondBody.shape.decision,
    reason: respondBody.shape.reason,
    durationMinutes: respondBody.shape.durationMinutes,
    reauthPassword: respondBody.shape.reauthPassword,
    reauthMfaCode: respondBody.shape.reauthMfaCode,
    items: z
      .array(z.object({ id: z.uuid('Invalid PAM id'), proof: webauthnResponse.optional() }))
      .min(1, 'items must list at least one request')
      .max(BULK_MAX, `items must list at most ${BULK_MAX} requests`)
      .refine(
        (items) => new Set(items.map((i) => i.id)).size === items.length,
        'items must not repeat an id',
      ),
  })
  .superRefine((body, issues) => {
    // One reason stands for every denial in the batch; the user and the audit trail read it for each.
    if (body.decision === 'deny' && !body.reason) {
      issues.addIssue({ code: 'custom', path: ['reason'], message: 'reason is required to deny' });
    }
  });
export type BulkRespondBody = z.infer<typeof bulkRespondBody>;

export const revokeBody = z.object({
  reason: z
    .string({ error: 'reason is required' })
    .trim()
    .min(1, 'reason is required')
    .max(DECISION_REASON_MAX, `reason must be at most ${DECISION_REASON_MAX} characters`),
});

export const actuateParams = z.object({ id: z.uuid('Invalid device id') });
export const actuateBody = z.object({
  elevationRequestId: z.uuid('Invalid PAM id'),
  /** How long the agent has to confirm before the enforcement is reported as failed. */
  timeoutMs: z
    .number()
    .int()
    .min(1000)
    .max(10 * 60_000)
    .default(60_000),
});

export const registerDeviceBody = z.object({
  name: text(APPROVER_DEVICE_NAME_MAX).min(1, 'name is required'),
  response: webauthnResponse,
  /** A new approver device raises what a session can prove: the password again (or an MFA code without one). */
  reauthPassword: z.string().min(1).max(1024).optional(),
  reauthMfaCode: z.string().trim().min(1).max(64).optional(),
});
