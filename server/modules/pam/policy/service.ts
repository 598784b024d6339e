import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type {
  NegatableCriterion,
  PamRule,
  PamRuleList,
  PamRuleListRow,
  PamRuleResponse,
  PamTimeWindow,
} from '../../../contract';
import type { AppContext } from '../../../context';
import type { AuthContext } from '../../../http/auth-context';
import { badRequest, notFound } from '../../../http/errors';
import { siteRestriction } from '../../../http/scope';
import { auditCaller } from '../../audit';
import { callerId, requireRuleSite, ruleInScope, RULE_NOT_FOUND, targetOrg } from './access';
import { EXECUTABLE_FIELDS, SUBJECT_FIELDS, TOOL_FIELDS } from './match';
import type { CreateRuleBody, UpdateRuleBody } from './schemas';
import { tierReachability } from './stale-tiers';
import { policyStore, toPamRule, type PamRuleRow, type RuleFields } from './store';
import { criteriaFromBody, validateRule } from './validate';

// /pam/rules (spec 2 "PAM rule", "Rule validation"): list in decision order, create, update (partial or
// `{reapprove: true}`), delete. Every write is validated as a whole rule and audited.

const CRITERIA_FIELDS = [
  ...EXECUTABLE_FIELDS,
  ...TOOL_FIELDS,
  ...SUBJECT_FIELDS,
  'matchNegate',
  'timeWindow',
] as const;

/** A rule for display: a stored JSON column that cannot be read shows as null instead of failing the request. */
export function readableRule(row: PamRuleRow): PamRule {
  try {
    return toPamRule(row);
  } catch {
    const rule = toPamRule({ ...row, match_negate: null, time_window: null });
    rule.matchNegate = parseOrNull<NegatableCriterion[]>(row.match_negate);
    rule.timeWindow = parseOrNull<PamTimeWindow>(row.time_window);
    return rule;
  }
}

function parseOrNull<T>(json: string | null): T | null {
  if (json === null) return null;
  try {
    return JSON.parse(json) as T;
  } catch {
    return null;
  }
}

export function toListRow(rule: PamRule): PamRuleListRow {
  const reach = tierReachability(rule);
  return { ...rule, matchRiskTierStale: reach.stale, matchRiskTierValidTiers: reach.validTiers };
}

/** The criteria a rule matches on, for audit details. */
const criteriaOf = (rule: PamRule): string[] =>
  CRITERIA_FIELDS.filter((f) => rule[f] !== null && rule[f] !== undefined);

function audit(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  action: 'pam.rule.create' | 'pam.rule.update' | 'pam.rule.delete',
  rule: PamRule,
  details: Record<string, unknown>,
) {
  auditCaller(ctx, req, auth, {
    orgId: rule.orgId,
    action,
    resourceType: 'pam_rule',
    resourceId: rule.id,
    resourceName: rule.name,
    details: {
      verdict: rule.verdict,
      siteId: rule.siteId,
      priority: rule.priority,
      enabled: rule.enabled,
      criteria: criteriaOf(rule),
      ...details,
    },
  });
}

export function listRules(ctx: AppContext, auth: AuthContext, orgId: string | undefined): PamRuleList {
  const org = targetOrg(ctx, auth, orgId);
  const rows = policyStore(ctx.db).rulesOfOrg(org, siteRestriction(ctx.db, auth));
  return { success: true, rules: rows.map((row) => toListRow(readableRule(row))) };
}

export function getRule(ctx: AppContext, auth: AuthContext, id: string): PamRuleResponse {
  return { success: true, ...readableRule(ruleInScope(ctx, auth, id, 'read')) };
}

export function createRule(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  body: CreateRuleBody,
): PamRuleResponse {
  const orgId = targetOrg(ctx, auth, body.orgId);
  const fields: RuleFields = {
    ...criteriaFromBody(body),
    siteId: body.siteId ?? null,
    name: body.name,
    verdict: body.verdict,
    suspendedVerdict: null,
    priority: body.priority,
    enabled: body.enabled,
    approvalDurationMinutes: body.approvalDurationMinutes ?? null,
    reapprovedAt: null,
    reapprovedByUserId: null,
  };
  requireRuleSite(ctx, auth, orgId, fields.siteId);
  validateRule(ctx.db, orgId, fields);
  const id = randomUUID();
  const store = policyStore(ctx.db);
  store.insertRule({ id, orgId, createdBy: callerId(auth), at: new Date().toISOString(), fields });
  const rule = toPamRule(store.ruleById(id)!);
  audit(ctx, req, auth, 'pam.rule.create', rule, {});
  return { success: true, ...rule };
}

