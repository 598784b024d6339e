import { useState, type ReactNode } from 'react';
import { Alert, Icon, Pager, Spinner, type IconName } from '../../ui';
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
    <button
      type="button"
      className="btn btn-primary btn-sm"
      onClick={onClick}
      disabled={disabled}
      data-testid={testId}
    >
      <Icon name="plus" />
      {label}
    </button>
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
  head,
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
  /** The header cells of the table. */
  head: ReactNode;
  onPage: (page: number) => void;
  /** The table rows. */
  children: ReactNode;
  dialogs: ReactNode;
}) {
  const { rows, pagination, error: loadError, reload: onReload } = list;
  const count = rows?.length ?? 0;
  return (
    <div className="kx-tab" data-testid={`${noun}-tab`}>
      <div className="kx-toolbar">
        {filter}
        <div className="row gap-sm">
          <button type="button" className="btn btn-ghost btn-sm" onClick={onReload} title="Reload">
            <Icon name="refresh" />
          </button>
          <CreateButton label={createLabel} onClick={onCreate} disabled={!canCreate} testId={createTestId} />
        </div>
      </div>

      {loadError ? <Alert testId={`${noun}-error`}>{loadError}</Alert> : null}

      {rows === null ? (
        <div className="kx-loading">
          <Spinner label={loadingLabel} />
        </div>
      ) : count === 0 && !loadError ? (
        <div className="empty" data-testid={`${noun}-empty`}>
          <div className="empty-icon">
            <Icon name={empty.icon} size={24} />
          </div>
          <h2>{empty.title}</h2>
          <p>{empty.text}</p>
          {empty.offerCreate ? <CreateButton label={createLabel} onClick={onCreate} /> : null}
        </div>
      ) : count > 0 ? (
        <div className="kx-table-wrap">
          <table className="kx-table" data-testid={`${noun}-table`}>
            <thead>
              <tr>
                {head}
                <th aria-label="Actions" />
              </tr>
            </thead>
            <tbody>{children}</tbody>
          </table>
        </div>
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

/** An icon-only row action; the label is its tooltip and, with the key's name, its accessible name. */
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
      <div className="kx-name">{name}</div>
      {org ? <div className="kx-sub">{org}</div> : null}
    </td>
  );
}
