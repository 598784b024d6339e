import { useMemo, useState } from 'react';
import type { PamRuleListRow } from '../../../../server/contract';
import { ActionError } from '../../ui/ActionError';
import { AdminTable, ButtonLink, LoadState, SmallButton } from '../../ui';
import { ConfirmTarget, DeleteTarget } from '../../ui/DialogActions';
import { Icon } from '../../ui/Icon';
import { Alert } from '../../ui/basics';
import { useAsyncAction } from '../../lib/action';
import { Link, navigate, useRouter } from '../../lib/router';
import { EmptyState, RowActions, rowAction } from '../../ui';
import { useTarget } from '../../lib/hooks';
import { minutesText } from '../approvals';
import { plural } from '../../lib/format';
import { pamPolicyApi, usePamConfig, useRules, useSignerGroups } from './api';
import { VERDICT_LABEL, criteriaParts, listTiers, windowLabel, type SummaryPart } from './model';
import type { PolicyOrg } from './org';
import { ListCount, ListToolbar, NoMatchRow, RowSwitch } from '../../ui';
import { RULES_FORBIDDEN, VerdictPill } from './parts';
import { useRowSearch } from '../../lib/row-search';
import { writeTarget } from '../../lib/hooks';

// /pam/rules: the organization's rules in the order they run. The first enabled rule that matches decides; the
// organization default decides the rest (shown under the table, so the whole chain reads top to bottom).

