import {
  NEGATABLE_CRITERIA,
  type NegatableCriterion,
  type PamRuleCriteria,
  type PamVerdict,
} from '../../../contract';
import type { Db } from '../../../db/connection';
import type { Observation } from '../observation';
import { compileGlob, normalizePath } from './glob';
import { compileTimeWindow, type WindowCheck } from './time-window';
import { ruleStatements, toPamRule, type PamRuleRow } from './store';

// The PAM rule matcher (spec 2 "PAM rule", "Rule validation", "Decision chain at ingest"). Pure apart from
// decideByRules, which loads the organization's rules and signer groups. Every present criterion must match (AND);
// a negated criterion is inverted but never matches an observation that lacks the value, so "not signed by X"
// does not wave through an unsigned binary. Choices where the spec is silent:
// - matchParentImage: a value with a separator is compared with the whole parent path (separators and case
//   folded); a bare file name is compared with the parent's file name.
// - matchUser: `DOMAIN\user` and `user@domain` are split into name and domain. A rule without a domain matches
//   the name of any form; a rule with a domain needs the same domain text (so `CORP\alice` matches
//   `alice@corp`, but not `alice@corp.example.com`, whose domain is spelled differently) and never matches a
//   bare `alice`.
// - Shapes: a rule with an executable criterion (signer, signer group, thumbprint, hash, path, parent, command
//   line) never matches an `ai_tool_action`; a rule with a tool criterion (tool name, risk tier) matches only
//   `ai_tool_action`. A rule with only user / AD group criteria matches every flow, except that an `ignore` rule
//   never matches a tool action (the spec forbids `ignore` for tool-action rules).
// - matchSignerThumbprint counts as part of the signer criterion: identifying, executable-shaped, not negatable.

export interface MatchedRule {
  id: string;
  name: string;
  verdict: PamVerdict;
  approvalDurationMinutes: number | null;
}

/** Signer group id -> its signers in lower case. Built once per evaluation (loadSignerGroups). */
export type SignerGroupIndex = ReadonlyMap<string, ReadonlySet<string>>;

/** The matching part of a rule: a stored rule, or the criteria of a preview. */
export type RuleCriteria = PamRuleCriteria & { verdict?: PamVerdict | null };

export const EXECUTABLE_FIELDS = [
  'matchSigner',
  'matchSignerGroupId',
  'matchSignerThumbprint',
  'matchHash',
  'matchPathGlob',
  'matchParentImage',
  'matchCommandLine',
] as const;
export const TOOL_FIELDS = ['matchToolName', 'matchRiskTier'] as const;
export const SUBJECT_FIELDS = ['matchUser', 'matchAdGroup'] as const;

/** Negation key -> the rule field it inverts. */
export const NEGATION_FIELD: Record<NegatableCriterion, keyof RuleCriteria> = {
  signer: 'matchSigner',
  signerGroup: 'matchSignerGroupId',
  hash: 'matchHash',
  pathGlob: 'matchPathGlob',
  parentImage: 'matchParentImage',
  commandLine: 'matchCommandLine',
  user: 'matchUser',
  adGroup: 'matchAdGroup',
  toolName: 'matchToolName',
  riskTier: 'matchRiskTier',
};

const present = (value: unknown): boolean => value !== null && value !== undefined && value !== '';

export type RuleShape = 'executable' | 'tool' | 'subject' | 'mixed' | 'empty';

export function ruleShape(rule: Partial<RuleCriteria>): RuleShape {
  const executable = EXECUTABLE_FIELDS.some((f) => present(rule[f]));
  const tool = TOOL_FIELDS.some((f) => present(rule[f]));
  if (executable && tool) return 'mixed';
  if (executable) return 'executable';
  if (tool) return 'tool';
  return SUBJECT_FIELDS.some((f) => present(rule[f])) ? 'subject' : 'empty';
}

/** A criterion: null when the observation lacks the value, else whether it matches before negation. */
type Test = (obs: Observation) => boolean | null;

