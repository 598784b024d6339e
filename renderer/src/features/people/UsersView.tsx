import { useEffect, useState, type ReactNode } from 'react';
import type { UserStatus, UserSummary } from '../../../../server/contract';

import { useSession } from '../../lib/session';
import { ActionError } from '../../ui/ActionError';
import { Dialog } from '../../ui/Dialog';
import { ConfirmAction } from '../../ui/DialogActions';
import { Alert } from '../../ui/basics';
import { formatDateTime, plural } from '../../lib/format';
import { useDialog, useNow } from '../../lib/hooks';
import {
  AdminTable,
  Button,
  ChoiceSelect,
  DialogButtons,
  ListCount,
  ListEmpty,
  ListStates,
  ListToolbar,
  PageHeader,
  Pager,
  SmallButton,
} from '../../ui';
import { asList, paginationOf } from '../../lib/query';

import { useScope } from '../../lib/session';
import { useCan } from '../../lib/can';
import { useRouter } from '../../lib/router';
import { useDirectory, type Directory } from './directory';
import { InviteDialog } from './InviteDialog';
import { ChangeRoleDialog } from './ChangeRoleDialog';
import { UserRow, type Pending } from './UserRow';
import { peopleApi, useUsers } from './api';
import { useAsyncAction } from '../../lib/action';

const PAGE_SIZE = 50;

const USERS_FORBIDDEN = {
  title: 'User administration is not available to your account',
  text: 'People are managed inside a partner or an organization by accounts that can see all of it.',
};

/** Where the user belongs, as a sentence fragment: "Contoso", "the partner". */
function tenantOf(u: UserSummary, dir: Directory): string {
  const a = u.association;
  if (a.scope === 'organization') return dir.orgName(a.orgId) ?? 'this organization';
  if (a.scope === 'partner') return dir.partnerName(a.partnerId) ?? 'this partner';
  return 'the platform';
}

