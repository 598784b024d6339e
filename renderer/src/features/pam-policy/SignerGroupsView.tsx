import { useMemo, useState, type FormEvent } from 'react';
import { PAM_POLICY_LIMITS, type SignerGroup } from '../../../../server/contract';
import {
  AdminTable,
  LoadState,
  TextAreaField,
  TextField,
  SmallButton,
  TitleCell,
  type DialogProps,
} from '../../ui';
import { ConfirmTarget } from '../../ui/DialogActions';
import { FormDialog } from '../../ui/FormDialog';
import { useAsyncAction } from '../../lib/action';
import { Link, navigate } from '../../lib/router';
import { EmptyState, RowActions, rowAction } from '../../ui';
import { fieldErrors } from '../../lib/forms';
import { formatDate } from '../../lib/format';
import { useTarget, useDialog } from '../../lib/hooks';
import { plural } from '../../lib/format';
import { pamPolicyApi, useRules, useSignerGroups } from './api';
import type { PolicyOrg } from './org';
import { ListCount, ListToolbar, NoMatchRow } from '../../ui';
import { useRowSearch } from '../../lib/row-search';
import { lengthProblem, nameProblem } from '../../lib/text-limits';
import { writeTarget } from '../../lib/hooks';

// /pam/signer-groups: named lists of code signers a rule can match as one ("Trusted vendors"). A group a rule
// still uses cannot be deleted (the server answers 409 naming how many rules).

const { name: NAME_MAX, description: DESCRIPTION_MAX, signers: SIGNERS_MAX } = PAM_POLICY_LIMITS;
const SIGNER_MAX = 255;

const FORBIDDEN = {
  title: 'Signer groups are not available to you',
  text: "Your account cannot read this organization's signer groups.",
};

export interface ParsedSigners {
  signers: string[];
  duplicates: number;
  tooLong: number[];
}

/** One signer per line: trimmed, blank lines dropped, duplicates (ignoring case) merged into the first. */
export function parseSigners(text: string): ParsedSigners {
  const seen = new Set<string>();
  const signers: string[] = [];
  const tooLong: number[] = [];
  let duplicates = 0;
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    if (line.length > SIGNER_MAX) tooLong.push(i + 1);
    const key = line.toLowerCase();
    if (seen.has(key)) {
      duplicates += 1;
      return;
    }
    seen.add(key);
    signers.push(line);
  });
  return { signers, duplicates, tooLong };
}

export function SignerGroupsView({ org }: { org: PolicyOrg }) {
  const list = useSignerGroups(org);
  const rules = useRules(org);
  const editing = useDialog<SignerGroup | 'new'>();
  const deleting = useTarget<SignerGroup>();

  const usage = useMemo(() => {
    const counts = new Map<string, number>();
    for (const r of rules.data?.rules ?? [])
      if (r.matchSignerGroupId) counts.set(r.matchSignerGroupId, (counts.get(r.matchSignerGroupId) ?? 0) + 1);
    return counts;
  }, [rules.data]);

  const all = list.data?.signerGroups ?? [];
  const { rows, search: rowSearch } = useRowSearch(all, (g) => [g.name, g.description, ...g.signers]);

  const remove = writeTarget(deleting, (g) => pamPolicyApi.deleteSignerGroup(g.id), list.reload);

  const create = (
    <SmallButton tone="primary" icon="plus" onClick={() => editing.open('new')} testId="new-signer-group">
      New signer group
    </SmallButton>
  );

  if (!list.data) return <LoadState of={list} loading="Loading signer groups…" forbidden={FORBIDDEN} />;

  const deletingUses = deleting.target ? (usage.get(deleting.target.id) ?? 0) : 0;

  return (
    <div className="ep-stack">
      <ListToolbar
        {...rowSearch}
        placeholder="Search name or signer"
        searchTestId="signer-groups-search"
        count={<ListCount>{plural(all.length, 'group')}</ListCount>}
        action={create}
      />
      {all.length === 0 ? (
        <EmptyState icon="keys" title="No signer groups yet" testId="signer-groups-empty" action={create}>
          A signer group is a list of code signers a rule matches as one, such as the vendors whose signed
          installers may run without asking. Rules choose a signer group instead of a single signer name.
        </EmptyState>
      ) : (
        <AdminTable
          className="ep-groups"
          testId="signer-groups"
          columns={['Name', 'Signers', 'Used by', 'Updated']}
        >
          {rows.map((g) => {
            const uses = usage.get(g.id) ?? 0;
            return (
              <tr
                key={g.id}
                className="clickable"
                onClick={() => editing.open(g)}
                data-testid={`signer-group-row-${g.id}`}
              >
                <TitleCell title={g.name} sub={g.description} subClassName="ep-clip" />
                <td>
                  <div className="adm-cell-main">
                    <span>{plural(g.signers.length, 'signer')}</span>
                    <span className="adm-cell-sub ep-clip" title={g.signers.join('\n')}>
                      {g.signers.slice(0, 3).join(' · ')}
                      {g.signers.length > 3 ? ' · …' : ''}
                    </span>
                  </div>
                </td>
                <td className="nowrap">
                  {uses ? (
                    plural(uses, 'rule')
                  ) : rules.data ? (
                    <span className="muted">No rules</span>
                  ) : (
                    <span className="muted">…</span>
                  )}
                </td>
                <td className="nowrap muted">{formatDate(g.updatedAt)}</td>
                <RowActions
                  name={g.name}
                  testId={`signer-group-menu-${g.id}`}
                  items={[
                    rowAction.edit(`signer-group-edit-${g.id}`, () => editing.open(g)),
                    {
                      label: 'New rule with this group',
                      icon: 'plus',
                      onSelect: () => navigate(org.link('/pam/rules/new', { signerGroup: g.id })),
                      testId: `signer-group-rule-${g.id}`,
                    },
                    rowAction.remove(`signer-group-delete-${g.id}`, () => deleting.open(g)),
                  ]}
                />
              </tr>
            );
          })}
          {rows.length === 0 ? (
            <NoMatchRow colSpan={5}>No group matches “{rowSearch.query.trim()}”.</NoMatchRow>
          ) : null}
        </AdminTable>
      )}

      {editing.value ? (
        <SignerGroupDialog
          group={editing.value === 'new' ? null : editing.value}
          org={org}
          {...editing.props(list.reload)}
        />
      ) : null}

      <ConfirmTarget
        of={deleting}
        title="Delete signer group"
        confirmLabel="Delete group"
        testId="signer-group-delete-dialog"
        errorTestId="signer-group-delete-error"
        onConfirm={remove}
      >
        <p>
          Delete <strong>{deleting.target?.name}</strong> and its{' '}
          {plural(deleting.target?.signers.length ?? 0, 'signer')}?
        </p>
        {deletingUses > 0 ? (
          <p className="tone-warn">
            {plural(deletingUses, 'rule')} still {deletingUses === 1 ? 'uses' : 'use'} it: change{' '}
            {deletingUses === 1 ? 'that rule' : 'them'} on the <Link to={org.link('/pam/rules')}>Rules</Link>{' '}
            tab first.
          </p>
        ) : null}
      </ConfirmTarget>
    </div>
  );
}

