import { useState, type ReactElement, type ReactNode } from 'react';
import {
  AdminTable,
  Alert,
  EmptyState,
  Icon,
  type IconName,
  LoadingBlock,
  Pager,
  SmallButton,
} from '../../ui';
import { useCan } from '../../lib/can';
import type { KeyList } from './api';

// The list both key tabs share: the toolbar, the load states, the table with its row actions, and the pager.

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

/**
 * The frame both key tabs share: filter and buttons on top, then loading, empty state or table, then the pager.
 * Test ids derive from `noun` (`api-keys-tab`, `api-keys-error`, `api-keys-empty`, `api-keys-table`, ...).
 */
export function KeyListFrame({
  noun,
  filter,
  createLabel,
  createTestId,
  canCreate,
  onCreate,
  list,
  loadingLabel,
  empty,
  columns,
  onPage,
  children,
  dialogs,
}: {
  noun: string;
  filter: ReactNode;
  createLabel: string;
  createTestId: string;
  canCreate: boolean;
  onCreate: () => void;
  /** The page of keys shown (rows null while the first answer is on its way). */
  list: KeyList<unknown>;
  loadingLabel: string;
  empty: { icon: IconName; title: string; text: ReactNode; offerCreate: boolean };
  /** The table's columns (a title, or a whole <th>); the actions column comes last by itself. */
  columns: Array<string | ReactElement>;
  onPage: (page: number) => void;
  /** The table rows. */
  children: ReactNode;
  dialogs: ReactNode;
}) {
  const { rows, pagination, error: loadError, reload: onReload } = list;
  const count = rows?.length ?? 0;
  // Creating a key is organizations:write (both routes): a reader is not offered a button the server refuses.
  const mayWrite = useCan('organizations:write');
  return (
    <div className="kx-tab" data-testid={`${noun}-tab`}>
      <div className="kx-toolbar">
        {filter}
        <div className="row gap-sm">
          <button type="button" className="btn btn-ghost btn-sm" onClick={onReload} title="Reload">
            <Icon name="refresh" />
          </button>
          {mayWrite ? (
            <CreateButton
              label={createLabel}
              onClick={onCreate}
              disabled={!canCreate}
              testId={createTestId}
            />
          ) : null}
        </div>
      </div>

      {loadError ? <Alert testId={`${noun}-error`}>{loadError}</Alert> : null}

      {rows === null ? (
        <LoadingBlock label={loadingLabel} />
      ) : count === 0 && !loadError ? (
        <EmptyState
          icon={empty.icon}
          title={empty.title}
          testId={`${noun}-empty`}
          action={
            empty.offerCreate && mayWrite ? <CreateButton label={createLabel} onClick={onCreate} /> : null
          }
        >
          {empty.text}
        </EmptyState>
      ) : count > 0 ? (
        <AdminTable className="kx-keys" testId={`${noun}-table`} columns={columns}>
          {children}
        </AdminTable>
      ) : null}
      <Pager pagination={pagination} onPage={onPage} noun={noun} />

      {dialogs}
    </div>
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
export function RowAction({
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
export function KeyNameCell({ name, org }: { name: string; org: string | null }) {
  return (
    <td>
      <div className="adm-cell-main">
        <span className="adm-cell-title">{name}</span>
        {org ? <span className="adm-cell-sub">{org}</span> : null}
      </div>
    </td>
  );
}
