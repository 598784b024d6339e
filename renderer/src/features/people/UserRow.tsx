import type { UserSummary } from '../../../../server/contract';
import { formatDateTime, initials, relativeTime } from '../../lib/format';
import { Icon, RowActions, StatusPill, rowAction } from '../../ui';
import { accessSummary, type Directory } from './directory';

// One row of the user list: who, status, role, reach, MFA, last sign-in, and the actions the caller may take.

export type UserStatusTone = 'ok' | 'warn' | 'bad' | 'muted';

export const USER_STATUS: Record<UserSummary['status'], { label: string; tone: UserStatusTone }> = {
  active: { label: 'Active', tone: 'ok' },
  invited: { label: 'Invited', tone: 'warn' },
  disabled: { label: 'Disabled', tone: 'muted' },
};

/** What a row action asks for: a dialog on the user (role, disable, enable, remove). */
export type Pending =
  | { kind: 'role'; user: UserSummary }
  | { kind: 'disable'; user: UserSummary }
  | { kind: 'enable'; user: UserSummary }
  | { kind: 'remove'; user: UserSummary };

export function UserRow({
  u,
  self,
  dir,
  scope,
  now,
  open,
  resend,
}: {
  u: UserSummary;
  /** The row is the caller's own account: nothing that would lock them out is offered. */
  self: boolean;
  dir: Directory;
  scope: string | null;
  now: number;
  open: (pending: Pending) => void;
  resend: (u: UserSummary) => void;
}) {
  const st = USER_STATUS[u.status];
  return (
    <tr
      key={`${u.id}:${u.association.orgId ?? u.association.partnerId ?? ''}`}
      data-testid="user-row"
      data-user-id={u.id}
      data-email={u.email}
    >
      <td>
        <div className="adm-person">
          <span className="avatar" aria-hidden="true">
            {initials(u.name, u.email)}
          </span>
          <div className="adm-cell-main">
            <span className="adm-cell-title">
              {u.name || u.email}
              {self ? <span className="pp-you">you</span> : null}
            </span>
            <span className="adm-cell-sub">{u.email}</span>
          </div>
        </div>
      </td>
      <td>
        <StatusPill tone={st.tone} testId="user-status">
          {st.label}
        </StatusPill>
      </td>
      <td data-testid="user-role">{u.association.roleName}</td>
      <td className="muted">{accessSummary(u.association, dir, scope)}</td>
      <td>
        {u.mfaEnabled ? (
          <span className="pp-mfa on">
            <Icon name="lock" size={13} />
            {u.mfaMethod === 'sms' ? 'SMS' : 'Authenticator'}
          </span>
        ) : (
          <span className="pp-mfa">Off</span>
        )}
      </td>
      <td className="nowrap" title={u.lastLoginAt ? formatDateTime(u.lastLoginAt) : undefined}>
        {u.lastLoginAt ? (
          relativeTime(Date.parse(u.lastLoginAt), now)
        ) : (
          <span className="muted">{u.status === 'invited' ? 'Not yet accepted' : 'Never'}</span>
        )}
      </td>
      <RowActions
        name={u.email}
        testId="user-menu"
        items={[
          {
            label: 'Change role',
            icon: 'users',
            testId: 'user-menu-role',
            hidden: self || u.association.scope === 'system',
            onSelect: () => open({ kind: 'role', user: u }),
          },
          {
            label: 'Resend invitation',
            icon: 'mail',
            testId: 'user-menu-resend',
            hidden: u.status !== 'invited',
            onSelect: () => resend(u),
          },
          {
            label: 'Disable account',
            icon: 'lock',
            testId: 'user-menu-disable',
            hidden: self || u.status !== 'active',
            onSelect: () => open({ kind: 'disable', user: u }),
          },
          {
            label: 'Enable account',
            icon: 'check',
            testId: 'user-menu-enable',
            hidden: self || u.status !== 'disabled',
            onSelect: () => open({ kind: 'enable', user: u }),
          },
          rowAction.remove('user-menu-remove', () => open({ kind: 'remove', user: u }), {
            label: u.status === 'invited' ? 'Withdraw invitation' : 'Remove from tenant',
            hidden: self || u.association.scope === 'system',
          }),
        ]}
      />
    </tr>
  );
}