export function RulesView({ org }: { org: PolicyOrg }) {
  const rules = useRules(org);
  const groups = useSignerGroups(org);
  const config = usePamConfig(org);
  const search = useRouter((s) => s.search);
  const savedId = new URLSearchParams(search).get('saved');
  const toggle = useAsyncAction();
  const [toggleFor, setToggleFor] = useState<string | null>(null);
  const [pending, setPending] = useState<Record<string, boolean>>({});
  const deleting = useTarget<PamRuleListRow>();
  const reapproving = useTarget<PamRuleListRow>();

  const groupName = useMemo(() => {
    const names = new Map((groups.data?.signerGroups ?? []).map((g) => [g.id, g.name]));
    return (id: string) => names.get(id) ?? null;
  }, [groups.data]);
  const siteName = (id: string) => org.sites.find((s) => s.id === id)?.name ?? 'One site';

  const all = useMemo(() => rules.data?.rules ?? [], [rules.data]);
  const summaries = useMemo(
    () => new Map(all.map((r) => [r.id, criteriaParts(r, groupName)])),
    [all, groupName],
  );
  const { rows, search: rowSearch } = useRowSearch(all, (r) => [
    r.name,
    ...(summaries.get(r.id) ?? []).map((p) => p.text),
  ]);
  const defaultMinutes = config.data?.config.defaultApprovalDurationMinutes ?? null;
  const disabledCount = all.filter((r) => !r.enabled).length;
  const suspended = all.filter((r) => r.suspendedVerdict !== null);
  const stale = all.filter((r) => r.matchRiskTierStale);
  const savedRule = savedId ? all.find((r) => r.id === savedId) : undefined;

  const setEnabled = (rule: PamRuleListRow, enabled: boolean) => {
    setToggleFor(rule.name);
    setPending((p) => ({ ...p, [rule.id]: enabled }));
    void toggle
      .run(async () => {
        await pamPolicyApi.updateRule(rule.id, { enabled });
        rules.reload();
      })
      .finally(() =>
        setPending((p) => {
          const next = { ...p };
          delete next[rule.id];
          return next;
        }),
      );
  };

  const remove = writeTarget(deleting, (r) => pamPolicyApi.deleteRule(r.id), rules.reload);
  const reapprove = writeTarget(
    reapproving,
    (r) => pamPolicyApi.updateRule(r.id, { reapprove: true }),
    rules.reload,
  );

  const newRule = (
    <ButtonLink
      to={org.link('/pam/rules/new')}
      tone="primary"
      icon="plus"
      iconSize={14}
      small
      testId="new-pam-rule"
    >
      New rule
    </ButtonLink>
  );

  if (!rules.data) return <LoadState of={rules} loading="Loading rules…" forbidden={RULES_FORBIDDEN} />;

  return (
    <div className="ep-stack">
      <ListToolbar
        {...rowSearch}
        placeholder="Search name or criteria"
        searchTestId="pam-rules-search"
        count={
          <ListCount testId="pam-rules-count">
            {plural(all.length, 'rule')}
            {disabledCount ? ` · ${disabledCount} disabled` : ''}
          </ListCount>
        }
        action={newRule}
      />

      {savedRule ? (
        <Alert tone="success" testId="pam-rule-saved">
          Saved <strong>{savedRule.name}</strong>. It runs at priority {savedRule.priority}
          {savedRule.enabled ? '' : ' once you enable it'}.
        </Alert>
      ) : null}
      {suspended.length ? (
        <Alert tone="warning" testId="pam-rules-suspended">
          {suspended.length === 1
            ? 'One auto-approve rule was suspended by a server release: it decides as shown until someone re-approves it.'
            : `${suspended.length} auto-approve rules were suspended by a server release: they decide as shown until someone re-approves them.`}{' '}
          Review the criteria, then use <strong>Re-approve</strong> on the row.
        </Alert>
      ) : null}
      {stale.length ? (
        <Alert tone="warning" testId="pam-rules-stale">
          {stale.length === 1 ? 'One rule pins' : `${stale.length} rules pin`} a risk tier its tool can no
          longer carry in this server build, so {stale.length === 1 ? 'it' : 'they'} can never match. Edit the
          tier or delete the rule.
        </Alert>
      ) : null}
      {toggle.error ? (
        <div className="ep-inline-error">
          <span className="muted small">Could not change “{toggleFor}”:</span>
          <ActionError error={toggle.error} testId="pam-rule-toggle-error" />
        </div>
      ) : null}

      {all.length === 0 ? (
        <EmptyState icon="lock" title="No rules yet" testId="pam-rules-empty" action={newRule}>
          Every elevation request in {org.org?.name ?? 'this organization'} goes to the organization default:{' '}
          <strong>{config.data ? VERDICT_LABEL[config.data.config.defaultUnmatchedVerdict] : '…'}</strong>.
          Add rules to approve known-good software at once, deny what must never run, and let technicians
          decide the rest. The quickest start is <em>Create rule</em> on a request in{' '}
          <Link to="/approvals">Approvals</Link>.
        </EmptyState>
      ) : (
        <AdminTable
          className="ep-rules"
          testId="pam-rules"
          columns={[
            <th className="num" title="Lower runs first">
              #
            </th>,
            'Name',
            'Verdict',
            'Scope',
            'Criteria',
            'When',
            'Duration',
            'On',
          ]}
          after={
            <div className="ep-chain-end" data-testid="pam-rules-default">
              <Icon name="chevron" size={12} />
              <span>
                Requests no enabled rule matches:{' '}
                {config.data ? (
                  <VerdictPill verdict={config.data.config.defaultUnmatchedVerdict} />
                ) : (
                  <span className="muted">…</span>
                )}
              </span>
              <Link to={org.link('/pam/defaults')} className="small">
                Change the default
              </Link>
            </div>
          }
        >
          {rows.map((r) => (
            <RuleRow
              key={r.id}
              rule={r}
              href={org.link(`/pam/rules/${r.id}`)}
              parts={summaries.get(r.id) ?? []}
              scope={r.siteId ? siteName(r.siteId) : null}
              defaultMinutes={defaultMinutes}
              highlight={r.id === savedId}
              enabled={pending[r.id] ?? r.enabled}
              busy={r.id in pending}
              onOpen={() => navigate(org.link(`/pam/rules/${r.id}`))}
              onEnabled={(v) => setEnabled(r, v)}
              onDelete={() => deleting.open(r)}
              onReapprove={() => reapproving.open(r)}
              onCopy={() => navigate(org.link('/pam/rules/new', { copyOf: r.id }))}
            />
          ))}
          {rows.length === 0 ? (
            <NoMatchRow colSpan={9}>No rule matches “{rowSearch.query.trim()}”.</NoMatchRow>
          ) : null}
        </AdminTable>
      )}

      <DeleteTarget of={deleting} what="rule" testId="pam-rule-delete-dialog" onConfirm={remove}>
        <p>
          Delete <strong>{deleting.target?.name}</strong>? Requests it would decide fall through to the next
          matching rule, or to the organization default. Past decisions keep its name.
        </p>
      </DeleteTarget>
      <ConfirmTarget
        of={reapproving}
        title="Re-approve rule"
        confirmLabel={`Restore ${reapproving.target?.suspendedVerdict ? VERDICT_LABEL[reapproving.target.suspendedVerdict] : ''}`}
        testId="pam-rule-reapprove-dialog"
        onConfirm={reapprove}
      >
        <p>
          <strong>{reapproving.target?.name}</strong> was suspended by a server release. Re-approving restores
          its verdict to{' '}
          <strong>
            {reapproving.target?.suspendedVerdict ? VERDICT_LABEL[reapproving.target.suspendedVerdict] : ''}
          </strong>{' '}
          from now on, and records you as the approver.
        </p>
        {reapproving.target ? (
          <p className="ep-criteria ep-criteria-block">
            {(summaries.get(reapproving.target.id) ?? []).map((p) => p.text).join(' · ') || 'No criteria'}
          </p>
        ) : null}
      </ConfirmTarget>
    </div>
  );
}

