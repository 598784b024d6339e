// Over 400 lines: RuleForm is one form whose sections share one draft, its validation, the server's field errors and the live preview; its fields (RuleFields), preview (RulePreview), prefill (prefill.ts) and model live beside it.
import { useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { ElevationRequest, PamRule, PamRuleListRow } from '../../../../server/contract';
import { ApiError } from '../../lib/errors';
import { ActionError } from '../../ui/ActionError';
import { ConfirmAction } from '../../ui/DialogActions';
import { Icon } from '../../ui/Icon';
import { LoadState } from '../../ui';
import { Alert, Field } from '../../ui/basics';
import { useAsyncAction } from '../../lib/action';
import { useDocumentTitle } from '../../lib/hooks';
import { Link, navigate, useRouter } from '../../lib/router';
import { EmptyState, LabelOptions, LoadingBlock, PageHeader, Toggle } from '../../ui';
import { compactTime } from '../../lib/format';
import { minutesText } from '../approvals';
import {
  pamPolicyApi,
  useAiTools,
  useElevationRequest,
  usePamConfig,
  useRule,
  useRules,
  useSignerGroups,
} from './api';
import { RULES_FORBIDDEN } from './parts';
import {
  DURATION_MAX,
  NAME_MAX,
  VERDICTS,
  VERDICT_LABEL,
  bodyOf,
  changedFields,
  criteriaOf,
  draftOf,
  emptyDraft,
  listTiers,
  validate,
  type FieldKey,
  type RuleDraft,
} from './model';
import {
  applyPrefill,
  defaultPrefill,
  prefillChecked,
  prefillItems,
  prefillName,
  prefillOne,
  type PrefillKey,
} from './prefill';
import type { PolicyOrg } from './org';
import { RulePreview } from './RulePreview';
import { CardHead, Segmented, SelectField, nameChoices } from '../../ui';
import {
  CritGrid,
  ExecutableCriteria,
  PrefillCard,
  SUBJECT_CRITERIA,
  ToolCriteria,
  WindowFields,
  type CritBinding,
  type SetCrit,
} from './RuleFields';

// /pam/rules/new, /pam/rules/new?fromRequest=<id>, /pam/rules/new?copyOf=<id> and /pam/rules/<id>: one rule,
// checked as it is typed against the spec's rule validation, with its preview against history beside it.

export function RuleEditor({ ruleId, org }: { ruleId: string | null; org: PolicyOrg }) {
  const search = useRouter((s) => s.search);
  const params = new URLSearchParams(search);
  const fromRequest = ruleId ? null : params.get('fromRequest');
  const copyOf = ruleId ? null : params.get('copyOf');
  const signerGroup = ruleId ? null : params.get('signerGroup');
  const sourceId = ruleId ?? copyOf;
  const request = useElevationRequest(fromRequest);
  const source = useRule(sourceId);
  // The organization the rule belongs to: the request's or the rule's, whatever the picker showed before.
  const ownerOrg = request.data?.request.orgId ?? source.data?.orgId ?? null;
  const { picks, orgId, setOrgId } = org;

  useEffect(() => {
    if (picks && ownerOrg && ownerOrg !== orgId) setOrgId(ownerOrg);
  }, [picks, ownerOrg, orgId, setOrgId]);

  const rules = useRules(org);
  const back = org.link('/pam/rules');
  const title = ruleId ? 'Rule' : 'New rule';
  const shell = (body: ReactNode) => (
    <div className="page adm ep-page">
      <PageHeader title={title} back={{ to: back, label: 'Rules' }} />
      {body}
    </div>
  );

  if (fromRequest && request.error && !request.data)
    return shell(
      request.error instanceof ApiError && request.error.status === 404 ? (
        <EmptyState icon="approvals" title="No such request" testId="rule-request-missing">
          The request to build the rule from was not found, or it belongs to an organization outside your
          access. <Link to={org.link('/pam/rules/new')}>Start an empty rule</Link> instead.
        </EmptyState>
      ) : (
        <LoadState of={request} forbidden={REQUEST_FORBIDDEN} />
      ),
    );
  if (sourceId && source.error && !source.data)
    return shell(
      source.error instanceof ApiError && (source.error.status === 404 || source.error.status === 400) ? (
        <EmptyState icon="lock" title="No such rule" testId="rule-not-found">
          It was deleted, or it belongs to an organization outside your access.{' '}
          <Link to={back}>Back to the rules</Link>
        </EmptyState>
      ) : (
        <LoadState of={source} forbidden={RULE_FORBIDDEN} />
      ),
    );
  if (rules.error && !rules.data) return shell(<LoadState of={rules} forbidden={RULES_FORBIDDEN} />);
  const waitingForOrg = ownerOrg !== null && picks && ownerOrg !== orgId;
  if (
    !org.loaded ||
    !org.orgId ||
    !rules.data ||
    (fromRequest && !request.data) ||
    (sourceId && !source.data) ||
    waitingForOrg
  )
    return shell(<LoadingBlock label="Loading…" />);

  const all = rules.data.rules;
  const rule = ruleId ? (source.data ?? null) : null;
  const copy = copyOf ? (source.data ?? null) : null;
  return (
    <RuleForm
      key={`${org.orgId}:${rule?.updatedAt ?? 'new'}:${fromRequest ?? ''}:${copy?.id ?? ''}:${signerGroup ?? ''}`}
      org={org}
      rule={rule}
      listRow={rule ? (all.find((r) => r.id === rule.id) ?? null) : null}
      copy={copy}
      signerGroup={signerGroup}
      request={request.data?.request ?? null}
      all={all}
      onChanged={() => {
        source.reload();
        rules.reload();
      }}
    />
  );
}

const REQUEST_FORBIDDEN = {
  title: 'This request is not available to you',
  text: 'Your account cannot read it.',
};
const RULE_FORBIDDEN = {
  title: 'This rule is not available to you',
  text: 'It belongs to a site or organization outside your access.',
};

const SHAPES = [
  ['executable', 'Executable'],
  ['tool', 'AI tool action'],
] as const;

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

function RuleForm({
  org,
  rule,
  listRow,
  copy,
  signerGroup,
  request,
  all,
  onChanged,
}: {
  org: PolicyOrg;
  rule: PamRule | null;
  /** The rule's row in the list: it alone says whether a pinned tier went stale. */
  listRow: PamRuleListRow | null;
  copy: PamRule | null;
  signerGroup: string | null;
  request: ElevationRequest | null;
  all: PamRuleListRow[];
  onChanged: () => void;
}) {
  useDocumentTitle(rule ? rule.name : 'New rule');
  const tools = useAiTools();
  const groups = useSignerGroups(org);
  const config = usePamConfig(org);
  const [draft, setDraft] = useState(() => initialDraft(rule, copy, request, signerGroup));
  const [nameTouched, setNameTouched] = useState(rule !== null || copy !== null);
  const [attempted, setAttempted] = useState(false);
  const [serverField, setServerField] = useState<FieldKey | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
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
          if (patch && Object.keys(patch).length > 0)
            await pamPolicyApi.updateRule(rule.id, patch);
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
          ? { flowType: 'ai_tool_action' }
          : {}),
      });

  const orgName = org.org?.name ?? 'this organization';
  const defaultMinutes = config.data?.config.defaultApprovalDurationMinutes ?? null;
  const decides = draft.verdict === 'auto_approve' || draft.verdict === 'require_approval';

  return (
    <div className="page adm ep-page ep-editor-page">
      <PageHeader
        title={rule ? rule.name : 'New rule'}
        back={{ to: org.link('/pam/rules'), label: 'Rules' }}
        sub={
          <>
            {orgName}
            {rule ? (
              <>
                {' '}
                · updated {compactTime(rule.updatedAt)}
                {dirty ? <span className="ep-dirty"> · unsaved changes</span> : null}
              </>
            ) : (
              ' · requests are checked against rules in priority order; the first match decides'
            )}
          </>
        }
        actions={
          rule ? (
            <button
              type="button"
              className="btn btn-danger btn-sm"
              onClick={() => setConfirmDelete(true)}
              data-testid="rule-delete"
            >
              <Icon name="trash" size={14} />
              Delete
            </button>
          ) : null
        }
      />

      {rule?.suspendedVerdict ? (
        <Alert tone="warning" testId="rule-suspended">
          A server release suspended this rule: it was <strong>{VERDICT_LABEL[rule.suspendedVerdict]}</strong>{' '}
          and decides as <strong>{VERDICT_LABEL[rule.verdict]}</strong> until someone re-approves it. Check
          the criteria, then{' '}
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={doReapprove}
            disabled={reapprove.busy}
            data-testid="rule-reapprove"
          >
            {reapprove.busy ? 'Re-approving…' : `Re-approve as ${VERDICT_LABEL[rule.suspendedVerdict]}`}
          </button>{' '}
          — or choose another verdict below and save.
          <ActionError error={reapprove.error} testId="rule-reapprove-error" />
        </Alert>
      ) : null}
      {listRow?.matchRiskTierStale ? (
        <Alert tone="warning" testId="rule-stale">
          Tier {listRow.matchRiskTier} can no longer match: in this server build the tool carries{' '}
          {listRow.matchRiskTierValidTiers ? listTiers(listRow.matchRiskTierValidTiers) : 'other tiers'}.
          Change the tier (or clear it) to make the rule useful again.
        </Alert>
      ) : null}

      <div className="ep-editor">
        <form
          ref={formRef}
          id="rule-form"
          className="ep-editor-main"
          onSubmit={submit}
          noValidate
          data-testid="rule-form"
        >
          {request ? <PrefillCard request={request} checked={checked} onToggle={togglePrefill} /> : null}

          <section className="card ep-card">
            <Field label="Name" htmlFor="rule-name" error={msg('name')}>
              <input
                id="rule-name"
                type="text"
                value={draft.name}
                maxLength={NAME_MAX + 20}
                onChange={(e) => {
                  setNameTouched(true);
                  set({ name: e.target.value }, 'name');
                }}
                placeholder="Allow signed installers from Contoso"
                data-testid="rule-name"
                autoFocus={!rule && !request}
              />
            </Field>
          </section>

          <section className="card ep-card">
            <CardHead title="Requests it matches">
              <Segmented
                label="Rule shape"
                options={SHAPES}
                value={draft.shape}
                onChange={(shape) => set({ shape })}
                testId={(shape) => `rule-shape-${shape}`}
              />
            </CardHead>
            <p className="muted small ep-card-lead">
              {isTool
                ? 'Matches actions an AI assistant asks to run on a device, by tool and risk tier.'
                : 'Matches UAC prompts and technician admin sessions by what is being run. Every filled-in criterion must hold; empty ones are ignored.'}{' '}
              “is not” inverts a criterion; an inverted criterion never matches a request that lacks the
              value.
            </p>

            {msg('criteria') ? (
              <div className="field-error ep-criteria-error" data-testid="rule-criteria-error">
                {msg('criteria')}
              </div>
            ) : null}

            {isTool ? (
              <ToolCriteria bind={bind} tools={tools} tierWarning={tierWarning} />
            ) : (
              <ExecutableCriteria
                bind={bind}
                groups={groups.data?.signerGroups ?? null}
                groupsLink={org.link('/pam/signer-groups')}
                set={set}
              />
            )}

            <div className="ep-sub-head">Who</div>
            {subjectOnly ? (
              <p className="small tone-warn" data-testid="rule-subject-only">
                Only a user or group: the rule matches every kind of request from them, UAC prompts,
                technician admin sessions and AI tool actions alike.
              </p>
            ) : null}
            <CritGrid bind={bind} specs={SUBJECT_CRITERIA} />
          </section>

          <section className="card ep-card">
            <CardHead title="Where and when" />
            <div className="adm-form-grid">
              <SelectField
                id="rule-site"
                label="Site"
                value={draft.siteId}
                onChange={(siteId) => set({ siteId })}
                hint={draft.siteId ? 'Only requests from devices at this site.' : `Every site of ${orgName}.`}
              >
                <option value="">Whole organization</option>
                {draft.siteId && !org.sites.some((s) => s.id === draft.siteId) ? (
                  <option value={draft.siteId}>A site outside your access</option>
                ) : null}
                <LabelOptions options={nameChoices(org.sites)} />
              </SelectField>
              <div />
            </div>
            <Toggle
              id="rule-window"
              checked={draft.windowOn}
              onChange={(windowOn) => set({ windowOn }, 'window')}
              label="Only during a time window"
              hint="Outside the window the rule does not match, and the next rule (or the default) decides."
            />
            {draft.windowOn ? <WindowFields draft={draft} set={set} error={msg('window')} /> : null}
          </section>

          <section className="card ep-card">
            <CardHead title="Decision" />
            <div className="adm-form-grid">
              <SelectField
                id="rule-verdict"
                label="Verdict"
                value={draft.verdict}
                onChange={(verdict) => set({ verdict: verdict as RuleDraft['verdict'] }, 'verdict')}
                error={msg('verdict')}
                hint={VERDICTS.find((v) => v.value === draft.verdict)?.desc}
              >
                {VERDICTS.map((v) => (
                  <option key={v.value} value={v.value} disabled={v.value === 'ignore' && isTool}>
                    {v.label}
                    {v.value === 'ignore' && isTool ? ' (not for AI tool actions)' : ''}
                  </option>
                ))}
              </SelectField>
              <Field
                label="Approval duration"
                htmlFor="rule-duration"
                error={msg('duration')}
                hint={
                  decides
                    ? `Minutes the elevation lasts once approved (1-${DURATION_MAX}). Empty: the organization default${defaultMinutes !== null ? `, ${minutesText(defaultMinutes)}` : ''}.`
                    : 'Only for rules that approve or ask for approval.'
                }
              >
                <input
                  id="rule-duration"
                  type="number"
                  min={1}
                  max={DURATION_MAX}
                  inputMode="numeric"
                  value={decides ? draft.duration : ''}
                  disabled={!decides}
                  placeholder={defaultMinutes !== null ? `Default · ${defaultMinutes}` : 'Default'}
                  onChange={(e) => set({ duration: e.target.value }, 'duration')}
                  data-testid="rule-duration"
                />
              </Field>
              <Field
                label="Priority"
                htmlFor="rule-priority"
                error={msg('priority')}
                hint={priorityHint(draft.priority, all, rule?.id ?? null)}
              >
                <input
                  id="rule-priority"
                  type="number"
                  inputMode="numeric"
                  value={draft.priority}
                  onChange={(e) => set({ priority: e.target.value }, 'priority')}
                  data-testid="rule-priority"
                />
              </Field>
              <div className="ep-enabled">
                <Toggle
                  id="rule-enabled"
                  checked={draft.enabled}
                  onChange={(enabled) => set({ enabled })}
                  label="Enabled"
                  hint={draft.enabled ? 'Decides matching requests.' : 'Saved but skipped when deciding.'}
                />
              </div>
            </div>
          </section>
        </form>

        <div className="ep-side">
          <div className="ep-actions" data-testid="rule-actions">
            <div className="ep-actions-row">
              <Link to={org.link('/pam/rules')} className="btn btn-ghost">
                Cancel
              </Link>
              <button
                type="submit"
                form="rule-form"
                className="btn btn-primary"
                disabled={save.busy || (rule !== null && !dirty)}
                data-testid="rule-save"
              >
                {save.busy ? 'Saving…' : rule ? 'Save changes' : 'Create rule'}
              </button>
            </div>
            {save.error ? (
              <ActionError error={save.error} testId="rule-error" />
            ) : attempted && Object.keys(errors).length > 0 ? (
              <span className="field-error" data-testid="rule-invalid">
                {Object.keys(errors).length === 1
                  ? 'One field needs attention before saving.'
                  : `${Object.keys(errors).length} fields need attention before saving.`}
              </span>
            ) : (
              <span className="muted small">
                {rule
                  ? dirty
                    ? 'Unsaved changes: they apply to the next request once saved.'
                    : 'No unsaved changes.'
                  : 'The rule applies to the next request once it is created.'}
              </span>
            )}
          </div>
          <RulePreview body={previewBody} blocked={previewBlocked} verdict={draft.verdict} />
        </div>
      </div>

      <ConfirmAction
        open={confirmDelete}
        title="Delete rule"
        confirmLabel="Delete rule"
        testId="rule-delete-dialog"
        onCancel={() => setConfirmDelete(false)}
        onConfirm={remove}
      >
        <p>
          Delete <strong>{rule?.name}</strong>? Requests it would decide fall through to the next matching
          rule, or to the organization default. Past decisions keep its name.
        </p>
      </ConfirmAction>
    </div>
  );
}

function priorityHint(value: string, all: PamRuleListRow[], selfId: string | null): string {
  const p = Number(value.trim() || '100');
  if (!Number.isFinite(p)) return 'Lower runs first.';
  const others = all.filter((r) => r.id !== selfId);
  if (others.length === 0) return 'Lower runs first. This is the only rule.';
  const same = others.filter((r) => r.priority === p);
  const before = others.filter((r) => r.priority < p).pop();
  const after = others.find((r) => r.priority > p);
  const parts: string[] = [];
  if (same.length)
    parts.push(`same priority as “${same[0]?.name}”${same.length > 1 ? ` and ${same.length - 1} more` : ''}`);
  if (before) parts.push(`after “${before.name}” (${before.priority})`);
  else if (!same.length) parts.push('first of all rules');
  if (after) parts.push(`before “${after.name}” (${after.priority})`);
  return `Lower runs first. Runs ${parts.join(', ')}.`;
}
