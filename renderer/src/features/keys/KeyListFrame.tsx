import { Fragment, useState, type ComponentType, type ReactElement, type ReactNode } from 'react';
import {
  AdminTable,
  Alert,
  Dialog,
  EmptyState,
  Icon,
  type IconName,
  LoadingBlock,
  Pager,
  Segmented,
  SmallButton,
} from '../../ui';
import { useCan } from '../../lib/can';
import { orgName } from '../../lib/directory';
import { useNow } from '../../lib/hooks';
import type { Organization } from '../../../../server/contract';
import type { KeyList, KeyListQuery } from './api';
import { defaultOrgOf, type CreateKeyProps } from './shared';

// The list every key tab shares: the toolbar, the load states, the table with its row actions, the pager and the
// create dialog.

function CreateButton({
  label,
  onClick,
  disabled,
  testId,
}: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  testId?: string;
}) {
  return (
    <SmallButton
      tone="primary"
      icon="plus"
      iconSize={16}
      onClick={onClick}
      disabled={disabled}
      testId={testId}
    >
      {label}
    </SmallButton>
  );
}

/** What a key tab's frame needs to know about its kind of key: names, test ids, its filter and the table's columns. */
export interface KeyListKind<F extends string = string, C = unknown> {
  /** The test id stem: `<prefix>-row`, `create-<prefix>`, `<prefix>-create-dialog`, `<prefix>s-table`, ... */
  prefix: string;
  /** "API key": "New API key" (button and dialog title), "Loading API keys…". */
  noun: string;
  /** The empty state's icon. */
  icon: IconName;
  /** The table's columns (a title, or a whole <th>); the actions column comes last by itself. */
  columns: Array<string | ReactElement>;
  /**
   * The segmented filter above the list (`<prefix>-filter`); its first option shows every key. Each option names the
   * list query's parameters it stands for.
   */
  filter?: { label: string; options: [KeyFilterOption<F>, ...Array<KeyFilterOption<F>>] };
  /** The empty state: its title for the filter chosen (none for a kind without a filter), and what the keys are for. */
  empty: { title: (filter?: F) => string; text: ReactNode };
  /** The create dialog's form. */
  createForm: ComponentType<CreateKeyProps<C>>;
}

/** The filter option every kind starts with: every key. */
export const ALL_KEYS = { value: 'all', label: 'All', query: {} } as const;

/** A filter option and what it narrows the key list to. */
interface KeyFilterOption<F extends string> {
  value: F;
  label: string;
  query: Pick<KeyListQuery, 'status' | 'expired'>;
}

/** The part of a tab's useKeyModals the frame drives: the create dialog, and opening a row's dialogs. */
interface KeyListModals<K, C, Kind extends string> {
  modal: { kind: string } | null;
  setModal: (modal: { kind: 'create' } | { kind: Kind; key: K }) => void;
  closeFor: (kind: 'create') => () => void;
  reveal: (key: C, rotated: boolean) => void;
}

/**
 * The frame every key tab shares: filter and buttons on top, then loading, empty state or table, then the pager,
 * and the create dialog (its form mounts only while it is open, so each opening starts empty). Test ids derive from
 * `kind.prefix` (`api-keys-tab`, `api-keys-error`, `api-keys-empty`, `api-keys-table`, `create-api-key`, ...).
 */
export function KeyListFrame<
  K extends { id: string; orgId?: string },
  C,
  Kind extends KeyRowAction,
  F extends string = string,
>({
  kind,
  pages,
  note,
  orgs,
  modals,
  list,
  renderRow,
  dialogs,
}: {
  kind: KeyListKind<F, C>;
  /** The filter chosen and the page shown (useFilteredPages), for a kind with a filter. */
  pages?: { filter: F; choose: (filter: F) => void; setPage: (page: number) => void };
  /** A line in the toolbar, for a kind without a filter. */
  note?: ReactNode;
  /**
   * For a kind that belongs to one organization: those there are (none, nothing to create) and the one the page is
   * narrowed to ('' for all). Rows name their organization when the list spans several.
   */
  orgs?: { all: Organization[]; filter: string };
  modals: KeyListModals<K, C, Kind>;
  /** The page of keys shown (rows null while the first answer is on its way). */
  list: KeyList<K>;
  /** One table row. */
  renderRow: (row: KeyRowProps<K, Kind>) => ReactNode;
  dialogs: ReactNode;
}) {
  const { rows, pagination, error: loadError, reload: onReload } = list;
  const count = rows?.length ?? 0;
  const noun = `${kind.prefix}s`;
  const createLabel = `New ${kind.noun}`;
  const now = useNow(30_000);
  const onCreate = () => modals.setModal({ kind: 'create' });
  const canCreate = orgs === undefined || orgs.all.length > 0;
  const showOrg = orgs !== undefined && !orgs.filter && orgs.all.length > 1;
  const CreateForm = kind.createForm;
  // The empty state offers a first key only when nothing is filtered out.
  const offerCreate = canCreate && (!pages || pages.filter === kind.filter?.options[0]?.value);
  const creating = modals.modal?.kind === 'create';
  // Creating a key is organizations:write (both routes): a reader is not offered a button the server refuses.
  const mayWrite = useCan('organizations:write');
  return (
    <div className="kx-tab" data-testid={`${noun}-tab`}>
      <div className="kx-toolbar">
        {kind.filter && pages ? (
          <Segmented<F>
            label={kind.filter.label}
            value={pages.filter}
            onChange={pages.choose}
            testId={`${kind.prefix}-filter`}
            options={kind.filter.options}
          />
        ) : (
          note
        )}
        <div className="row gap-sm">
          <button type="button" className="btn btn-ghost btn-sm" onClick={onReload} title="Reload">
            <Icon name="refresh" />
          </button>
          {mayWrite ? (
            <CreateButton
              label={createLabel}
              onClick={onCreate}
              disabled={!canCreate}
              testId={`create-${kind.prefix}`}
            />
          ) : null}
        </div>
      </div>

      {loadError ? <Alert testId={`${noun}-error`}>{loadError}</Alert> : null}

      {rows === null ? (
        <LoadingBlock label={`Loading ${kind.noun}s…`} />
      ) : count === 0 && !loadError ? (
        <EmptyState
          icon={kind.icon}
          title={kind.empty.title(pages?.filter)}
          testId={`${noun}-empty`}
          action={offerCreate && mayWrite ? <CreateButton label={createLabel} onClick={onCreate} /> : null}
        >
          {kind.empty.text}
        </EmptyState>
      ) : count > 0 ? (
        <AdminTable className="kx-keys" testId={`${noun}-table`} columns={kind.columns}>
          {rows.map((k) => (
            <Fragment key={k.id}>
              {renderRow({
                k,
                now,
                org: showOrg && k.orgId ? orgName(orgs.all, k.orgId) : null,
                open: (kind) => modals.setModal({ kind, key: k }),
              })}
            </Fragment>
          ))}
        </AdminTable>
      ) : null}
      <Pager pagination={pagination} onPage={pages?.setPage ?? (() => undefined)} noun={noun} />

      <Dialog
        open={creating}
        title={createLabel}
        onClose={modals.closeFor('create')}
        testId={`${kind.prefix}-create-dialog`}
        wide
      >
        {creating ? (
          <CreateForm
            orgs={orgs?.all ?? []}
            defaultOrg={orgs ? defaultOrgOf(orgs.all, orgs.filter) : ''}
            onClose={modals.closeFor('create')}
            onDone={(key) => modals.reveal(key, false)}
          />
        ) : null}
      </Dialog>
      {dialogs}
    </div>
  );
}

