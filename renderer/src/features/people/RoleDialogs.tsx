import { useState, type FormEvent, type ReactNode } from 'react';
import type { Role, RoleDetail } from '../../../../server/contract';
import { ApiError } from '../../lib/api/client';
import { Alert, Card, StatusPill } from '../../ui/basics';
import { initials, plural } from '../../lib/format';
import {
  ActionError,
  ConfirmDialog,
  FormDialog,
  LoadingBlock,
  Pager,
  TextField,
  type DialogProps,
  type FormAction,
} from '../../ui';
import { asList, paginationOf } from '../../lib/query';
import { fieldErrors } from '../../lib/forms';
import { useScope } from '../../lib/session';
import { accessSummary, type Directory } from './directory';
import { USER_STATUS } from './UserRow';
import { peopleApi, useRoleUsers } from './api';

// Around the role editor: the users holding a role, cloning a role, and why a delete was refused.

export function RoleUsersCard({ role, dir }: { role: RoleDetail; dir: Directory }) {
  const scope = useScope();
  const [page, setPage] = useState(1);
  const users = useRoleUsers(role.id, { page, limit: 20 });
  const list = asList(users.data);
  const total = paginationOf(users.data)?.total ?? list.length;
  return (
    <Card
      title={users.data ? `Users with this role · ${total}` : 'Users with this role'}
      icon="users"
      testId="role-users"
      className="pp-users"
    >
      {users.loading ? (
        <LoadingBlock label="Loading users…" />
      ) : users.error && !users.data ? (
        <ActionError error={users.error} />
      ) : list.length === 0 ? (
        <p className="muted small pp-none">
          Nobody holds this role{scope === 'system' ? '' : ' in your tenant'} yet.
        </p>
      ) : (
        <>
          <ul className="pp-user-list">
            {list.map((u) => (
              <li
                key={`${u.id}:${u.association.orgId ?? u.association.partnerId ?? ''}`}
                data-testid="role-user"
              >
                <span className="avatar" aria-hidden="true">
                  {initials(u.name, u.email)}
                </span>
                <span className="adm-cell-main">
                  <span className="adm-cell-title">{u.name || u.email}</span>
                  <span className="adm-cell-sub">
                    {u.email} · {accessSummary(u.association, dir, scope)}
                  </span>
                </span>
                <StatusPill tone={USER_STATUS[u.status].tone}>{USER_STATUS[u.status].label}</StatusPill>
              </li>
            ))}
          </ul>
          <Pager pagination={paginationOf(users.data)} onPage={setPage} testId="role-users-pager" />
        </>
      )}
    </Card>
  );
}

/** Done with the id of the copy. */
export function CloneRoleDialog({ role, onClose, onDone }: { role: Role } & DialogProps<string>) {
  const [name, setName] = useState(`${role.name} (copy)`.slice(0, 100));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  const localError = !name.trim()
    ? 'Name is required'
    : name.trim().length > 100
      ? 'At most 100 characters'
      : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (localError) return;
    setBusy(true);
    setError(null);
    setNameError(null);
    try {
      const copy = await peopleApi.cloneRole(role.id, name.trim());
      onDone(copy.id);
    } catch (err) {
      if (err instanceof ApiError && (err.code === 'ROLE_NAME_TAKEN' || fieldErrors(err).name))
        setNameError(fieldErrors(err).name ?? err.message);
      else setError(err);
      setBusy(false);
    }
  };

  return (
    <FormDialog
      title={`Clone ${role.name}`}
      onClose={onClose}
      testId="role-clone-dialog"
      onSubmit={(e) => void submit(e)}
      action={{ busy, error }}
      submit={{
        label: 'Create copy',
        busyLabel: 'Cloning…',
        testId: 'role-clone-save',
        disabled: Boolean(localError),
      }}
    >
      <p className="muted">
        The copy is a custom role with every permission {role.name} grants today, its own and inherited, and
        no parent. Users keep their current roles.
      </p>
      <TextField
        id="role-clone-name"
        label="Name of the copy"
        error={localError ?? nameError}
        type="text"
        maxLength={100}
        autoFocus
        value={name}
        onChange={(v) => {
          setName(v);
          setNameError(null);
        }}
      />
    </FormDialog>
  );
}

/** The question before a role is deleted, from the role list and the role page. */
export function DeleteRoleDialog({
  role,
  open,
  action,
  onCancel,
  onConfirm,
}: {
  role: Pick<Role, 'name' | 'userCount'> | null;
  open: boolean;
  /** The delete's busy flag and its last refusal. */
  action: FormAction;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <ConfirmDialog
      open={open}
      title="Delete role"
      confirmLabel="Delete role"
      busy={action.busy}
      onCancel={onCancel}
      onConfirm={onConfirm}
      testId="role-delete-dialog"
    >
      {role ? (
        <div className="form">
          <p>
            Delete the role <strong>{role.name}</strong>? This cannot be undone.
          </p>
          {role.userCount > 0 ? (
            <p className="muted">
              {plural(role.userCount, 'user holds', 'users hold')} this role: give them another role first, or
              the server refuses.
            </p>
          ) : null}
          {action.error ? deleteProblem(action.error) : null}
        </div>
      ) : null}
    </ConfirmDialog>
  );
}

/** Why a role could not be deleted, with the counts the server gives. */
export function deleteProblem(err: unknown): ReactNode {
  if (err instanceof ApiError && (err.code === 'ROLE_IN_USE' || err.code === 'ROLE_HAS_CHILDREN')) {
    const users = typeof err.body?.userCount === 'number' ? err.body.userCount : null;
    const children = typeof err.body?.childRoleCount === 'number' ? err.body.childRoleCount : null;
    const parts: string[] = [];
    if (users) parts.push(`${plural(users, 'user still holds', 'users still hold')} it`);
    if (children) parts.push(`${plural(children, 'role inherits', 'roles inherit')} from it`);
    return (
      <Alert testId="role-delete-error">
        {err.message}
        {parts.length ? `: ${parts.join(' and ')}.` : '.'} Reassign{' '}
        {users && children ? 'those users and roles' : users ? 'those users' : 'those roles'} first.
      </Alert>
    );
  }
  return <ActionError error={err} testId="role-delete-error" />;
}
