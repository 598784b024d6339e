import { useState, type ReactNode } from 'react';
import type { Role } from '../../../../server/contract';

import { Link, navigate } from '../../lib/router';
import {
  ButtonLink,
  ChoiceSelect,
  EmptyState,
  ListStates,
  PageHeader,
  rowAction,
  RowActions,
  SearchTable,
} from '../../ui';
import { asList } from '../../lib/query';
import { useRowSearch } from '../../lib/row-search';
import { useScope } from '../../lib/session';
import { useCan } from '../../lib/can';
import { useTarget, writeTarget, useDialog } from '../../lib/hooks';
import { SCOPE_LABEL, roleTenantLabel, useDirectory } from './directory';
import { CloneRoleDialog, DeleteRoleDialog } from './RoleDialogs';
import { peopleApi, useRoles } from './api';
import { ROLES_FORBIDDEN } from './role-model';
import { plural } from '../../lib/format';

export function RolesView({ tabs }: { tabs: ReactNode }) {
  const scope = useScope();
  // Creating, cloning and deleting roles are users:write; a viewer only opens them.
  const canWrite = useCan('users:write');
  const dir = useDirectory();
  const roles = useRoles();
  const [kind, setKind] = useState<'' | 'system' | 'custom'>('');
  const cloning = useDialog<Role>();
  const deleting = useTarget<Role>();

  const list = asList(roles.data);
  const byId = new Map(list.map((r) => [r.id, r]));
  const { rows, search } = useRowSearch(list, (r) => [r.name, r.description]);
  const shown = rows
    .filter((r) => !kind || (kind === 'system') === r.isSystem)
    // Built-in roles first, then custom roles, each alphabetically.
    .sort((a, b) => Number(b.isSystem) - Number(a.isSystem) || a.name.localeCompare(b.name));

  const remove = writeTarget(deleting, (r) => peopleApi.deleteRole(r.id), roles.reload);

  return (
    <>
      <PageHeader
        title="Users & roles"
        sub="Roles bundle permissions. Built-in roles are fixed; clone one to customize it."
        actions={
          canWrite ? (
            <ButtonLink to="/users/roles/new" tone="primary" icon="plus" testId="role-create">
              New role
            </ButtonLink>
          ) : null
        }
      />
      {tabs}

      <ListStates of={roles} loading="Loading roles…" forbidden={ROLES_FORBIDDEN}>
        <SearchTable
          search={search}
          placeholder="Search roles"
          searchTestId="role-search"
          filters={
            <ChoiceSelect
              value={kind}
              onChange={(v) => setKind(v as '' | 'system' | 'custom')}
              ariaLabel="Filter by kind"
              emptyLabel="Built-in and custom"
              options={[
                { value: 'system', label: 'Built-in only' },
                { value: 'custom', label: 'Custom only' },
              ]}
              testId="role-kind-filter"
            />
          }
          count={plural(list.length, 'role')}
          table={{
            testId: 'role-table',
            columns: ['Role', 'Applies to', 'Inherits from', <th className="num">Users</th>],
          }}
          noMatch={
            shown.length > 0
              ? null
              : list.length === 0
                ? 'No roles are visible to your account.'
                : 'No role matches.'
          }
        >
          {shown.map((r) => (
            <tr key={r.id} data-testid="role-row" data-role-id={r.id} data-role-name={r.name}>
              <td>
                <div className="adm-cell-main">
                  <span className="pp-role-name">
                    <Link to={`/users/roles/${r.id}`} className="adm-cell-title" data-testid="role-open">
                      {r.name}
                    </Link>
                    {r.isSystem ? (
                      <span className="badge adm-badge-system" data-testid="role-system-badge">
                        System
                      </span>
                    ) : null}
                  </span>
                  {r.description ? <span className="adm-cell-sub pp-desc">{r.description}</span> : null}
                </div>
              </td>
              <td>
                <div className="adm-cell-main">
                  <span>{SCOPE_LABEL[r.scope] ?? r.scope} roles</span>
                  {scope !== 'organization' ? (
                    <span className="adm-cell-sub">{roleTenantLabel(r, dir)}</span>
                  ) : null}
                </div>
              </td>
              <td>
                {r.parentRoleId ? (
                  <Link to={`/users/roles/${r.parentRoleId}`}>
                    {byId.get(r.parentRoleId)?.name ?? 'Parent role'}
                  </Link>
                ) : (
                  <span className="muted">—</span>
                )}
              </td>
              <td className="num" data-testid="role-user-count">
                {r.userCount}
              </td>
              <RowActions
                name={r.name}
                testId="role-menu"
                items={[
                  {
                    label: r.isSystem || !canWrite ? 'View' : 'Edit',
                    icon: r.isSystem || !canWrite ? 'chevron' : 'edit',
                    testId: 'role-menu-open',
                    onSelect: () => navigate(`/users/roles/${r.id}`),
                  },
                  {
                    label: r.isSystem ? 'Clone to customize' : 'Clone',
                    icon: 'copy',
                    testId: 'role-menu-clone',
                    onSelect: () => cloning.open(r),
                    hidden: !canWrite,
                  },
                  rowAction.remove('role-menu-delete', () => deleting.open(r), {
                    hidden: r.isSystem || !canWrite,
                  }),
                ]}
              />
            </tr>
          ))}
        </SearchTable>
        {list.length > 0 && !list.some((r) => !r.isSystem) ? (
          <EmptyState icon="users" title="No custom roles yet" compact testId="roles-no-custom">
            Built-in roles cover the usual jobs. For anything else, create a role or clone a built-in one and
            adjust its permissions.
          </EmptyState>
        ) : null}
      </ListStates>

      {cloning.value ? (
        <CloneRoleDialog
          role={cloning.value}
          {...cloning.props((id: string) => navigate(`/users/roles/${id}`))}
        />
      ) : null}

      <DeleteRoleDialog
        role={deleting.target}
        open={deleting.target !== null}
        action={deleting.action}
        onCancel={deleting.close}
        onConfirm={() => void deleting.action.run(remove)}
      />
    </>
  );
}