/** The props of a key tab's row: the key, the clock, its organization's name (lists spanning several), the row's dialogs. */
export interface KeyRowProps<K, Kind extends string> {
  k: K;
  now: number;
  org: string | null;
  open: (kind: Kind) => void;
}

/** The dialogs a key row opens, as its icon-only actions show them (`<prefix>-<kind>`). */
const ROW_ACTIONS = {
  edit: { icon: 'edit', label: 'Edit', danger: false },
  rotate: { icon: 'refresh', label: 'Rotate', danger: false },
  revoke: { icon: 'trash', label: 'Revoke', danger: true },
  delete: { icon: 'trash', label: 'Delete', danger: true },
} as const satisfies Record<string, { icon: IconName; label: string; danger: boolean }>;

export type KeyRowAction = keyof typeof ROW_ACTIONS;

/**
 * A key row: dimmed when the key no longer works, its name (and organization) first, then the kind's own cells,
 * then its actions (`<prefix>-row`, with the key's id and name as data attributes).
 */
export function KeyRow<Kind extends KeyRowAction>({
  k,
  prefix,
  dim,
  org,
  actions,
  open,
  children,
}: {
  k: { id: string; name: string };
  prefix: string;
  dim: boolean;
  org: string | null;
  /** The dialogs this row offers, in order. */
  actions: Kind[];
  open: (kind: Kind) => void;
  children: ReactNode;
}) {
  return (
    <tr
      className={dim ? 'kx-dim' : undefined}
      data-testid={`${prefix}-row`}
      data-key-id={k.id}
      data-name={k.name}
    >
      <KeyNameCell name={k.name} org={org} />
      {children}
      <td className="actions kx-actions">
        {actions.map((kind) => (
          <RowAction
            key={kind}
            {...ROW_ACTIONS[kind]}
            name={k.name}
            onClick={() => open(kind)}
            testId={`${prefix}-${kind}`}
          />
        ))}
      </td>
    </tr>
  );
}

/** A list filter and the page shown: choosing another filter goes back to the first page. */
export function useFilteredPages<F extends string>(initial: F) {
  const [filter, setFilter] = useState<F>(initial);
  const [page, setPage] = useState(1);
  const choose = (next: F) => {
    setFilter(next);
    setPage(1);
  };
  return { filter, choose, page, setPage };
}

/**
 * An icon-only row action; the label is its tooltip and, with the key's name, its accessible name. Every key row
 * action is a write (edit, rotate, revoke, delete: organizations:write), so a reader sees none.
 */
function RowAction({
  icon,
  label,
  name,
  onClick,
  testId,
  danger,
}: {
  icon: IconName;
  label: string;
  name: string;
  onClick: () => void;
  testId: string;
  danger?: boolean;
}) {
  const mayWrite = useCan('organizations:write');
  if (!mayWrite) return null;
  return (
    <button
      type="button"
      className={`btn btn-ghost btn-sm${danger ? ' kx-danger' : ''}`}
      onClick={onClick}
      title={label}
      aria-label={`${label} ${name}`}
      data-testid={testId}
    >
      <Icon name={icon} />
    </button>
  );
}

/** The first cell of a key row: its name, and under it the organization when the list spans several. */
function KeyNameCell({ name, org }: { name: string; org: string | null }) {
  return (
    <td>
      <div className="adm-cell-main">
        <span className="adm-cell-title">{name}</span>
        {org ? <span className="adm-cell-sub">{org}</span> : null}
      </div>
    </td>
  );
}
