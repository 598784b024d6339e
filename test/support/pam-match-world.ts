import type { Observation } from '../../server/modules/pam/observation';
import { ruleMatches, type RuleCriteria, type SignerGroupIndex } from '../../server/modules/pam/policy/match';

// The PAM rule matcher (spec 2 "PAM rule"): every criterion positive, negative, negated and negated against a
// missing value; globs; time windows in UTC and in a zone without daylight saving; shapes; and the decision
// order over real SQLite rows (priority, age, site vs organization-wide, disabled, broken rules).
//
// Shared by the matcher suites (test/unit/pam-match-*.test.ts): the fixed hashes and instant, an empty rule,
// observations and the matcher over them.

export const H1 = 'a'.repeat(64);
export const H2 = 'b'.repeat(64);
export const T1 = 'c'.repeat(64);

/** A Wednesday, 12:00 UTC. */
export const AT = new Date('2026-03-04T12:00:00Z');

export const EMPTY: RuleCriteria = {
  matchSigner: null,
  matchSignerGroupId: null,
  matchSignerThumbprint: null,
  matchHash: null,
  matchPathGlob: null,
  matchParentImage: null,
  matchCommandLine: null,
  matchUser: null,
  matchAdGroup: null,
  matchToolName: null,
  matchRiskTier: null,
  matchNegate: null,
  timeWindow: null,
};

export const obs = (over: Partial<Observation> = {}): Observation => ({
  flowType: 'uac_intercept',
  subjectUsername: 'CORP\\alice',
  subjectAdGroups: ['Helpdesk', 'Domain Users'],
  targetExecutablePath: 'C:\\Program Files\\Acme\\setup.exe',
  targetExecutableHash: H1,
  targetExecutableSigner: 'Acme Corp',
  targetSignerThumbprint: T1,
  parentImage: 'C:\\Windows\\explorer.exe',
  commandLine: '"C:\\Program Files\\Acme\\setup.exe" /S /NoRestart',
  toolName: null,
  riskTier: null,
  ...over,
});

export const tool = (over: Partial<Observation> = {}): Observation =>
  obs({
    flowType: 'ai_tool_action',
    targetExecutablePath: null,
    targetExecutableHash: null,
    targetExecutableSigner: null,
    targetSignerThumbprint: null,
    parentImage: null,
    commandLine: null,
    toolName: 'run_powershell',
    riskTier: 3,
    ...over,
  });

export const matches = (
  criteria: Partial<RuleCriteria>,
  observation: Observation = obs(),
  at: Date = AT,
  groups: SignerGroupIndex | null = null,
) => ruleMatches({ ...EMPTY, ...criteria }, observation, at, groups);
