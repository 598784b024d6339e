import type { ReactNode } from 'react';
import type { AiToolCatalogEntry, SignerGroup } from '../../../../server/contract';
import { plural } from '../../lib/format';
import { Link } from '../../lib/router';
import { Field, LabelOptions, Segmented, TextField } from '../../ui';
import { RISK_TIERS, listTiers, toolOf, type Crit, type FieldKey, type RuleDraft } from './model';

// The rule editor's criterion fields: a criterion with its "is / is not" switch, and the executable and AI-tool
// criteria. The time window is RuleWindowFields, the checklist of a request's values PrefillCard.

// ---- Criterion fields -------------------------------------------------------------------------------------------

export type Msg = (key: FieldKey) => string | undefined;
/** The draft's criterion fields (a value with its "is not" switch). */
export type CritKey = { [K in keyof RuleDraft]: RuleDraft[K] extends Crit ? K : never }[keyof RuleDraft] &
  FieldKey;
export type SetCrit = (key: CritKey, value: Partial<Crit>) => void;

/** What every criterion field reads and writes: the draft, its setter and the messages on screen. */
export interface CritBinding {
  draft: RuleDraft;
  setCrit: SetCrit;
  msg: Msg;
}

export interface CritSpec {
  field: CritKey;
  /** The control's id and test id; the "is not" switch is `rule-negate-<id without rule-match->`. */
  id: string;
  label: string;
  placeholder?: string;
  hint?: ReactNode;
  mono?: boolean;
  ops?: [string, string];
  list?: string;
  /** A select of these <option>s instead of the text input. */
  options?: ReactNode;
}

/** A criterion: label, the "is / is not" switch (matchNegate) and the value. */
export function CritField({
  bind,
  field,
  id,
  label,
  placeholder,
  hint,
  mono,
  ops = ['is', 'is not'],
  list,
  options,
}: CritSpec & { bind: CritBinding }) {
  const crit = bind.draft[field];
  const onChange = (value: Partial<Crit>) => bind.setCrit(field, value);
  const testKey = id.replace(/^rule-match-/, '');
  return (
    <Field label={label} htmlFor={id} error={bind.msg(field)} hint={hint}>
      <div className={`ep-crit${crit.negate ? ' negated' : ''}`}>
        <button
          type="button"
          className="ep-op"
          aria-pressed={crit.negate}
          aria-label={`${label}: ${crit.negate ? ops[1] : ops[0]} (switch to “${crit.negate ? ops[0] : ops[1]}”)`}
          title={
            crit.negate ? `Match when the ${label.toLowerCase()} ${ops[1]} this` : `Switch to “${ops[1]}”`
          }
          onClick={() => onChange({ negate: !crit.negate })}
          data-testid={`rule-negate-${testKey}`}
        >
          {crit.negate ? ops[1] : ops[0]}
        </button>
        {options ? (
          <select
            id={id}
            value={crit.value}
            onChange={(e) => onChange({ value: e.target.value })}
            data-testid={id}
          >
            {options}
          </select>
        ) : (
          <input
            id={id}
            type="text"
            className={mono ? 'mono' : undefined}
            value={crit.value}
            placeholder={placeholder}
            list={list}
            spellCheck={false}
            autoComplete="off"
            onChange={(e) => onChange({ value: e.target.value })}
            data-testid={id}
          />
        )}
      </div>
    </Field>
  );
}

/** Criterion fields side by side. */
export function CritGrid({ bind, specs }: { bind: CritBinding; specs: CritSpec[] }) {
  return (
    <div className="adm-form-grid">
      {specs.map((spec) => (
        <CritField key={spec.id} bind={bind} {...spec} />
      ))}
    </div>
  );
}

const EXECUTABLE_CRITERIA: CritSpec[] = [
  {
    field: 'pathGlob',
    id: 'rule-match-path',
    label: 'Path',
    placeholder: 'C:\\Program Files\\Contoso\\**',
    ops: ['matches', 'does not match'],
    hint: (
      <>
        Glob: <code>*</code> within a folder, <code>**</code> across folders.
      </>
    ),
  },
  {
    field: 'hash',
    id: 'rule-match-hash',
    label: 'SHA-256 hash',
    placeholder: '64 hex characters',
    mono: true,
    hint: 'Pins one exact build of the file.',
  },
  {
    field: 'parentImage',
    id: 'rule-match-parent',
    label: 'Parent process',
    placeholder: 'C:\\Windows\\explorer.exe',
  },
  {
    field: 'commandLine',
    id: 'rule-match-command-line',
    label: 'Command line',
    placeholder: '/quiet',
    ops: ['contains', 'does not contain'],
    hint: 'Case-insensitive; matches anywhere in the command line.',
  },
];