function RuleRow({
  rule,
  href,
  parts,
  scope,
  defaultMinutes,
  highlight,
  enabled,
  busy,
  onOpen,
  onEnabled,
  onDelete,
  onReapprove,
  onCopy,
}: {
  rule: PamRuleListRow;
  href: string;
  parts: SummaryPart[];
  scope: string | null;
  defaultMinutes: number | null;
  highlight: boolean;
  enabled: boolean;
  busy: boolean;
  onOpen: () => void;
  onEnabled: (value: boolean) => void;
  onDelete: () => void;
  onReapprove: () => void;
  onCopy: () => void;
}) {
  const decides = rule.verdict === 'auto_approve' || rule.verdict === 'require_approval';
  const open = rule.suspendedVerdict !== null;
  return (
    <tr
      className={`clickable${enabled ? '' : ' ep-off'}${highlight ? ' ep-highlight' : ''}`}
      onClick={onOpen}
      data-testid={`pam-rule-row-${rule.id}`}
    >
      <td className="num mono">{rule.priority}</td>
      <td className="ep-name-cell">
        <div className="adm-cell-main">
          <Link to={href} className="adm-cell-title" onClick={(e) => e.stopPropagation()}>
            {rule.name}
          </Link>
          {!enabled ? <span className="adm-cell-sub">Disabled: skipped when deciding</span> : null}
        </div>
      </td>
      <td className="nowrap">
        <VerdictPill verdict={rule.verdict} testId={`pam-rule-verdict-${rule.id}`} />
        {open ? (
          <div className="ep-suspended" onClick={(e) => e.stopPropagation()}>
            <span className="tone-warn small">Suspended · was {VERDICT_LABEL[rule.suspendedVerdict!]}</span>
            <SmallButton tone="secondary" onClick={onReapprove} testId={`pam-rule-reapprove-${rule.id}`}>
              Re-approve
            </SmallButton>
          </div>
        ) : null}
      </td>
      <td className="nowrap">{scope ?? <span className="muted">Organization-wide</span>}</td>
      <td className="ep-criteria-cell">
        <div className="ep-criteria" title={parts.map((p) => p.text).join(' · ')}>
          {parts.length === 0 ? (
            <span className="muted">No criteria</span>
          ) : (
            parts.map((p, i) => (
              <span key={i} className={p.negated ? 'ep-neg' : undefined}>
                {i > 0 ? <span className="ep-sep"> · </span> : null}
                {p.text}
              </span>
            ))
          )}
        </div>
        {rule.matchRiskTierStale ? (
          <div className="ep-stale" data-testid={`pam-rule-stale-${rule.id}`}>
            <Icon name="alert" size={12} />
            Tier {rule.matchRiskTier} can no longer match
            {rule.matchRiskTierValidTiers
              ? `: the tool carries ${listTiers(rule.matchRiskTierValidTiers)}`
              : ''}
          </div>
        ) : null}
      </td>
      <td className={rule.timeWindow ? 'ep-when' : 'muted nowrap'}>
        {rule.timeWindow ? (
          <div className="adm-cell-main">
            <span className="nowrap">{windowLabel({ ...rule.timeWindow, timezone: '' })}</span>
            <span className="adm-cell-sub">{rule.timeWindow.timezone ?? 'UTC'}</span>
          </div>
        ) : (
          'Any time'
        )}
      </td>
      <td className="nowrap">
        {!decides ? (
          <span className="muted">—</span>
        ) : rule.approvalDurationMinutes !== null ? (
          minutesText(rule.approvalDurationMinutes)
        ) : (
          <span className="muted" title="The organization default">
            Default{defaultMinutes !== null ? ` · ${minutesText(defaultMinutes)}` : ''}
          </span>
        )}
      </td>
      <td onClick={(e) => e.stopPropagation()}>
        <RowSwitch
          checked={enabled}
          disabled={busy}
          onChange={onEnabled}
          label={enabled ? `Disable ${rule.name}` : `Enable ${rule.name}`}
          testId={`pam-rule-enabled-${rule.id}`}
        />
      </td>
      <RowActions
        name={rule.name}
        testId={`pam-rule-menu-${rule.id}`}
        items={[
          rowAction.edit(`pam-rule-edit-${rule.id}`, onOpen),
          {
            label: 'Re-approve',
            icon: 'check',
            onSelect: onReapprove,
            testId: `pam-rule-menu-reapprove-${rule.id}`,
            hidden: !open,
          },
          { label: 'Duplicate', icon: 'copy', onSelect: onCopy, testId: `pam-rule-copy-${rule.id}` },
          rowAction.remove(`pam-rule-delete-${rule.id}`, onDelete),
        ]}
      />
    </tr>
  );
}
