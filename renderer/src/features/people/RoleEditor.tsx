import { useState } from 'react';
import type { AvailablePermissionsResponse, Role, RoleDetail } from '../../../../server/contract';
import { ApiError } from '../../lib/errors';
import { useDocumentTitle, useDialog } from '../../lib/hooks';
import { asList } from '../../lib/query';
import { navigate } from '../../lib/router';
import { Alert, Button, LoadingBlock, LoadState, PageHeader, type NotFound } from '../../ui';
import { useAvailablePermissions, useRole, useRoles } from './api';
import { SCOPE_LABEL, roleTenantLabel } from './directory';
import { CloneRoleDialog, DeleteRoleDialog, RoleUsersCard } from './RoleDialogs';
import { RoleDetailsCard, RolePermissionsCard, RoleSaveBar } from './RoleSections';
import { FALLBACK, offeredVocabulary, ROLES_FORBIDDEN } from './role-model';
import { useRoleForm } from './useRoleForm';
import { plural } from '../../lib/format';

// The role editor: details, a permission matrix over the role vocabulary (resources x actions), the named special
// permissions and full administration. What the parent chain grants is shown checked and locked, with the role it
// comes from; the server has the last word on cycles, escalation and names. The state lives in useRoleForm, the
// cards in RoleSections, the rules of inheritance in role-model.

const ROLE_NOT_FOUND: NotFound = {
  icon: 'users',
  title: 'This role does not exist',
  text: 'It may have been deleted, or it belongs to a tenant your account cannot see.',
  testId: 'role-not-found',
};

export function RoleEditor({ roleId }: { roleId: string | null }) {
  const role = useRole(roleId ?? null);
  const roles = useRoles();
  const available = useAvailablePermissions();
  useDocumentTitle(role.data ? role.data.name : roleId ? 'Role' : 'New role');
  const back = { to: '/users/roles', label: 'Roles' };

  if (role.loading || roles.loading) return <LoadingBlock label="Loading role…" />;
  if (roleId && !role.data) {
    const missing = role.error instanceof ApiError && role.error.status === 404;
    return (
      <>
        <PageHeader title={missing ? 'Role not found' : 'Role'} back={back} />
        <LoadState of={role} forbidden={ROLES_FORBIDDEN} notFound={ROLE_NOT_FOUND} />
      </>
    );
  }
  return (
    <RoleForm
      key={role.data ? `${role.data.id}:${role.data.updatedAt}` : 'new'}
      role={role.data ?? null}
      roles={asList(roles.data)}
      vocabulary={available.data ? offeredVocabulary(available.data) : FALLBACK}
      onSaved={(saved) => {
        roles.reload();
        if (!roleId) navigate(`/users/roles/${saved.id}`, { replace: true });
        else role.reload();
      }}
    />
  );
}

function RoleForm({
  role,
  roles,
  vocabulary,
  onSaved,
}: {
  role: RoleDetail | null;
  roles: Role[];
  vocabulary: AvailablePermissionsResponse;
  onSaved: (role: RoleDetail) => void;
}) {
  const form = useRoleForm({ role, roles, onSaved });
  const { readOnly, dir, busy, deleteError, setDeleteError, submit, remove } = form;
  const cloning = useDialog<true>();
  const [deleting, setDeleting] = useState(false);

  const title = (
    <span className="pp-title">
      <span data-testid="role-title">{role === null ? 'New role' : role.name}</span>
      {role?.isSystem ? (
        <span className="badge adm-badge-system" data-testid="role-system-badge">
          System
        </span>
      ) : null}
    </span>
  );

  const sub = role ? (
    <>
      {SCOPE_LABEL[role.scope] ?? role.scope} role · {roleTenantLabel(role, dir)} ·{' '}
      {plural(role.userCount, 'user')}
    </>
  ) : (
    'Choose a name, an optional parent to inherit from, and the permissions this role adds.'
  );

  return (
    <>
      <PageHeader
        back={{ to: '/users/roles', label: 'Roles' }}
        title={title}
        sub={sub}
        actions={
          <>
            {role ? (
              <Button
                tone={readOnly ? 'primary' : 'secondary'}
                icon="copy"
                onClick={() => cloning.open(true)}
                testId="role-clone"
              >
                {readOnly ? 'Clone to customize' : 'Clone'}
              </Button>
            ) : null}
            {role && !readOnly ? (
              <Button
                tone="danger"
                icon="trash"
                onClick={() => {
                  setDeleteError(null);
                  setDeleting(true);
                }}
                testId="role-delete"
              >
                Delete
              </Button>
            ) : null}
          </>
        }
      />

      {readOnly ? (
        <Alert tone="info" testId="role-readonly">
          Built-in roles are read-only so every tenant can rely on them. Use{' '}
          <strong>Clone to customize</strong> to make an editable copy with the same permissions.
        </Alert>
      ) : null}

      <form className="pp-editor" onSubmit={(e) => void submit(e)} noValidate data-testid="role-form">
        <RoleDetailsCard form={form} />
        <RolePermissionsCard form={form} vocabulary={vocabulary} />
        <div className="pp-side">
          {role ? <RoleUsersCard role={role} dir={dir} /> : null}
          {!readOnly ? <RoleSaveBar form={form} /> : null}
        </div>
      </form>

      {cloning.value && role ? (
        <CloneRoleDialog role={role} {...cloning.props((id: string) => navigate(`/users/roles/${id}`))} />
      ) : null}

      <DeleteRoleDialog
        role={role}
        open={deleting}
        action={{ busy, error: deleteError }}
        onCancel={() => setDeleting(false)}
        onConfirm={() => void remove()}
      />
    </>
  );
}