/** Who asks: the user and the AD group, for every shape of rule. */
export const SUBJECT_CRITERIA: CritSpec[] = [
  { field: 'user', id: 'rule-match-user', label: 'User', placeholder: 'CONTOSO\\jdoe' },
  {
    field: 'adGroup',
    id: 'rule-match-ad-group',
    label: 'AD group',
    placeholder: 'CONTOSO\\Developers',
    ops: ['is member of', 'not member of'],
  },
];

const SIGNER_MODES = [
  ['signer', 'By name'],
  ['group', 'Signer group'],
] as const;

export function ExecutableCriteria({
  bind,
  groups,
  groupsLink,
  set,
}: {
  bind: CritBinding;
  groups: SignerGroup[] | null;
  groupsLink: string;
  set: (next: Partial<RuleDraft>, field?: FieldKey) => void;
}) {
  const { draft, msg } = bind;
  const group = groups?.find((g) => g.id === draft.signerGroup.value);
  return (
    <>
      <div className="ep-sub-head">
        Signer
        <Segmented
          small
          label="Signer by"
          options={SIGNER_MODES}
          value={draft.signerMode}
          onChange={(signerMode) => set({ signerMode })}
          testId={(mode) => `rule-signer-mode-${mode}`}
        />
      </div>
      {draft.signerMode === 'group' ? (
        <CritField
          bind={bind}
          field="signerGroup"
          id="rule-match-signer-group"
          label="Signer group"
          ops={['is in', 'is not in']}
          hint={
            groups && groups.length === 0 ? (
              <>
                No signer groups yet. <Link to={groupsLink}>Create one</Link> to match a list of signers.
              </>
            ) : group ? (
              `${plural(group.signers.length, 'signer')}: ${group.signers.slice(0, 4).join(', ')}${group.signers.length > 4 ? ', …' : ''}`
            ) : (
              'A rule uses a signer name or a signer group, never both.'
            )
          }
          options={
            <>
              <option value="">{groups === null ? 'Loading…' : 'Any signer (no group)'}</option>
              {draft.signerGroup.value && groups && !group ? (
                <option value={draft.signerGroup.value}>Deleted group</option>
              ) : null}
              {(groups ?? []).map((g) => (
                <option key={g.id} value={g.id}>
                  {g.name} ({g.signers.length})
                </option>
              ))}
            </>
          }
        />
      ) : (
        <div className="adm-form-grid">
          <CritField
            bind={bind}
            field="signer"
            id="rule-match-signer"
            label="Signer name"
            placeholder="Microsoft Corporation"
            hint="The code-signing subject, as the agent reports it."
          />
          <TextField
            id="rule-match-thumbprint"
            label="Certificate thumbprint"
            error={msg('thumbprint')}
            hint="Optional: pins the signing certificate (SHA-256)."
            type="text"
            className="mono"
            value={draft.thumbprint}
            spellCheck={false}
            autoComplete="off"
            placeholder="64 hex characters"
            onChange={(v) => set({ thumbprint: v }, 'thumbprint')}
          />
        </div>
      )}

      <div className="ep-sub-head">Executable</div>
      <CritGrid bind={bind} specs={EXECUTABLE_CRITERIA} />
    </>
  );
}

export function ToolCriteria({
  bind,
  tools,
  tierWarning,
}: {
  bind: CritBinding;
  tools: AiToolCatalogEntry[];
  /** A stale tier the rule already had: saved as it is, but it can never match. */
  tierWarning: string | null;
}) {
  const { draft } = bind;
  const tool = toolOf(tools, draft.toolName.value);
  const named = draft.toolName.value.trim();
  return (
    <div className="adm-form-grid">
      <CritField
        bind={bind}
        field="toolName"
        id="rule-match-tool"
        label="Tool"
        placeholder="run_powershell"
        mono
        list="ep-ai-tools"
        hint={
          tool
            ? `${tool.description}. Carries ${listTiers(tool.tiers)}.`
            : named
              ? 'Not a tool this server build knows: accepted, but its tiers cannot be checked.'
              : 'Empty: any tool.'
        }
      />
      <datalist id="ep-ai-tools">
        <LabelOptions options={tools.map((t) => ({ value: t.toolName, label: t.description }))} />
      </datalist>
      <CritField
        bind={bind}
        field="riskTier"
        id="rule-match-tier"
        label="Risk tier"
        hint={
          tierWarning ? (
            <span className="tone-warn">{tierWarning}</span>
          ) : (
            'Set by the server build per tool: 0-1 low, 2 medium, 3 high, 4 critical.'
          )
        }
        options={
          <>
            <option value="">Any tier</option>
            {RISK_TIERS.map((t) => {
              const unreachable = tool !== null && !tool.tiers.includes(t);
              return (
                <option key={t} value={String(t)}>
                  Tier {t} · {t <= 1 ? 'low' : t === 2 ? 'medium' : t === 3 ? 'high' : 'critical'}
                  {unreachable ? ` (never for ${tool.toolName})` : ''}
                </option>
              );
            })}
          </>
        }
      />
    </div>
  );
}
