import type { Db } from '../../../db/connection';
import { badRequest, HttpError } from '../../../http/errors';
import { NEGATION_FIELD, ruleShape, type RuleCriteria } from './match';
import { tierReachability } from './stale-tiers';
import { policyStore } from './store';

// Spec 2 "Rule validation", applied to a created rule, to the merged result of an update and to preview
// criteria. Messages name the criteria the way the rule table does.

const CODE = 'VALIDATION_ERROR';

export const MESSAGES = {
  noCriterion:
    'A rule needs at least one identifying criterion (signer, signer group, hash, path, parent, command line, user, group, tool, tier); a time window alone is not enough',
  mixedShape:
    'A rule matches an executable (signer, signer group, thumbprint, hash, path, parent, command line) or an AI tool action (tool name, risk tier), never both',
  ignoreTool: 'The ignore verdict is not valid for tool-action rules',
  signerAndGroup: 'matchSigner and matchSignerGroupId are exclusive',
  groupAndThumbprint: 'matchSignerGroupId and matchSignerThumbprint are exclusive',
  groupNotFound: 'matchSignerGroupId: signer group not found in this organization',
} as const;

export const TIER_UNREACHABLE_CODE = 'pam_rule_risk_tier_unreachable';

export interface ValidateOptions {
  /** Check that the tool can reach the pinned tier (skipped for updates that leave tool, tier and negation alone). */
  checkTier?: boolean;
}

export function validateRule(db: Db, orgId: string, rule: RuleCriteria, options: ValidateOptions = {}): void {
  const shape = ruleShape(rule);
  if (shape === 'empty') throw badRequest(MESSAGES.noCriterion, CODE);
  if (shape === 'mixed') throw badRequest(MESSAGES.mixedShape, CODE);
  if (shape === 'tool' && rule.verdict === 'ignore') throw badRequest(MESSAGES.ignoreTool, CODE);
  if (rule.matchSigner && rule.matchSignerGroupId) throw badRequest(MESSAGES.signerAndGroup, CODE);
  if (rule.matchSignerGroupId && rule.matchSignerThumbprint)
    throw badRequest(MESSAGES.groupAndThumbprint, CODE);
  for (const key of rule.matchNegate ?? []) {
    const field = NEGATION_FIELD[key];
    const value = rule[field];
    if (value === null || value === undefined || value === '')
      throw badRequest(`matchNegate: ${key} is negated but the rule has no ${field}`, CODE);
  }
  if (rule.matchSignerGroupId) {
    const group = policyStore(db).groupById(rule.matchSignerGroupId);
    if (!group || group.org_id !== orgId) throw badRequest(MESSAGES.groupNotFound, CODE);
  }
  if (options.checkTier !== false) {
    const reach = tierReachability(rule);
    if (reach.stale && reach.validTiers) {
      throw new HttpError(
        400,
        `Risk tier ${rule.matchRiskTier} is unreachable for tool ${rule.matchToolName}; valid tiers: ${reach.validTiers.join(', ')}`,
        TIER_UNREACHABLE_CODE,
        { validTiers: reach.validTiers },
      );
    }
  }
}

/** The criteria of a rule body (create or preview), absent fields as null and an empty negation list as none. */
export function criteriaFromBody(body: {
  [K in keyof RuleCriteria]?: RuleCriteria[K] | undefined;
}): RuleCriteria {
  return {
    verdict: body.verdict ?? null,
    matchSigner: body.matchSigner ?? null,
    matchSignerGroupId: body.matchSignerGroupId ?? null,
    matchSignerThumbprint: body.matchSignerThumbprint ?? null,
    matchHash: body.matchHash ?? null,
    matchPathGlob: body.matchPathGlob ?? null,
    matchParentImage: body.matchParentImage ?? null,
    matchCommandLine: body.matchCommandLine ?? null,
    matchUser: body.matchUser ?? null,
    matchAdGroup: body.matchAdGroup ?? null,
    matchToolName: body.matchToolName ?? null,
    matchRiskTier: body.matchRiskTier ?? null,
    matchNegate: body.matchNegate && body.matchNegate.length > 0 ? body.matchNegate : null,
    timeWindow: body.timeWindow ?? null,
  };
}
