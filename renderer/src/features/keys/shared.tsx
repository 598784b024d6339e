import { useState, type ReactNode } from 'react';
import { Pager } from '../../ui';
import type { Organization, Pagination } from '../../../../server/contract';
import { Dialog } from '../../ui/Dialog';
import { Alert, CopyButton, Spinner } from '../../ui/basics';
import { Icon, type IconName } from '../../ui/Icon';
import { copyText } from '../../lib/clipboard';

// Pieces shared by the API-key and enrollment-key tabs.

/** A secret shown exactly once: big, monospace, copyable, with the warning that it will not come back. */
export function SecretReveal({
  title,
  secret,
  testIdPrefix,
  children,
  onDone,
}: {
  title: string;
  secret: string;
  testIdPrefix: string;
  children?: ReactNode;
  onDone: () => void;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="kx-reveal" data-testid={`${testIdPrefix}-reveal`}>
      <div className="kx-reveal-warn">
        <Icon name="alert" />
        <div>
          <strong>Copy this key now. You will not see it again.</strong>
          <div>Gatehouse stores only a hash. If you lose it, rotate the key to get a new one.</div>
        </div>
      </div>
      <div className="field">
        <span className="label kx-label">{title}</span>
        <div className="secret">
          <code className="secret-text kx-secret" data-testid={`${testIdPrefix}-secret`}>
            {secret}
          </code>
          <CopyButton
            onCopy={async () => {
              const ok = await copyText(secret);
              if (ok) setCopied(true);
              return ok;
            }}
            testId={`${testIdPrefix}-copy`}
          />
        </div>
      </div>
      {children}
      <div className="kx-reveal-foot">
        <span className="muted small">{copied ? 'Copied to the clipboard.' : 'Not copied yet.'}</span>
        <button
          type="button"
          className="btn btn-primary"
          onClick={onDone}
          data-testid={`${testIdPrefix}-done`}
        >
          {copied ? 'Done' : 'I have stored it'}
        </button>
      </div>
    </div>
  );
}

export function OrgSelect({
  id,
  orgs,
  value,
  onChange,
  testId,
  disabled,
}: {
  id: string;
  orgs: Organization[];
  value: string;
  onChange: (id: string) => void;
  testId: string;
  disabled?: boolean;
}) {
  return (
    <select
      id={id}
      className="kx-select"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      data-testid={testId}
      disabled={disabled}
    >
      {value === '' ? <option value="">Choose an organization…</option> : null}
      {orgs.map((o) => (
        <option key={o.id} value={o.id}>
          {o.name}
        </option>
      ))}
    </select>
  );
}

/** The org a new key defaults to: the filtered one, or the only one there is. */
export function defaultOrgOf(orgs: Organization[], orgFilter: string): string {
  return orgFilter || (orgs.length === 1 ? (orgs[0]?.id ?? '') : '');
}

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
  onReload,
  loading,
  loadingLabel,
  loadError,
  count,
  empty,
  head,
  pagination,
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
  onReload: () => void;
  loading: boolean;
  loadingLabel: string;
  loadError: string | null;
  count: number;
  empty: { icon: IconName; title: string; text: ReactNode; offerCreate: boolean };
  /** The header cells of the table. */
  head: ReactNode;
  pagination: Pagination | null;
  onPage: (page: number) => void;
  /** The table rows. */
  children: ReactNode;
  dialogs: ReactNode;
}) {
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

      {loading ? (
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

/** A labelled one-line snippet built from the new key, with its own copy button. */
export function CopySnippet({
  label,
  text,
  copyLabel,
  testId,
}: {
  label: string;
  text: string;
  copyLabel: string;
  testId: string;
}) {
  return (
    <div className="field">
      <span className="label kx-label">{label}</span>
      <div className="secret">
        <code className="kx-snippet mono" data-testid={testId}>
          {text}
        </code>
        <CopyButton onCopy={() => copyText(text)} label={copyLabel} testId={`${testId}-copy`} />
      </div>
    </div>
  );
}

/** The dialog that shows a created or rotated key once; `children` adds what is particular to the key kind. */
export function RevealDialog<K extends { name: string; key: string }>({
  reveal,
  noun,
  testIdPrefix,
  onClose,
  children,
}: {
  reveal: { key: K; rotated: boolean } | null;
  /** "API key", "Enrollment key": the dialog title and the secret's label. */
  noun: string;
  testIdPrefix: string;
  onClose: () => void;
  children: (key: K, rotated: boolean) => ReactNode;
}) {
  return (
    <Dialog
      open={reveal !== null}
      title={
        reveal
          ? reveal.rotated
            ? `New key for “${reveal.key.name}”`
            : `${noun} “${reveal.key.name}” created`
          : ''
      }
      onClose={onClose}
      testId={`${testIdPrefix}-reveal-dialog`}
      wide
    >
      {reveal ? (
        <SecretReveal title={noun} secret={reveal.key.key} testIdPrefix={testIdPrefix} onDone={onClose}>
          {children(reveal.key, reveal.rotated)}
        </SecretReveal>
      ) : null}
    </Dialog>
  );
}
