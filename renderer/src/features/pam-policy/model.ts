// Over 400 lines: the rule draft model (criteria, validation, summaries); the prefill from a request is in prefill.ts.
import {
  PAM_POLICY_LIMITS,
  type AiToolCatalogEntry,
  type NegatableCriterion,
  type PamRule,
  type PamRuleBody,
  type PamRuleCriteria,
  type PamTimeWindow,
  type PamVerdict,
} from '../../../../server/contract';
import type { Tone } from '../approvals';

// The rule editor as plain strings, the rule body it sends, the validation the server applies (spec 2 "Rule
// validation"), and the one-line summaries the rule list shows. Pure functions: no React, no fetches.

export type Shape = 'executable' | 'tool';

/** A criterion field with its "not" switch (matchNegate). */
export interface Crit {
  value: string;
  negate: boolean;
}

export interface RuleDraft {
  name: string;
  verdict: PamVerdict;
  priority: string;
  enabled: boolean;
  siteId: string;
  shape: Shape;
  /** Signer by name or by signer group: the two are exclusive. */
  signerMode: 'signer' | 'group';
  signer: Crit;
  signerGroup: Crit;
  thumbprint: string;
  hash: Crit;
  pathGlob: Crit;
  parentImage: Crit;
  commandLine: Crit;
  user: Crit;
  adGroup: Crit;
  toolName: Crit;
  /** '' for any tier, '0'..'4'. */
  riskTier: Crit;
  windowOn: boolean;
  windowStart: string;
  windowEnd: string;
  /** 0-6, Sunday to Saturday. */
  windowDays: number[];
  windowTimezone: string;
  /** Minutes; '' uses the organization default. */
  duration: string;
}

/** One verdict described once: its words, its pill's tone, what it does (the picker's hint), and what it would
 * have done to a matched request (the preview's sentence). */
export interface VerdictInfo {
  value: PamVerdict;
  label: string;
  tone: Tone;
  desc: string;
  effect: string;
}

/** The verdict picker's choices, the safe one first: it is also a new rule's verdict. */
export const VERDICTS: VerdictInfo[] = [
  {
    value: 'require_approval',
    label: 'Require approval',
    tone: 'warn',
    desc: 'Waits in the approvals inbox for a technician to decide.',
    effect: 'sent to a technician for a decision',
  },
  {
    value: 'auto_approve',
    label: 'Auto-approve',
    tone: 'ok',
    desc: 'Approved at once; the agent elevates without asking a technician.',
    effect: 'approved at once, without a technician',
  },
  {
    value: 'auto_deny',
    label: 'Auto-deny',
    tone: 'bad',
    desc: 'Denied at once; the user sees the elevation refused.',
    effect: 'denied at once',
  },
  {
    value: 'ignore',
    label: 'Ignore',
    tone: 'muted',
    desc: 'Not recorded at all: the agent lets the prompt through to Windows as if Gatehouse were not there.',
    effect: 'ignored: not recorded, left to Windows',
  },
];

/** One column of VERDICTS keyed by verdict, for lookups (a pill's words and tone, the preview's sentence). */
function verdictColumn<K extends keyof VerdictInfo>(key: K): Record<PamVerdict, VerdictInfo[K]> {
  return Object.fromEntries(VERDICTS.map((v) => [v.value, v[key]])) as Record<PamVerdict, VerdictInfo[K]>;
}

export const VERDICT_LABEL = verdictColumn('label');
export const VERDICT_TONE = verdictColumn('tone');
export const VERDICT_EFFECT = verdictColumn('effect');

export const DAY_SHORT = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
/** Monday first, as technicians read a week. */
export const WEEK_ORDER = [1, 2, 3, 4, 5, 6, 0] as const;

export const DEFAULT_PRIORITY = 100;
export const PRIORITY_LIMIT = PAM_POLICY_LIMITS.priority;
export const NAME_MAX = PAM_POLICY_LIMITS.name;
export const DURATION_MAX = PAM_POLICY_LIMITS.grantMinutes;
export const RISK_TIERS = [0, 1, 2, 3, 4] as const;