interface CompiledRule {
  shape: RuleShape;
  ignore: boolean;
  window: WindowCheck | null;
  tests: Array<{ negated: boolean; test: Test }>;
}

const lower = (value: string) => value.trim().toLowerCase();
/** An observed text value in comparison form, or null when absent or blank. */
const observed = (value: string | null | undefined): string | null => {
  if (value === null || value === undefined) return null;
  const folded = lower(value);
  return folded === '' ? null : folded;
};

export function parseAccount(value: string): { name: string; domain: string | null } {
  const folded = lower(value);
  const slash = folded.indexOf('\\');
  if (slash >= 0) return { domain: folded.slice(0, slash), name: folded.slice(slash + 1) };
  const at = folded.lastIndexOf('@');
  if (at > 0) return { name: folded.slice(0, at), domain: folded.slice(at + 1) };
  return { name: folded, domain: null };
}

const fileName = (normalized: string) => normalized.slice(normalized.lastIndexOf('/') + 1);

function equalsTest(expected: string, read: (obs: Observation) => string | null): Test {
  const want = lower(expected);
  return (obs) => {
    const value = observed(read(obs));
    return value === null ? null : value === want;
  };
}

function compileRule(rule: RuleCriteria, groups: SignerGroupIndex | null): CompiledRule {
  const negations = new Set<string>();
  for (const key of rule.matchNegate ?? []) {
    if (!(NEGATABLE_CRITERIA as readonly string[]).includes(key))
      throw new Error(`Unknown negation key: ${key}`);
    negations.add(key);
  }
  const tests: CompiledRule['tests'] = [];
  const add = (key: NegatableCriterion | null, test: Test) =>
    tests.push({ negated: key !== null && negations.has(key), test });

  if (present(rule.matchSigner))
    add(
      'signer',
      equalsTest(rule.matchSigner!, (o) => o.targetExecutableSigner),
    );
  if (present(rule.matchSignerGroupId)) {
    const members = groups?.get(rule.matchSignerGroupId!);
    if (!members) throw new Error(`Signer group ${rule.matchSignerGroupId} is not available`);
    add('signerGroup', (obs) => {
      const signer = observed(obs.targetExecutableSigner);
      return signer === null ? null : members.has(signer);
    });
  }
  if (present(rule.matchSignerThumbprint))
    add(
      null,
      equalsTest(rule.matchSignerThumbprint!, (o) => o.targetSignerThumbprint),
    );
  if (present(rule.matchHash))
    add(
      'hash',
      equalsTest(rule.matchHash!, (o) => o.targetExecutableHash),
    );
  if (present(rule.matchPathGlob)) {
    const glob = compileGlob(rule.matchPathGlob!.trim());
    add('pathGlob', (obs) => {
      const path = obs.targetExecutablePath?.trim();
      return path ? glob(path) : null;
    });
  }
  if (present(rule.matchParentImage)) {
    const want = normalizePath(rule.matchParentImage!.trim());
    const wholePath = want.includes('/');
    add('parentImage', (obs) => {
      const parent = obs.parentImage?.trim();
      if (!parent) return null;
      const have = normalizePath(parent);
      return wholePath ? have === want : fileName(have) === want;
    });
  }
  if (present(rule.matchCommandLine)) {
    const needle = rule.matchCommandLine!.toLowerCase();
    add('commandLine', (obs) => (obs.commandLine ? obs.commandLine.toLowerCase().includes(needle) : null));
  }
  if (present(rule.matchUser)) {
    const want = parseAccount(rule.matchUser!);
    add('user', (obs) => {
      if (observed(obs.subjectUsername) === null) return null;
      const have = parseAccount(obs.subjectUsername!);
      return have.name === want.name && (want.domain === null || have.domain === want.domain);
    });
  }
  if (present(rule.matchAdGroup)) {
    const want = lower(rule.matchAdGroup!);
    add('adGroup', (obs) => {
      const groupsOf = obs.subjectAdGroups.map(observed).filter((g): g is string => g !== null);
      return groupsOf.length === 0 ? null : groupsOf.includes(want);
    });
  }
  if (present(rule.matchToolName))
    add(
      'toolName',
      equalsTest(rule.matchToolName!, (o) => o.toolName),
    );
  if (present(rule.matchRiskTier)) {
    const tier = rule.matchRiskTier!;
    add('riskTier', (obs) => (obs.riskTier === null ? null : obs.riskTier === tier));
  }
  return {
    shape: ruleShape(rule),
    ignore: rule.verdict === 'ignore',
    window: rule.timeWindow ? compileTimeWindow(rule.timeWindow) : null,
    tests,
  };
}

