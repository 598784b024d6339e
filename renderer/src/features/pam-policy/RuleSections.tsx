import type { ReactNode } from 'react';
import type { PamRuleListRow, SignerGroup } from '../../../../server/contract';
import { minutesText } from '../approvals';
import { CardHead, LabelOptions, nameChoices, Segmented, SelectField, TextField, Toggle } from '../../ui';
import { DURATION_MAX, NAME_MAX, VERDICTS, type RuleDraft } from './model';
import type { PolicyOrg } from './org';
import { CritGrid, ExecutableCriteria, SUBJECT_CRITERIA, ToolCriteria } from './RuleFields';
import { WindowFields } from './RuleWindowFields';
import type { RuleFormState } from './useRuleForm';

// The cards of the rule form, top to bottom: its name, the requests it matches, where and when it applies, and
// what it decides. Each renders the one state model (useRuleForm) it is given.

const SHAPES = [
  ['executable', 'Executable'],
  ['tool', 'AI tool action'],
] as const;

export function NameSection({ form, autoFocus }: { form: RuleFormState; autoFocus: boolean }) {
  const { draft, msg, set, setNameTouched } = form;
  return (
    <RuleCard>
      <TextField
        id="rule-name"
        label="Name"
        error={msg('name')}
        value={draft.name}
        maxLength={NAME_MAX + 20}
        onChange={(v) => {
          setNameTouched(true);
          set({ name: v }, 'name');
        }}
        placeholder="Allow signed installers from Contoso"
        autoFocus={autoFocus}
      />
    </RuleCard>
  );
}

export function MatchSection({
  form,
  groups,
  groupsLink,
}: {
  form: RuleFormState;
  /** The organization's signer groups (null while loading). */
  groups: SignerGroup[] | null;
  groupsLink: string;
}) {
  const { draft, set, msg, bind, tools, tierWarning, isTool, subjectOnly } = form;
  return (
    <RuleCard
      title="Requests it matches"
      head={
        <Segmented
          label="Rule shape"
          options={SHAPES}
          value={draft.shape}
          onChange={(shape) => set({ shape })}
          testId={(shape) => `rule-shape-${shape}`}
        />
      }
    >
      <p className="muted small ep-card-lead">
        {isTool
          ? 'Matches actions an AI assistant asks to run on a device, by tool and risk tier.'
          : 'Matches UAC prompts and technician admin sessions by what is being run. Every filled-in criterion must hold; empty ones are ignored.'}{' '}
        “is not” inverts a criterion; an inverted criterion never matches a request that lacks the value.
      </p>

      {msg('criteria') ? (
        <div className="field-error ep-criteria-error" data-testid="rule-criteria-error">
          {msg('criteria')}
        </div>
      ) : null}

      {isTool ? (
        <ToolCriteria bind={bind} tools={tools} tierWarning={tierWarning} />
      ) : (
        <ExecutableCriteria bind={bind} groups={groups} groupsLink={groupsLink} set={set} />
      )}

      <div className="ep-sub-head">Who</div>
      {subjectOnly ? (
        <p className="small tone-warn" data-testid="rule-subject-only">
          Only a user or group: the rule matches every kind of request from them, UAC prompts, technician
          admin sessions and AI tool actions alike.
        </p>
      ) : null}
      <CritGrid bind={bind} specs={SUBJECT_CRITERIA} />
    </RuleCard>
  );
}

export function PlaceSection({ form, org }: { form: RuleFormState; org: PolicyOrg }) {
  const { draft, set, msg } = form;
  return (
    <RuleCard title="Where and when">
      <div className="adm-form-grid">
        <SiteSelect form={form} org={org} />
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
    </RuleCard>
  );
}

/** The rule's site: the whole organization, one of its sites, or (kept as saved) a site the caller cannot see. */
function SiteSelect({ form: { draft, set }, org }: { form: RuleFormState; org: PolicyOrg }) {
  const orgName = org.org?.name ?? 'this organization';
  return (
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
  );
}

export function DecisionSection({
  form,
  defaultMinutes,
  all,
  selfId,
}: {
  form: RuleFormState;
  /** The organization's default approval duration (null while loading). */
  defaultMinutes: number | null;
  all: PamRuleListRow[];
  /** The rule being edited, left out of the priority hint (null: a new rule). */
  selfId: string | null;
}) {
  const { draft, set, msg, isTool } = form;
  const decides = draft.verdict === 'auto_approve' || draft.verdict === 'require_approval';
  return (
    <RuleCard title="Decision">
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
        <TextField
          id="rule-duration"
          label="Approval duration"
          error={msg('duration')}
          hint={
            decides
              ? `Minutes the elevation lasts once approved (1-${DURATION_MAX}). Empty: the organization default${defaultMinutes !== null ? `, ${minutesText(defaultMinutes)}` : ''}.`
              : 'Only for rules that approve or ask for approval.'
          }
          type="number"
          min={1}
          max={DURATION_MAX}
          inputMode="numeric"
          value={decides ? draft.duration : ''}
          disabled={!decides}
          placeholder={defaultMinutes !== null ? `Default · ${defaultMinutes}` : 'Default'}
          onChange={(v) => set({ duration: v }, 'duration')}
        />
        <TextField
          id="rule-priority"
          label="Priority"
          error={msg('priority')}
          hint={priorityHint(draft.priority, all, selfId)}
          type="number"
          inputMode="numeric"
          value={draft.priority}
          onChange={(v) => set({ priority: v }, 'priority')}
        />
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
    </RuleCard>
  );
}

/** One card of the rule form: its title (with what the head carries beside it) over its fields. */
function RuleCard({ title, head, children }: { title?: string; head?: ReactNode; children: ReactNode }) {
  return (
    <section className="card ep-card">
      {title ? <CardHead title={title}>{head}</CardHead> : null}
      {children}
    </section>
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
