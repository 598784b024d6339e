import type { NegatableCriterion, PamRule } from '../../../contract';
import type { AppContext } from '../../../context';
import { validTiersOf } from '../tools';
import { policyStore, toPamRule } from './store';

// Risk tiers of a tool are set by the server build (tools.ts), not by the rule. A rule that pins a tier its known
// tool cannot carry can never match: refused when written (`pam_rule_risk_tier_unreachable`), flagged in the rule
// list (`matchRiskTierStale`), and named in one warning at start-up when a newer build dropped the tier.

export interface TierReachability {
  stale: boolean;
  /** The tool's tiers in this build, when the rule pins a tier of a known tool. */
  validTiers: number[] | null;
}

type TierCriteria = Pick<PamRule, 'matchToolName' | 'matchRiskTier'> & {
  matchNegate: readonly NegatableCriterion[] | null;
};

/**
 * Whether the rule's tool selector can reach its tier selector. An unknown tool name is never stale (a later
 * build may know it). A negated tool name selects every other tool, some of which may be unknown: always
 * reachable. A negated tier is unreachable only when the tool has no other tier.
 */
export function tierReachability(rule: TierCriteria): TierReachability {
  if (!rule.matchToolName || rule.matchRiskTier === null || rule.matchRiskTier === undefined)
    return { stale: false, validTiers: null };
  const negated = (key: NegatableCriterion) =>
    Array.isArray(rule.matchNegate) && rule.matchNegate.includes(key);
  if (negated('toolName')) return { stale: false, validTiers: null };
  const validTiers = validTiersOf(rule.matchToolName);
  if (!validTiers) return { stale: false, validTiers: null };
  const tier = rule.matchRiskTier;
  const stale = negated('riskTier') ? validTiers.every((t) => t === tier) : !validTiers.includes(tier);
  return { stale, validTiers: [...validTiers] };
}

export interface StaleTierRule {
  ruleId: string;
  name: string;
  orgId: string;
  toolName: string;
  riskTier: number;
  validTiers: number[];
}

export function staleTierRules(ctx: Pick<AppContext, 'db'>): StaleTierRule[] {
  const stale: StaleTierRule[] = [];
  for (const row of policyStore(ctx.db).enabledRules()) {
    if (row.match_tool_name === null || row.match_risk_tier === null) continue;
    let rule: PamRule;
    try {
      rule = toPamRule(row);
    } catch {
      // Unreadable negations: judge the plain selectors; the matcher reports the corruption on use.
      rule = toPamRule({ ...row, match_negate: null, time_window: null });
    }
    const reach = tierReachability(rule);
    if (reach.stale && reach.validTiers) {
      stale.push({
        ruleId: rule.id,
        name: rule.name,
        orgId: rule.orgId,
        toolName: row.match_tool_name,
        riskTier: row.match_risk_tier,
        validTiers: reach.validTiers,
      });
    }
  }
  return stale;
}

/** Start-up check (spec 2): one warning naming every enabled tier-pinned rule that can no longer match. */
export function warnStaleTierRules(ctx: Pick<AppContext, 'db' | 'log'>): void {
  const rules = staleTierRules(ctx);
  if (rules.length === 0) return;
  const names = rules
    .map(
      (r) =>
        `"${r.name}" (${r.ruleId}, org ${r.orgId}: ${r.toolName} tier ${r.riskTier}, valid ${r.validTiers.join('/')})`,
    )
    .join('; ');
  ctx.log.warn(
    { staleTierRules: rules },
    `${rules.length} enabled PAM rule(s) pin a risk tier their tool can no longer reach and will never match: ${names}`,
  );
}