function SignerGroupDialog({
  group,
  org,
  onClose,
  onDone,
}: { group: SignerGroup | null; org: PolicyOrg } & DialogProps) {
  const [name, setName] = useState(group?.name ?? '');
  const [description, setDescription] = useState(group?.description ?? '');
  const [signersText, setSignersText] = useState(group ? group.signers.join('\n') : '');
  const [tried, setTried] = useState(false);
  const action = useAsyncAction();
  const parsed = parseSigners(signersText);
  const server = fieldErrors(action.error);

  const nameError =
    server.name ?? nameProblem(name, { tried, max: NAME_MAX, empty: 'Give the group a name.' });
  const descError = server.description ?? lengthProblem(description.trim(), DESCRIPTION_MAX);
  const signersError =
    server.signers ??
    (parsed.tooLong.length
      ? `Line${parsed.tooLong.length === 1 ? '' : 's'} ${parsed.tooLong.slice(0, 5).join(', ')}: a signer is at most ${SIGNER_MAX} characters.`
      : parsed.signers.length > SIGNERS_MAX
        ? `At most ${SIGNERS_MAX} signers (${parsed.signers.length} now).`
        : tried && parsed.signers.length === 0
          ? 'Add at least one signer.'
          : null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (
      !name.trim() ||
      name.trim().length > NAME_MAX ||
      description.trim().length > DESCRIPTION_MAX ||
      parsed.tooLong.length ||
      parsed.signers.length === 0 ||
      parsed.signers.length > SIGNERS_MAX
    )
      return;
    void action.run(async () => {
      const body = {
        name: name.trim(),
        description: description.trim() ? description.trim() : null,
        signers: parsed.signers,
      };
      if (group) await pamPolicyApi.updateSignerGroup(group.id, body);
      else await pamPolicyApi.createSignerGroup(org.withOrg(body));
      onDone();
    });
  };

  const fieldsShown = new Set(Object.keys(server));
  const general = fieldsShown.size > 0 ? null : action.error;

  return (
    <FormDialog
      wide
      title={group ? `Edit ${group.name}` : 'New signer group'}
      onClose={onClose}
      testId="signer-group-dialog"
      formClassName="form adm"
      onSubmit={submit}
      action={{ busy: action.busy, error: general }}
      submit={{ label: group ? 'Save changes' : 'Create group', testId: 'signer-group-save' }}
    >
      <TextField
        id="signer-group-name"
        label="Name"
        error={nameError}
        type="text"
        value={name}
        autoFocus
        onChange={setName}
        placeholder="Trusted vendors"
      />
      <TextField
        id="signer-group-description"
        label="Description"
        error={descError}
        hint="Optional: what the signers have in common, who maintains the list."
        type="text"
        value={description}
        onChange={setDescription}
      />
      <TextAreaField
        id="signer-group-signers"
        label="Signers"
        value={signersText}
        onChange={setSignersText}
        error={signersError}
        aside={
          <span className="muted small" data-testid="signer-group-count">
            {plural(parsed.signers.length, 'signer')}
            {parsed.duplicates ? ` · ${plural(parsed.duplicates, 'duplicate')} merged` : ''}
          </span>
        }
        hint={
          parsed.duplicates
            ? 'Duplicates (ignoring case) are saved once, as first written.'
            : `One code-signing subject per line, exactly as devices report it. Up to ${SIGNERS_MAX}.`
        }
        className="mono ep-signers"
        rows={10}
        spellCheck={false}
        placeholder={'Microsoft Corporation\nAdobe Inc.\nGoogle LLC'}
      />
    </FormDialog>
  );
}