const SHA256 = /^[0-9a-f]{64}$/i;
const CLOCK = /^([01]\d|2[0-3]):[0-5]\d$/;

const crit = (value: string | null | undefined, negate = false): Crit => ({ value: value ?? '', negate });

export function emptyDraft(): RuleDraft {
  return {
    name: '',
    // A new rule (blank or made from a request) only routes requests to a technician until someone explicitly
    // chooses Auto-approve: a half-finished rule must never hand out administrator rights.
    verdict: 'require_approval',
    priority: String(DEFAULT_PRIORITY),
    enabled: true,
    siteId: '',
    shape: 'executable',
    signerMode: 'signer',
    signer: crit(''),
    signerGroup: crit(''),
    thumbprint: '',
    hash: crit(''),
    pathGlob: crit(''),
    parentImage: crit(''),
    commandLine: crit(''),
    user: crit(''),
    adGroup: crit(''),
    toolName: crit(''),
    riskTier: crit(''),
    windowOn: false,
    windowStart: '08:00',
    windowEnd: '18:00',
    windowDays: [1, 2, 3, 4, 5],
    windowTimezone: 'UTC',
    duration: '',
  };
}

export function draftOf(rule: PamRule): RuleDraft {
  const neg = new Set(rule.matchNegate ?? []);
  const tool = rule.matchToolName !== null || rule.matchRiskTier !== null;
  const base = emptyDraft();
  return {
    ...base,
    name: rule.name,
    verdict: rule.verdict,
    priority: String(rule.priority),
    enabled: rule.enabled,
    siteId: rule.siteId ?? '',
    shape: tool ? 'tool' : 'executable',
    signerMode: rule.matchSignerGroupId ? 'group' : 'signer',
    signer: crit(rule.matchSigner, neg.has('signer')),
    signerGroup: crit(rule.matchSignerGroupId, neg.has('signerGroup')),
    thumbprint: rule.matchSignerThumbprint ?? '',
    hash: crit(rule.matchHash, neg.has('hash')),
    pathGlob: crit(rule.matchPathGlob, neg.has('pathGlob')),
    parentImage: crit(rule.matchParentImage, neg.has('parentImage')),
    commandLine: crit(rule.matchCommandLine, neg.has('commandLine')),
    user: crit(rule.matchUser, neg.has('user')),
    adGroup: crit(rule.matchAdGroup, neg.has('adGroup')),
    toolName: crit(rule.matchToolName, neg.has('toolName')),
    riskTier: crit(rule.matchRiskTier === null ? '' : String(rule.matchRiskTier), neg.has('riskTier')),
    windowOn: rule.timeWindow !== null,
    windowStart: rule.timeWindow?.start ?? base.windowStart,
    windowEnd: rule.timeWindow?.end ?? base.windowEnd,
    windowDays: rule.timeWindow ? (rule.timeWindow.days ?? [0, 1, 2, 3, 4, 5, 6]) : base.windowDays,
    windowTimezone: rule.timeWindow?.timezone ?? 'UTC',
    duration: rule.approvalDurationMinutes === null ? '' : String(rule.approvalDurationMinutes),
  };
}

/** The criterion fields of a rule (what the preview sends too). */
export type RuleCriteria = PamRuleCriteria;

/** What a save sends: the criteria and the rest of the rule's writable fields. */
export type RuleBody = PamRuleBody;

const text = (v: string): string | null => (v.trim() ? v.trim() : null);

