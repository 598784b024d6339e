import { z } from 'zod';
import { NEGATABLE_CRITERIA, PAM_POLICY_LIMITS as LIMITS, type PamTimeWindow } from '../../../contract';
import { HH_MM, isValidTimeZone } from './time-window';

// Request bodies and queries of /pam/rules, /pam/signer-groups and /pam/config (spec 2 "PAM rule", "Signer group",
// "PAM organization configuration"). Rule bodies are strict: a misspelt criterion silently dropped would widen
// an auto-approve rule, so an unknown key is a 400. In updates `null` (or an empty string) clears a criterion
// and an absent key leaves it as it is; the merged rule is then checked as a whole (validate.ts).

export const idParams = z.object({ id: z.uuid('Invalid PAM id') });

const orgId = z.uuid('must be a UUID').optional();
export const orgQuery = z.object({ orgId });

/** Optional text; '' and whitespace clear it (null), like an explicit null. */
const text = (max: number, trim = true) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .nullish()
    .transform((v) => {
      if (v === undefined || v === null) return v;
      const value = trim ? v.trim() : v;
      return value.trim() === '' ? null : value;
    });

const sha256Hex = z
  .string()
  .nullish()
  .transform((v, ctx) => {
    if (v === undefined || v === null) return v;
    const value = v.trim();
    if (value === '') return null;
    if (!/^[0-9a-fA-F]{64}$/.test(value)) {
      ctx.addIssue({ code: 'custom', message: 'must be a SHA-256 hex digest (64 hex characters)' });
      return z.NEVER;
    }
    return value.toLowerCase();
  });

const uniqueList = <T>(list: readonly T[]) => new Set(list).size === list.length;

const timeOfDay = z.string().regex(HH_MM, 'must be HH:MM (24 hour)');
export const timeWindowSchema = z
  .strictObject({
    start: timeOfDay,
    end: timeOfDay,
    days: z
      .array(z.number().int().min(0, 'must be 0-6').max(6, 'must be 0-6'))
      .min(1, 'must list at least one day')
      .max(7)
      .refine(uniqueList, 'must not repeat a day')
      .nullish(),
    timezone: z.string().trim().min(1).max(64).refine(isValidTimeZone, 'must be an IANA time zone').nullish(),
  })
  .transform((w): PamTimeWindow => {
    const window: PamTimeWindow = { start: w.start, end: w.end };
    if (w.days) window.days = [...w.days].sort((a, b) => a - b);
    if (w.timezone) window.timezone = w.timezone;
    return window;
  });

export const VERDICTS = ['auto_approve', 'auto_deny', 'require_approval', 'ignore'] as const;
export const FLOW_TYPES = ['uac_intercept', 'tech_jit_admin', 'ai_tool_action'] as const;

/** The criteria of a rule, shared by create, update and preview. */
const criteria = {
  siteId: z.uuid('must be a UUID').nullish(),
  matchSigner: text(255),
  matchSignerGroupId: z
    .union([z.literal(''), z.uuid('must be a UUID')])
    .nullish()
    .transform((v) => (v === '' ? null : v)),
  matchSignerThumbprint: sha256Hex,
  matchHash: sha256Hex,
  matchPathGlob: text(1024),
  matchParentImage: text(1024),
  // A substring: leading and trailing spaces are part of what is searched for.
  matchCommandLine: text(2048, false),
  matchUser: text(255),
  matchAdGroup: text(255),
  matchToolName: text(100),
  matchRiskTier: z.number().int().min(0, 'must be 0-4').max(4, 'must be 0-4').nullish(),
  matchNegate: z
    .array(z.enum(NEGATABLE_CRITERIA))
    .max(NEGATABLE_CRITERIA.length)
    .refine(uniqueList, 'must not repeat a criterion')
    .nullish(),
  timeWindow: timeWindowSchema.nullish(),
};

const name = z
  .string({ error: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(LIMITS.name, `must be at most ${LIMITS.name} characters`);
const verdict = z.enum(VERDICTS, `must be one of ${VERDICTS.join(', ')}`);
const priority = z
  .number()
  .int('must be an integer')
  .min(-LIMITS.priority, `must be at least -${LIMITS.priority}`)
  .max(LIMITS.priority, `must be at most ${LIMITS.priority}`);
const approvalDurationMinutes = z
  .number()
  .int('must be an integer')
  .min(1, `must be 1-${LIMITS.grantMinutes}`)
  .max(LIMITS.grantMinutes, `must be 1-${LIMITS.grantMinutes}`)
  .nullish();

export const createRuleBody = z.strictObject({
  orgId,
  name,
  verdict,
  priority: priority.default(100),
  enabled: z.boolean().default(true),
  approvalDurationMinutes,
  ...criteria,
});
export type CreateRuleBody = z.infer<typeof createRuleBody>;

export const updateRuleBody = z.strictObject({
  name: name.optional(),
  verdict: verdict.optional(),
  priority: priority.optional(),
  enabled: z.boolean().optional(),
  approvalDurationMinutes,
  reapprove: z.boolean().optional(),
  ...criteria,
});
export type UpdateRuleBody = z.infer<typeof updateRuleBody>;

/**
 * The editor posts its whole form: name, priority and the like are accepted and ignored; a verdict, when sent,
 * is checked like on create and decides whether a user-only rule could match tool actions (`ignore` cannot).
 */
export const previewBody = z.strictObject({
  orgId,
  windowDays: z.number().int().min(1, 'must be 1-90').max(90, 'must be 1-90').default(30),
  flowType: z.enum(FLOW_TYPES).optional(),
  name: z.string().max(255).optional(),
  verdict: verdict.optional(),
  priority: z.number().optional(),
  enabled: z.boolean().optional(),
  approvalDurationMinutes,
  ...criteria,
});
export type PreviewBody = z.infer<typeof previewBody>;

/** Trimmed, blank entries dropped, de-duplicated case-insensitively keeping the first spelling. */
const signers = z
  .array(z.string().trim().max(255, 'must be at most 255 characters'), {
    error: 'must be an array of strings',
  })
  .max(LIMITS.signers, `must hold at most ${LIMITS.signers} signers`)
  .transform((list) => {
    const seen = new Set<string>();
    const out: string[] = [];
    for (const signer of list) {
      const key = signer.toLowerCase();
      if (signer === '' || seen.has(key)) continue;
      seen.add(key);
      out.push(signer);
    }
    return out;
  });
const description = z
  .string()
  .max(LIMITS.description, `must be at most ${LIMITS.description} characters`)
  .nullish()
  .transform((v) => (v === undefined ? v : v === null || v.trim() === '' ? null : v.trim()));

export const createSignerGroupBody = z.strictObject({
  orgId,
  name,
  description,
  signers,
});
export const updateSignerGroupBody = z.strictObject({
  name: name.optional(),
  description,
  signers: signers.optional(),
});

export const putConfigBody = z.strictObject({
  orgId,
  defaultUnmatchedVerdict: z.enum(
    ['require_approval', 'auto_deny'],
    "must be 'require_approval' or 'auto_deny'",
  ),
  defaultApprovalDurationMinutes: z
    .number()
    .int('must be an integer')
    .min(1, `must be 1-${LIMITS.grantMinutes}`)
    .max(LIMITS.grantMinutes, `must be 1-${LIMITS.grantMinutes}`)
    .optional(),
  actuatorEnabled: z.boolean().optional(),
});