function compiledMatches(rule: CompiledRule, obs: Observation, at: Date): boolean {
  const toolAction = obs.flowType === 'ai_tool_action';
  if (rule.shape === 'empty' || rule.shape === 'mixed') return false;
  if (rule.shape === 'executable' && toolAction) return false;
  if (rule.shape === 'tool' && !toolAction) return false;
  if (rule.shape === 'subject' && toolAction && rule.ignore) return false;
  for (const { negated, test } of rule.tests) {
    const result = test(obs);
    if (result === null) return false;
    if (result === negated) return false;
  }
  return rule.window === null || rule.window(at);
}

const compiledCache = new WeakMap<RuleCriteria, { groups: SignerGroupIndex | null; rule: CompiledRule }>();

/**
 * Whether a rule matches an observation at an instant. Throws when the rule cannot be evaluated (unknown time
 * zone, unknown negation key, a signer group missing from `signerGroups`): the caller decides what that means.
 */
export function ruleMatches(
  rule: RuleCriteria,
  obs: Observation,
  at: Date,
  signerGroups: SignerGroupIndex | null,
): boolean {
  let cached = compiledCache.get(rule);
  if (!cached || cached.groups !== signerGroups) {
    cached = { groups: signerGroups, rule: compileRule(rule, signerGroups) };
    compiledCache.set(rule, cached);
  }
  return compiledMatches(cached.rule, obs, at);
}

/** A matcher for one rule over many observations (the preview): compiled once. */
export function ruleMatcher(
  rule: RuleCriteria,
  signerGroups: SignerGroupIndex | null,
): (obs: Observation, at: Date) => boolean {
  const compiled = compileRule(rule, signerGroups);
  return (obs, at) => compiledMatches(compiled, obs, at);
}

/** The signer groups of an organization, for the matcher. */
export function loadSignerGroups(db: Db, orgId: string): SignerGroupIndex {
  const index = new Map<string, ReadonlySet<string>>();
  for (const row of ruleStatements(db).signerGroupsOfOrg.all(orgId) as Array<{
    id: string;
    signers: string;
  }>) {
    const signers = JSON.parse(row.signers) as unknown;
    if (!Array.isArray(signers)) throw new Error(`Signer group ${row.id} has corrupt signers`);
    index.set(row.id, new Set(signers.filter((s): s is string => typeof s === 'string').map(lower)));
  }
  return index;
}

/**
 * The rule that decides an observation: enabled rules of the organization that are organization-wide or for the
 * request's site, by `priority, created_at, id`; the first whose every criterion matches wins. Throws when a rule
 * it reaches cannot be evaluated (the caller records the request `pending`).
 */
export function decideByRules(
  db: Db,
  orgId: string,
  siteId: string | null,
  obs: Observation,
  at: Date,
): MatchedRule | null {
  const rows = ruleStatements(db).enabledForDecision.all(orgId, siteId) as PamRuleRow[];
  let groups: SignerGroupIndex | null = null;
  for (const row of rows) {
    if (row.match_signer_group_id && groups === null) groups = loadSignerGroups(db, orgId);
    const rule = toPamRule(row);
    if (ruleMatcher(rule, groups)(obs, at)) {
      return {
        id: rule.id,
        name: rule.name,
        verdict: rule.verdict,
        approvalDurationMinutes: rule.approvalDurationMinutes,
      };
    }
  }
  return null;
}
