import { useMemo, useRef, useState, type FormEvent } from 'react';
import type { ElevationRequest, PamRule, PamRulePreviewBody } from '../../../../server/contract';
import { useAsyncAction } from '../../lib/action';
import { ApiError } from '../../lib/errors';
import { navigate } from '../../lib/router';
import { pamPolicyApi, useAiTools } from './api';
import {
  NAME_MAX,
  bodyOf,
  changedFields,
  criteriaOf,
  draftOf,
  emptyDraft,
  validate,
  type FieldKey,
  type RuleDraft,
} from './model';
import type { PolicyOrg } from './org';
import {
  applyPrefill,
  defaultPrefill,
  prefillChecked,
  prefillItems,
  prefillName,
  prefillOne,
  type PrefillKey,
} from './prefill';
import type { CritBinding, SetCrit } from './RuleFields';

// The rule editor's state model: one draft, its checks as typed, the server's refusal placed on its field, the
// save, delete and re-approval, and the body the preview sends. The sections (RuleSections) only render it.

function browserZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

function initialDraft(
  rule: PamRule | null,
  copy: PamRule | null,
  request: ElevationRequest | null,
  signerGroup: string | null,
): RuleDraft {
  if (rule) return draftOf(rule);
  if (copy) return { ...draftOf(copy), name: `Copy of ${copy.name}`.slice(0, NAME_MAX) };
  const base = { ...emptyDraft(), windowTimezone: browserZone() };
  if (signerGroup)
    return { ...base, signerMode: 'group', signerGroup: { value: signerGroup, negate: false } };
  if (!request) return base;
  const on = defaultPrefill(request);
  return { ...applyPrefill(base, request, on), name: prefillName(request, on, base.verdict) };
}

const CRITERION_FIELD: Record<string, FieldKey> = {
  name: 'name',
  verdict: 'verdict',
  priority: 'priority',
  approvalDurationMinutes: 'duration',
  timeWindow: 'window',
  matchSigner: 'signer',
  matchSignerGroupId: 'signerGroup',
  matchSignerThumbprint: 'thumbprint',
  matchHash: 'hash',
  matchPathGlob: 'pathGlob',
  matchParentImage: 'parentImage',
  matchCommandLine: 'commandLine',
  matchUser: 'user',
  matchAdGroup: 'adGroup',
  matchToolName: 'toolName',
  matchRiskTier: 'riskTier',
};

/** Where a refused save belongs on the form (the message itself is always shown as the server wrote it). */
function fieldOfServerError(err: unknown): FieldKey | null {
  if (!(err instanceof ApiError) || err.status !== 400) return null;
  if (err.code === 'pam_rule_risk_tier_unreachable') return 'riskTier';
  const issues = Array.isArray(err.body?.issues) ? (err.body.issues as Array<{ path?: unknown }>) : [];
  const path =
    typeof issues[0]?.path === 'string' ? issues[0].path : (/^([\w.]+): /.exec(err.message)?.[1] ?? '');
  return CRITERION_FIELD[path.split('.')[0] ?? ''] ?? null;
}

export interface RuleFormInput {
  org: PolicyOrg;
  /** The rule being edited (null: a new one). */
  rule: PamRule | null;
  /** The rule a new one copies. */
  copy: PamRule | null;
  /** The signer group a new rule starts from. */
  signerGroup: string | null;
  /** The request a new rule is built from. */
  request: ElevationRequest | null;
  /** A write changed the stored rule (re-approval): read it again. */
  onChanged: () => void;
}