/** The criteria in effect: only the current shape's fields, only one of signer name and signer group. */
export function criteriaOf(d: RuleDraft): RuleCriteria {
  const exe = d.shape === 'executable';
  const byGroup = exe && d.signerMode === 'group';
  const fields: Array<[NegatableCriterion, Crit, boolean]> = [
    ['signer', d.signer, exe && !byGroup],
    ['signerGroup', d.signerGroup, byGroup],
    ['hash', d.hash, exe],
    ['pathGlob', d.pathGlob, exe],
    ['parentImage', d.parentImage, exe],
    ['commandLine', d.commandLine, exe],
    ['user', d.user, true],
    ['adGroup', d.adGroup, true],
    ['toolName', d.toolName, !exe],
    ['riskTier', d.riskTier, !exe],
  ];
  const negate = fields.filter(([, c, on]) => on && c.negate && c.value.trim()).map(([k]) => k);
  const on = (c: Crit, active: boolean) => (active ? text(c.value) : null);
  const tier = on(d.riskTier, !exe);
  return {
    matchSigner: on(d.signer, exe && !byGroup),
    matchSignerGroupId: on(d.signerGroup, byGroup),
    matchSignerThumbprint: exe && !byGroup ? (text(d.thumbprint)?.toLowerCase() ?? null) : null,
    matchHash: on(d.hash, exe)?.toLowerCase() ?? null,
    matchPathGlob: on(d.pathGlob, exe),
    matchParentImage: on(d.parentImage, exe),
    matchCommandLine: on(d.commandLine, exe),
    matchUser: on(d.user, true),
    matchAdGroup: on(d.adGroup, true),
    matchToolName: on(d.toolName, !exe),
    matchRiskTier: tier === null ? null : Number(tier),
    matchNegate: negate.length ? negate : null,
    timeWindow: d.windowOn
      ? {
          start: d.windowStart,
          end: d.windowEnd,
          ...(d.windowDays.length === 7 ? {} : { days: [...d.windowDays].sort((a, b) => a - b) }),
          timezone: d.windowTimezone || 'UTC',
        }
      : null,
  };
}

export function bodyOf(d: RuleDraft): RuleBody {
  const priority = Number(d.priority.trim());
  const duration = d.duration.trim();
  const decides = d.verdict === 'auto_approve' || d.verdict === 'require_approval';
  return {
    name: d.name.trim(),
    verdict: d.verdict,
    priority: d.priority.trim() === '' ? DEFAULT_PRIORITY : priority,
    enabled: d.enabled,
    siteId: d.siteId || null,
    ...criteriaOf(d),
    approvalDurationMinutes: decides && duration ? Number(duration) : null,
  };
}

/** The keys of `after` whose value differs from `before` (a PATCH sends only these). */
export function changedFields(before: RuleBody, after: RuleBody): Partial<RuleBody> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(after) as Array<keyof RuleBody>) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) out[key] = after[key];
  }
  return out as Partial<RuleBody>;
}

/**
 * How many criteria identify requests. The signer thumbprint counts: the server treats it as an executable
 * criterion (a rule of only a thumbprint is executable-shaped), though the spec's list leaves it out.
 */
export function identifyingCount(c: RuleCriteria): number {
  return [
    c.matchSigner,
    c.matchSignerGroupId,
    c.matchSignerThumbprint,
    c.matchHash,
    c.matchPathGlob,
    c.matchParentImage,
    c.matchCommandLine,
    c.matchUser,
    c.matchAdGroup,
    c.matchToolName,
    c.matchRiskTier,
  ].filter((v) => v !== null).length;
}

/**
 * The server's reachability rule (stale-tiers.ts), for known tools only: a negated tool name selects other tools
 * (always reachable); a negated tier is unreachable only when the tool has no other tier.
 */
export function unreachableTier(c: RuleCriteria, tools: readonly AiToolCatalogEntry[]): number[] | null {
  if (!c.matchToolName || c.matchRiskTier === null) return null;
  const negate = new Set(c.matchNegate ?? []);
  if (negate.has('toolName')) return null;
  const tool = toolOf(tools, c.matchToolName);
  if (!tool) return null;
  const tier = c.matchRiskTier;
  const stale = negate.has('riskTier') ? tool.tiers.every((t) => t === tier) : !tool.tiers.includes(tier);
  return stale ? tool.tiers : null;
}

