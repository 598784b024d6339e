import { useMemo, type ReactNode } from 'react';
import type { AiToolCatalogEntry, ElevationRequest, SignerGroup } from '../../../../server/contract';
import { Field } from '../../components/ui';
import { Link } from '../../router';
import { timeZones } from '../tenants/admin-kit';
import { compactTime } from '../devices/parts';
import {
  DAY_SHORT,
  RISK_TIERS,
  WEEK_ORDER,
  listTiers,
  prefillItems,
  toolOf,
  type Crit,
  type FieldKey,
  type PrefillKey,
  type RuleDraft,
} from './model';
import { FLOW_LABEL } from './RulePreview';

// The rule editor's field groups: a criterion with its "is / is not" switch, the executable and AI-tool criteria,
// the time window, and the checklist of a request's values when the rule is made from one.

// ---- Criterion fields -------------------------------------------------------------------------------------------

export type Msg = (key: FieldKey) => string | undefined;
export type SetCrit = (key: keyof RuleDraft & FieldKey, value: Partial<Crit>) => void;

/** A criterion: label, the "is / is not" switch (matchNegate) and the value. */
export function CritField({
  id,
  label,
  crit,
  onChange,
  placeholder,
  hint,
  error,
  mono,
  ops = ['is', 'is not'],
  list,
  children,
}: {
  id: string;
  label: string;
  crit: Crit;
  onChange: (value: Partial<Crit>) => void;
  placeholder?: string;
  hint?: ReactNode;
  error?: string;
  mono?: boolean;
  ops?: [string, string];
  list?: string;
  /** A control instead of the text input (e.g. a select). */
  children?: ReactNode;
}) {
  const testKey = id.replace(/^rule-match-/, '');
  return (
    <Field label={label} htmlFor={id} error={error} hint={hint}>
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
        {children ?? (
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

export function ExecutableCriteria({
  draft,
  groups,
  groupsLink,
  set,
  setCrit,
  msg,
}: {
  draft: RuleDraft;
  groups: SignerGroup[] | null;
  groupsLink: string;
  set: (next: Partial<RuleDraft>, field?: FieldKey) => void;
  setCrit: SetCrit;
  msg: Msg;
}) {
  const byGroup = draft.signerMode === 'group';
  const group = groups?.find((g) => g.id === draft.signerGroup.value);
  return (
    <>
      <div className="ep-sub-head">
        Signer
        <div className="ep-segmented small" role="radiogroup" aria-label="Signer by">
          {(
            [
              ['signer', 'By name'],
              ['group', 'Signer group'],
            ] as const
          ).map(([value, label]) => (
            <button
              key={value}
              type="button"
              role="radio"
              aria-checked={draft.signerMode === value}
              className={draft.signerMode === value ? 'on' : undefined}
              onClick={() => set({ signerMode: value })}
              data-testid={`rule-signer-mode-${value}`}
            >
              {label}
            </button>
          ))}
        </div>
      </div>
      {byGroup ? (
        <CritField
          id="rule-match-signer-group"
          label="Signer group"
          crit={draft.signerGroup}
          onChange={(v) => setCrit('signerGroup', v)}
          error={msg('signerGroup')}
          ops={['is in', 'is not in']}
          hint={
            groups && groups.length === 0 ? (
              <>
                No signer groups yet. <Link to={groupsLink}>Create one</Link> to match a list of signers.
              </>
            ) : group ? (
              `${group.signers.length} signer${group.signers.length === 1 ? '' : 's'}: ${group.signers.slice(0, 4).join(', ')}${group.signers.length > 4 ? ', …' : ''}`
            ) : (
              'A rule uses a signer name or a signer group, never both.'
            )
          }
        >
          <select
            id="rule-match-signer-group"
            value={draft.signerGroup.value}
            onChange={(e) => setCrit('signerGroup', { value: e.target.value })}
            data-testid="rule-match-signer-group"
          >
            <option value="">{groups === null ? 'Loading…' : 'Any signer (no group)'}</option>
            {draft.signerGroup.value && groups && !group ? (
              <option value={draft.signerGroup.value}>Deleted group</option>
            ) : null}
            {(groups ?? []).map((g) => (
              <option key={g.id} value={g.id}>
                {g.name} ({g.signers.length})
              </option>
            ))}
          </select>
        </CritField>
      ) : (
        <div className="adm-form-grid">
          <CritField
            id="rule-match-signer"
            label="Signer name"
            crit={draft.signer}
            onChange={(v) => setCrit('signer', v)}
            placeholder="Microsoft Corporation"
            error={msg('signer')}
            hint="The code-signing subject, as the agent reports it."
          />
          <Field
            label="Certificate thumbprint"
            htmlFor="rule-match-thumbprint"
            error={msg('thumbprint')}
            hint="Optional: pins the signing certificate (SHA-256)."
          >
            <input
              id="rule-match-thumbprint"
              type="text"
              className="mono"
              value={draft.thumbprint}
              spellCheck={false}
              autoComplete="off"
              placeholder="64 hex characters"
              onChange={(e) => set({ thumbprint: e.target.value }, 'thumbprint')}
              data-testid="rule-match-thumbprint"
            />
          </Field>
        </div>
      )}

      <div className="ep-sub-head">Executable</div>
      <div className="adm-form-grid">
        <CritField
          id="rule-match-path"
          label="Path"
          crit={draft.pathGlob}
          onChange={(v) => setCrit('pathGlob', v)}
          placeholder="C:\Program Files\Contoso\**"
          error={msg('pathGlob')}
          ops={['matches', 'does not match']}
          hint={
            <>
              Glob: <code>*</code> within a folder, <code>**</code> across folders.
            </>
          }
        />
        <CritField
          id="rule-match-hash"
          label="SHA-256 hash"
          crit={draft.hash}
          onChange={(v) => setCrit('hash', v)}
          placeholder="64 hex characters"
          error={msg('hash')}
          mono
          hint="Pins one exact build of the file."
        />
        <CritField
          id="rule-match-parent"
          label="Parent process"
          crit={draft.parentImage}
          onChange={(v) => setCrit('parentImage', v)}
          placeholder="C:\Windows\explorer.exe"
          error={msg('parentImage')}
        />
        <CritField
          id="rule-match-command-line"
          label="Command line"
          crit={draft.commandLine}
          onChange={(v) => setCrit('commandLine', v)}
          placeholder="/quiet"
          error={msg('commandLine')}
          ops={['contains', 'does not contain']}
          hint="Case-insensitive; matches anywhere in the command line."
        />
      </div>
    </>
  );
}

export function ToolCriteria({
  draft,
  tools,
  setCrit,
  msg,
  tierWarning,
}: {
  draft: RuleDraft;
  tools: AiToolCatalogEntry[];
  setCrit: SetCrit;
  msg: Msg;
  /** A stale tier the rule already had: saved as it is, but it can never match. */
  tierWarning: string | null;
}) {
  const tool = toolOf(tools, draft.toolName.value);
  const named = draft.toolName.value.trim();
  return (
    <div className="adm-form-grid">
      <CritField
        id="rule-match-tool"
        label="Tool"
        crit={draft.toolName}
        onChange={(v) => setCrit('toolName', v)}
        placeholder="run_powershell"
        error={msg('toolName')}
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
        {tools.map((t) => (
          <option key={t.toolName} value={t.toolName}>
            {t.description}
          </option>
        ))}
      </datalist>
      <CritField
        id="rule-match-tier"
        label="Risk tier"
        crit={draft.riskTier}
        onChange={(v) => setCrit('riskTier', v)}
        error={msg('riskTier')}
        hint={
          tierWarning ? (
            <span className="tone-warn">{tierWarning}</span>
          ) : (
            'Set by the server build per tool: 0-1 low, 2 medium, 3 high, 4 critical.'
          )
        }
      >
        <select
          id="rule-match-tier"
          value={draft.riskTier.value}
          onChange={(e) => setCrit('riskTier', { value: e.target.value })}
          data-testid="rule-match-tier"
        >
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
        </select>
      </CritField>
    </div>
  );
}

export function WindowFields({
  draft,
  set,
  error,
}: {
  draft: RuleDraft;
  set: (next: Partial<RuleDraft>, field?: FieldKey) => void;
  error?: string;
}) {
  const zones = useMemo(() => {
    const list = timeZones();
    return list.includes(draft.windowTimezone) ? list : [draft.windowTimezone, ...list];
  }, [draft.windowTimezone]);
  const overnight = draft.windowEnd < draft.windowStart;
  return (
    <div className={`ep-window${error ? ' has-error' : ''}`} data-testid="rule-window-fields">
      <div className="ep-window-row">
        <label className="ep-inline">
          <span className="muted small">From</span>
          <input
            type="time"
            value={draft.windowStart}
            onChange={(e) => set({ windowStart: e.target.value }, 'window')}
            data-testid="rule-window-start"
          />
        </label>
        <label className="ep-inline">
          <span className="muted small">to</span>
          <input
            type="time"
            value={draft.windowEnd}
            onChange={(e) => set({ windowEnd: e.target.value }, 'window')}
            data-testid="rule-window-end"
          />
        </label>
        <label className="ep-inline ep-zone">
          <span className="muted small">in</span>
          <select
            value={draft.windowTimezone}
            onChange={(e) => set({ windowTimezone: e.target.value }, 'window')}
            aria-label="Time zone"
            data-testid="rule-window-timezone"
          >
            {zones.map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="ep-days" role="group" aria-label="Days">
        {WEEK_ORDER.map((d) => {
          const on = draft.windowDays.includes(d);
          return (
            <button
              key={d}
              type="button"
              aria-pressed={on}
              className={`ep-day${on ? ' on' : ''}`}
              onClick={() =>
                set(
                  { windowDays: on ? draft.windowDays.filter((x) => x !== d) : [...draft.windowDays, d] },
                  'window',
                )
              }
              data-testid={`rule-window-day-${d}`}
            >
              {DAY_SHORT[d]}
            </button>
          );
        })}
        <span className="muted small ep-days-hint">
          {overnight ? 'Ends before it starts: runs over midnight, counted from the start day.' : null}
        </span>
      </div>
      {error ? <div className="field-error">{error}</div> : null}
    </div>
  );
}

// ---- Prefill from a request --------------------------------------------------------------------------------------

export function PrefillCard({
  request,
  checked,
  onToggle,
}: {
  request: ElevationRequest;
  checked: ReadonlySet<PrefillKey>;
  onToggle: (key: PrefillKey, on: boolean) => void;
}) {
  const items = prefillItems(request);
  return (
    <section className="ep-card ep-prefill" data-testid="rule-prefill">
      <header className="ep-card-head">
        <h2>From request</h2>
        <Link to={`/approvals/${request.id}`} className="small">
          {request.deviceHostname} · {FLOW_LABEL[request.flowType]} · {compactTime(request.requestedAt)}
        </Link>
      </header>
      <p className="muted small ep-card-lead">
        Keep what identifies what should be decided the same way next time. Fewer criteria match more
        requests: watch the preview.
      </p>
      {items.length === 0 ? (
        <p className="muted small">The request carries nothing a rule could match on.</p>
      ) : (
        <ul className="ep-prefill-list">
          {items.map((item) => (
            <li key={item.key}>
              <label>
                <input
                  type="checkbox"
                  checked={checked.has(item.key)}
                  onChange={(e) => onToggle(item.key, e.target.checked)}
                  data-testid={`rule-prefill-${item.key}`}
                />
                <span className="ep-prefill-label">{item.label}</span>
                <span
                  className={`ep-prefill-value${item.key === 'hash' || item.key === 'thumbprint' ? ' mono' : ''}`}
                  title={item.display}
                >
                  {item.display}
                </span>
              </label>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