export function useRuleForm({ org, rule, copy, signerGroup, request, onChanged }: RuleFormInput) {
  const tools = useAiTools();
  const [draft, setDraft] = useState(() => initialDraft(rule, copy, request, signerGroup));
  const [nameTouched, setNameTouched] = useState(rule !== null || copy !== null);
  const [attempted, setAttempted] = useState(false);
  const [serverField, setServerField] = useState<FieldKey | null>(null);
  const save = useAsyncAction();
  const reapprove = useAsyncAction();
  const formRef = useRef<HTMLFormElement>(null);

  const baseline = useMemo(() => (rule ? bodyOf(draftOf(rule)) : null), [rule]);
  const body = bodyOf(draft);
  const patch = baseline ? changedFields(baseline, body) : null;
  const dirty = patch === null || Object.keys(patch).length > 0;
  const checks = validate(draft, tools);
  // The server checks a pinned tier only when the update touches tool, tier or negation: an already stale rule can
  // still be renamed or disabled, so its stale tier is a warning until one of those changes.
  const tierKept =
    baseline !== null &&
    baseline.matchToolName === body.matchToolName &&
    baseline.matchRiskTier === body.matchRiskTier &&
    JSON.stringify(baseline.matchNegate) === JSON.stringify(body.matchNegate);
  const tierWarning = tierKept ? (checks.riskTier ?? null) : null;
  const errors = tierWarning ? { ...checks, riskTier: undefined } : checks;
  for (const key of Object.keys(errors) as FieldKey[]) if (errors[key] === undefined) delete errors[key];
  const criteria = criteriaOf(draft);
  const isTool = draft.shape === 'tool';
  // Ticked in the request checklist: what the form still uses exactly as the request had it.
  const checked = useMemo(
    () => (request ? prefillChecked(draft, request) : new Set<PrefillKey>()),
    [draft, request],
  );
  const subjectOnly =
    (criteria.matchUser !== null || criteria.matchAdGroup !== null) &&
    [
      criteria.matchSigner,
      criteria.matchSignerGroupId,
      criteria.matchSignerThumbprint,
      criteria.matchHash,
      criteria.matchPathGlob,
      criteria.matchParentImage,
      criteria.matchCommandLine,
      criteria.matchToolName,
      criteria.matchRiskTier,
    ].every((v) => v === null);

  const set = (next: Partial<RuleDraft>, field?: FieldKey) => {
    setDraft((d) => {
      const merged = { ...d, ...next };
      // The suggested name follows the verdict until the technician writes their own.
      if (request && !nameTouched && next.verdict)
        merged.name = prefillName(request, prefillChecked(merged, request), next.verdict);
      return merged;
    });
    if (field && field === serverField) setServerField(null);
  };
  const setCrit: SetCrit = (key, value) => {
    setDraft((d) => ({ ...d, [key]: { ...d[key], ...value } }));
    if (key === serverField) setServerField(null);
  };

  const togglePrefill = (key: PrefillKey, on: boolean) => {
    if (!request) return;
    const item = prefillItems(request).find((i) => i.key === key);
    if (!item) return;
    setDraft((d) => {
      const updated = prefillOne(d, item, on);
      if (nameTouched) return updated;
      return { ...updated, name: prefillName(request, prefillChecked(updated, request), d.verdict) };
    });
  };

  /** Messages shown now: format and rule errors at once, "missing" ones after a save attempt. */
  const shown = (key: FieldKey): string | undefined => {
    const e = errors[key];
    if (!e) return undefined;
    if (!attempted && (key === 'criteria' || (key === 'name' && !draft.name.trim()))) return undefined;
    return e;
  };
  const serverMessage = (key: FieldKey) =>
    serverField === key && save.error instanceof ApiError ? save.error.message : undefined;
  const msg = (key: FieldKey) => serverMessage(key) ?? shown(key);
  const bind: CritBinding = { draft, setCrit, msg };

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    setAttempted(true);
    if (Object.keys(errors).length > 0) {
      requestAnimationFrame(() =>
        formRef.current?.querySelector<HTMLElement>('.has-error input, .has-error select')?.focus(),
      );
      return;
    }
    void save.run(async () => {
      try {
        if (rule) {
          if (patch && Object.keys(patch).length > 0) await pamPolicyApi.updateRule(rule.id, patch);
          navigate(org.link('/pam/rules', { saved: rule.id }));
        } else {
          const created = await pamPolicyApi.createRule(org.withOrg(body));
          navigate(org.link('/pam/rules', { saved: created.id }));
        }
      } catch (err) {
        setServerField(fieldOfServerError(err));
        throw err;
      }
    });
  };

  const remove = async () => {
    if (!rule) return;
    await pamPolicyApi.deleteRule(rule.id);
    navigate(org.link('/pam/rules'), { replace: true });
  };

  const doReapprove = () =>
    void reapprove.run(async () => {
      if (!rule) return;
      await pamPolicyApi.updateRule(rule.id, { reapprove: true });
      onChanged();
    });

  // The preview sends the criteria as the rule would store them, with the verdict (the server checks it the same
  // way), once they pass the same checks a save would; until then it says what stands in the way.
  const blocking = (['criteria', 'hash', 'thumbprint', 'riskTier', 'verdict', 'window'] as const).find(
    (k) => checks[k],
  );
  const previewBlocked = blocking
    ? blocking === 'criteria'
      ? 'Fill in a criterion to see what the rule would have matched.'
      : `Fix this first: ${checks[blocking]}`
    : null;
  const previewBody = previewBlocked
    ? null
    : org.withOrg({
        ...criteria,
        verdict: draft.verdict,
        ...(draft.siteId ? { siteId: draft.siteId } : {}),
        // Only a tool-shaped rule is limited to tool actions; a user-only rule matches every kind of request.
        ...(criteria.matchToolName !== null || criteria.matchRiskTier !== null
          ? ({ flowType: 'ai_tool_action' } satisfies Pick<PamRulePreviewBody, 'flowType'>)
          : {}),
      });

  return {
    tools,
    draft,
    set,
    setCrit,
    togglePrefill,
    setNameTouched,
    msg,
    bind,
    errors,
    attempted,
    tierWarning,
    criteria,
    isTool,
    checked,
    subjectOnly,
    dirty,
    save,
    reapprove,
    formRef,
    submit,
    remove,
    doReapprove,
    previewBody,
    previewBlocked,
  };
}

export type RuleFormState = ReturnType<typeof useRuleForm>;