/** Rule-level messages, word for word as the server answers them (policy/validate.ts). */
export const SERVER_MESSAGES = {
  noCriterion:
    'A rule needs at least one identifying criterion (signer, signer group, hash, path, parent, command line, user, group, tool, tier); a time window alone is not enough',
  ignoreTool: 'The ignore verdict is not valid for tool-action rules',
  tierUnreachable: (tier: number, tool: string, valid: readonly number[]) =>
    `Risk tier ${tier} is unreachable for tool ${tool}; valid tiers: ${valid.join(', ')}`,
  sha256: 'must be a SHA-256 hex digest (64 hex characters)',
};

export function toolOf(tools: readonly AiToolCatalogEntry[], name: string): AiToolCatalogEntry | null {
  const key = name.trim().toLowerCase();
  if (!key) return null;
  return tools.find((t) => t.toolName.toLowerCase() === key) ?? null;
}

export function listTiers(tiers: readonly number[]): string {
  return tiers.length === 1 ? `tier ${tiers[0]}` : `tiers ${tiers.join(', ')}`;
}

/** The criteria a request's own facts can fill (the rule-from-request prefill offers these, plus the site). */
export type RequestCriterionKey =
  | 'signer'
  | 'thumbprint'
  | 'hash'
  | 'pathGlob'
  | 'parentImage'
  | 'commandLine'
  | 'user'
  | 'toolName'
  | 'riskTier';

/** Field keys of the editor that can carry a message. */
export type FieldKey =
  | 'name'
  | 'criteria'
  | RequestCriterionKey
  | 'signerGroup'
  | 'adGroup'
  | 'verdict'
  | 'priority'
  | 'duration'
  | 'window';

/**
 * The spec's rule validation, checked as the technician types: an identifying criterion, one shape, `ignore` not
 * for tool actions, a tier the tool can reach; plus the field formats the server checks (SHA-256 hex, ranges).
 * A time window alone is not a criterion.
 */
export function validate(
  d: RuleDraft,
  tools: readonly AiToolCatalogEntry[],
): Partial<Record<FieldKey, string>> {
  const e: Partial<Record<FieldKey, string>> = {};
  const c = criteriaOf(d);
  if (!d.name.trim()) e.name = 'Give the rule a name.';
  else if (d.name.trim().length > NAME_MAX) e.name = `At most ${NAME_MAX} characters.`;

  if (identifyingCount(c) === 0) e.criteria = SERVER_MESSAGES.noCriterion;

  if (c.matchHash !== null && !SHA256.test(c.matchHash)) e.hash = `Hash ${SERVER_MESSAGES.sha256}.`;
  if (c.matchSignerThumbprint !== null && !SHA256.test(c.matchSignerThumbprint))
    e.thumbprint = `Thumbprint ${SERVER_MESSAGES.sha256}.`;

  if (d.shape === 'tool') {
    if (d.verdict === 'ignore') e.verdict = SERVER_MESSAGES.ignoreTool;
    const valid = unreachableTier(c, tools);
    if (valid && c.matchToolName !== null && c.matchRiskTier !== null)
      e.riskTier = SERVER_MESSAGES.tierUnreachable(c.matchRiskTier, c.matchToolName, valid);
  }

  const priority = d.priority.trim();
  if (priority && !/^-?\d+$/.test(priority)) e.priority = 'A whole number; lower runs first.';
  else if (priority && Math.abs(Number(priority)) > PRIORITY_LIMIT)
    e.priority = `Between -${PRIORITY_LIMIT} and ${PRIORITY_LIMIT}.`;

  const duration = d.duration.trim();
  if (duration && (!/^\d+$/.test(duration) || Number(duration) < 1 || Number(duration) > DURATION_MAX))
    e.duration = `Between 1 and ${DURATION_MAX} minutes, or empty for the organization default.`;

  if (d.windowOn) {
    if (!CLOCK.test(d.windowStart) || !CLOCK.test(d.windowEnd)) e.window = 'Enter a start and an end time.';
    else if (d.windowDays.length === 0) e.window = 'Pick at least one day.';
    else if (d.windowStart === d.windowEnd)
      e.window = 'Start and end are the same time: the window would be empty.';
  }
  return e;
}