/** The stored rule as the base of an update; an unreadable JSON column must be replaced by the update itself. */
function updateBase(row: PamRuleRow, body: UpdateRuleBody): PamRule {
  const rule = readableRule(row);
  const unreadable = (json: string | null, parsed: unknown) => json !== null && parsed === null;
  if (unreadable(row.match_negate, rule.matchNegate) && body.matchNegate === undefined)
    throw badRequest(
      'The stored matchNegate of this rule is unreadable; send matchNegate to replace it',
      'VALIDATION_ERROR',
    );
  if (unreadable(row.time_window, rule.timeWindow) && body.timeWindow === undefined)
    throw badRequest(
      'The stored timeWindow of this rule is unreadable; send timeWindow to replace it',
      'VALIDATION_ERROR',
    );
  return rule;
}

const UPDATABLE = [
  'siteId',
  'name',
  'priority',
  'enabled',
  'approvalDurationMinutes',
  ...CRITERIA_FIELDS,
] as const;

export function updateRule(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  id: string,
  body: UpdateRuleBody,
): PamRuleResponse {
  const sent = Object.entries(body).filter(([, v]) => v !== undefined);
  if (sent.length === 0) throw badRequest('No updates provided', 'VALIDATION_ERROR');
  const row = ruleInScope(ctx, auth, id, 'write');
  const current = updateBase(row, body);
  const at = new Date().toISOString();
  const patch: Record<string, unknown> = {};
  for (const key of UPDATABLE) {
    const value = body[key];
    // name, priority and enabled cannot be null (the schema refuses it); criteria can, which clears them.
    if (value !== undefined) patch[key] = value;
  }
  const merged: RuleFields = { ...current, ...(patch as Partial<RuleFields>) };
  if (merged.matchNegate?.length === 0) merged.matchNegate = null;
  let reapproved = false;
  if (body.reapprove) {
    if (body.verdict !== undefined)
      throw badRequest('reapprove cannot be combined with verdict', 'VALIDATION_ERROR');
    if (current.suspendedVerdict === null)
      throw badRequest('PAM rule is not suspended', 'RULE_NOT_SUSPENDED');
    merged.verdict = current.suspendedVerdict;
    merged.suspendedVerdict = null;
    merged.reapprovedAt = at;
    merged.reapprovedByUserId = callerId(auth);
    reapproved = true;
  } else if (body.verdict !== undefined) {
    // Setting the verdict by hand is a decision about the rule: it ends a suspension either way.
    merged.verdict = body.verdict;
    merged.suspendedVerdict = null;
  }
  if (merged.siteId !== current.siteId) requireRuleSite(ctx, auth, row.org_id, merged.siteId);
  // A rule stranded by a newer build (stale tier) can still be renamed, re-ordered or disabled; changing its tool
  // or tier selectors, or enabling it, must make it reachable again.
  const tierTouched =
    body.matchToolName !== undefined || body.matchRiskTier !== undefined || body.matchNegate !== undefined;
  validateRule(ctx.db, row.org_id, merged, {
    checkTier: tierTouched || (merged.enabled && !current.enabled),
  });

  const changedFields = (Object.keys(merged) as Array<keyof RuleFields>).filter(
    (k) => JSON.stringify(merged[k]) !== JSON.stringify(current[k]),
  );
  if (changedFields.length === 0) return { success: true, ...current };
  const store = policyStore(ctx.db);
  if (!store.updateRule(id, merged, at)) throw notFound(RULE_NOT_FOUND);
  const rule = readableRule(store.ruleById(id)!);
  audit(ctx, req, auth, 'pam.rule.update', rule, {
    changedFields,
    ...(reapproved ? { reapproved: true } : {}),
  });
  return { success: true, ...rule };
}

export function deleteRule(ctx: AppContext, req: Request, auth: AuthContext, id: string): PamRuleResponse {
  const row = ruleInScope(ctx, auth, id, 'write');
  if (!policyStore(ctx.db).deleteRule(id)) throw notFound(RULE_NOT_FOUND);
  const rule = readableRule(row);
  audit(ctx, req, auth, 'pam.rule.delete', rule, {});
  return { success: true, ...rule };
}