export function UsersView({ tabs }: { tabs: ReactNode }) {
  const scope = useScope();
  // A read-only viewer is not offered an invitation the server would refuse.
  const canInvite = useCan('users:invite');
  const me = useSession((s) => s.user?.id);
  const dir = useDirectory();
  const now = useNow(60_000);
  // `?q=` is where the global search sends a person it found: the list opens searched for them.
  const linkedQ = useRouter((s) => new URLSearchParams(s.search).get('q') ?? '');
  const [search, setSearch] = useState(linkedQ);
  const [q, setQ] = useState(linkedQ.trim());
  // A new link while the page is open (another search result) replaces what was typed.
  const [seenQ, setSeenQ] = useState(linkedQ);
  if (seenQ !== linkedQ) {
    setSeenQ(linkedQ);
    setSearch(linkedQ);
  }
  const [status, setStatus] = useState<UserStatus | ''>('');
  const [page, setPage] = useState(1);
  const inviting = useDialog<true>();
  const [pending, setPending] = useState<Pending | null>(null);
  const action = useAsyncAction();
  const { busy, error: actionError } = action;
  const [notice, setNotice] = useState<string | null>(null);
  const [rowError, setRowError] = useState<{ userId: string; error: unknown } | null>(null);

  // Search as you type, without a request per keystroke.
  useEffect(() => {
    const id = setTimeout(() => {
      setQ(search.trim());
      setPage(1);
    }, 250);
    return () => clearTimeout(id);
  }, [search]);

  const users = useUsers({ q, status: status || undefined, page, limit: PAGE_SIZE });
  const list = asList(users.data);
  const filtered = q !== '' || status !== '';

  const open = (next: Pending) => {
    action.reset();
    setPending(next);
  };

  /** A row action confirmed in its dialog: then the dialog closes, the list says what happened and reloads. */
  /** The write a dialog confirms on the pending user; then its notice, the dialog closed and the list read again. */
  const settle =
    (write: (u: UserSummary) => Promise<unknown>, done: (u: UserSummary) => string) => async () => {
      if (!pending) return;
      await write(pending.user);
      setPending(null);
      setNotice(done(pending.user));
      users.reload();
    };

  const resend = async (u: UserSummary) => {
    setRowError(null);
    try {
      const res = await peopleApi.resendInvite(u.id);
      setNotice(
        `A new invitation was sent to ${u.email}. The link is valid until ${formatDateTime(res.expiresAt)}.`,
      );
    } catch (err) {
      setRowError({ userId: u.id, error: err });
    }
  };

  return (
    <>
      <PageHeader
        title="Users & roles"
        sub={
          scope === 'system'
            ? 'Every account on this server, in every partner and organization: invitations, status and roles.'
            : scope === 'partner'
              ? 'Your partner team and the people of your organizations: invitations, account status and roles.'
              : 'People of your organization: invitations, account status and roles.'
        }
        actions={
          canInvite ? (
            <Button tone="primary" icon="mail" onClick={() => inviting.open(true)} testId="invite-user">
              Invite user
            </Button>
          ) : null
        }
      />
      {tabs}

      {notice ? (
        <div className="pp-notice">
          <Alert tone="success" testId="users-notice">
            {notice}
          </Alert>
          <SmallButton tone="ghost" icon="close" onClick={() => setNotice(null)} aria-label="Dismiss" />
        </div>
      ) : null}
      {rowError ? <ActionError error={rowError.error} testId="users-row-error" /> : null}

      {users.error && !users.data ? null : (
        <ListToolbar
          query={search}
          onQuery={setSearch}
          placeholder="Search name or email"
          searchTestId="user-search"
          filters={
            <ChoiceSelect
              value={status}
              onChange={(v) => {
                setStatus(v as UserStatus | '');
                setPage(1);
              }}
              ariaLabel="Filter by status"
              emptyLabel="All statuses"
              options={[
                { value: 'active', label: 'Active' },
                { value: 'invited', label: 'Invited' },
                { value: 'disabled', label: 'Disabled' },
              ]}
              testId="user-status-filter"
            />
          }
          count={
            users.data ? (
              <ListCount testId="user-count">
                {plural(paginationOf(users.data)?.total ?? list.length, filtered ? 'matching user' : 'user')}
              </ListCount>
            ) : null
          }
        />
      )}

      <ListStates
        of={users}
        loading="Loading users…"
        forbidden={USERS_FORBIDDEN}
        empty={
          list.length === 0 ? (
            <ListEmpty
              filtered={filtered}
              noMatch={{
                title: 'No user matches',
                text: 'Try another name or email, or clear the status filter.',
              }}
              icon="users"
              title="No users yet"
              testId="users-empty"
              action={
                canInvite ? (
                  <SmallButton tone="secondary" icon="mail" iconSize={16} onClick={() => inviting.open(true)}>
                    Invite the first user
                  </SmallButton>
                ) : null
              }
            >
              Invite technicians by email: they set their own password and two-step verification.
            </ListEmpty>
          ) : null
        }
      >
        <AdminTable
          testId="user-table"
          columns={['User', 'Status', 'Role', 'Access', 'MFA', 'Last sign-in']}
          after={<Pager pagination={paginationOf(users.data)} onPage={setPage} testId="users-pager" />}
        >
          {list.map((u) => (
            <UserRow
              key={`${u.id}:${u.association.orgId ?? u.association.partnerId ?? ''}`}
              u={u}
              self={u.id === me}
              dir={dir}
              scope={scope}
              now={now}
              open={open}
              resend={(user) => void resend(user)}
            />
          ))}
        </AdminTable>
      </ListStates>

      {inviting.value ? (
        <InviteDialog
          {...inviting.props((email: string) => {
            setNotice(`Invitation sent to ${email}.`);
            users.reload();
          })}
        />
      ) : null}

      {pending?.kind === 'role' ? (
        <ChangeRoleDialog
          user={pending.user}
          busy={busy}
          error={actionError}
          onClose={() => setPending(null)}
          onSave={(roleId, roleName) =>
            void action.run(
              settle(
                (u) => peopleApi.setRole(u.id, roleId),
                (u) => `${u.name || u.email} now has the role ${roleName}.`,
              ),
            )
          }
        />
      ) : null}

      <ConfirmAction
        open={pending?.kind === 'disable'}
        action={action}
        title="Disable account"
        confirmLabel="Disable account"
        onCancel={() => setPending(null)}
        onConfirm={settle(
          (u) => peopleApi.setStatus(u.id, 'disabled'),
          (u) => `${u.email} is disabled.`,
        )}
        testId="user-disable-dialog"
      >
        <p>
          Disable <strong>{pending?.user.email}</strong>? Their sessions end at once and they cannot sign in
          until the account is enabled again. Their role and memberships are kept.
        </p>
      </ConfirmAction>

      <Dialog
        open={pending?.kind === 'enable'}
        title="Enable account"
        onClose={() => setPending(null)}
        testId="user-enable-dialog"
        footer={
          <DialogButtons
            onCancel={() => setPending(null)}
            onAction={() =>
              void action.run(
                settle(
                  (u) => peopleApi.setStatus(u.id, 'active'),
                  (u) => `${u.email} can sign in again.`,
                ),
              )
            }
            busy={busy}
            label="Enable account"
            busyLabel="Working…"
            testId="confirm-action"
          />
        }
      >
        <div className="form">
          <p>
            Enable <strong>{pending?.user.email}</strong>? They can sign in again with their existing password
            and two-step verification, with the role {pending?.user.association.roleName}.
          </p>
          <ActionError error={actionError} />
        </div>
      </Dialog>

      <ConfirmAction
        open={pending?.kind === 'remove'}
        action={action}
        title={pending?.user.status === 'invited' ? 'Withdraw invitation' : 'Remove from tenant'}
        confirmLabel={pending?.user.status === 'invited' ? 'Withdraw invitation' : 'Remove user'}
        onCancel={() => setPending(null)}
        onConfirm={settle(
          (u) => peopleApi.removeUser(u.id),
          (u) => `${u.email} was removed from ${tenantOf(u, dir)}.`,
        )}
        testId="user-remove-dialog"
      >
        {pending ? (
          <>
            <p>
              Remove <strong>{pending.user.email}</strong> from {tenantOf(pending.user, dir)}? They lose
              access to it at once.
            </p>
            <p className="muted">
              Only the membership is removed: the Gatehouse account itself remains, keeps any other
              memberships, and can be invited again later.
            </p>
          </>
        ) : null}
      </ConfirmAction>
    </>
  );
}