// ---- Summaries (rule list) -------------------------------------------------------------------------------------

function shortHex(hex: string): string {
  return hex.length > 16 ? `${hex.slice(0, 8)}…${hex.slice(-6)}` : hex;
}

export interface SummaryPart {
  text: string;
  negated: boolean;
}

/** "Signer = Microsoft Corporation", "Path C:\Program Files\**", negations with "≠". */
export function criteriaParts(rule: PamRule, groupName: (id: string) => string | null): SummaryPart[] {
  const neg = new Set(rule.matchNegate ?? []);
  const parts: SummaryPart[] = [];
  const add = (key: NegatableCriterion | null, label: string, value: string, bare = false) => {
    const negated = key !== null && neg.has(key);
    const op = negated ? ' ≠ ' : bare ? ' ' : ' = ';
    parts.push({ text: `${label}${op}${value}`, negated });
  };
  if (rule.matchSigner !== null) add('signer', 'Signer', rule.matchSigner);
  if (rule.matchSignerGroupId !== null)
    add('signerGroup', 'Signer group', groupName(rule.matchSignerGroupId) ?? 'unknown group');
  if (rule.matchSignerThumbprint !== null) add(null, 'Thumbprint', shortHex(rule.matchSignerThumbprint));
  if (rule.matchHash !== null) add('hash', 'Hash', shortHex(rule.matchHash));
  if (rule.matchPathGlob !== null) add('pathGlob', 'Path', rule.matchPathGlob, true);
  if (rule.matchParentImage !== null) add('parentImage', 'Parent', rule.matchParentImage);
  if (rule.matchCommandLine !== null)
    parts.push({
      text: neg.has('commandLine')
        ? `Command line lacks “${rule.matchCommandLine}”`
        : `Command line has “${rule.matchCommandLine}”`,
      negated: neg.has('commandLine'),
    });
  if (rule.matchUser !== null) add('user', 'User', rule.matchUser);
  if (rule.matchAdGroup !== null) add('adGroup', 'AD group', rule.matchAdGroup);
  if (rule.matchToolName !== null) add('toolName', 'Tool', rule.matchToolName);
  if (rule.matchRiskTier !== null) add('riskTier', 'Tier', String(rule.matchRiskTier));
  return parts;
}

/** "Mon–Fri", "Every day", "Sat, Sun", "Mon, Wed–Fri". */
export function daysLabel(days: readonly number[] | undefined): string {
  if (!days || days.length === 0 || days.length === 7) return 'Every day';
  const set = new Set(days);
  const ordered = WEEK_ORDER.filter((d) => set.has(d));
  const runs: number[][] = [];
  for (const d of ordered) {
    const run = runs[runs.length - 1];
    const prev = run?.[run.length - 1];
    const prevIndex = prev === undefined ? -2 : WEEK_ORDER.indexOf(prev as (typeof WEEK_ORDER)[number]);
    if (run && WEEK_ORDER.indexOf(d) === prevIndex + 1) run.push(d);
    else runs.push([d]);
  }
  return runs
    .map((r) => {
      const first = DAY_SHORT[r[0] ?? 0];
      const last = DAY_SHORT[r[r.length - 1] ?? 0];
      if (r.length === 1) return first;
      if (r.length === 2) return `${first}, ${last}`;
      return `${first}–${last}`;
    })
    .join(', ');
}

/** "Mon–Fri 07:00–19:00 Europe/Stockholm"; a `timezone` of '' leaves the zone out. */
export function windowLabel(w: PamTimeWindow | null): string {
  if (!w) return 'Any time';
  const overnight = w.end < w.start ? ' (overnight)' : '';
  const zone = w.timezone === '' ? '' : ` ${w.timezone ?? 'UTC'}`;
  return `${daysLabel(w.days)} ${w.start}–${w.end}${overnight}${zone}`;
}
