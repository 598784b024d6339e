// Over 400 lines: RoleForm is one form (name, tenant, inheritance, permissions) over one draft with one save; the permission matrix, the role's users, clone and delete live beside it.
import { useState, type FormEvent } from 'react';
import type { AvailablePermissionsResponse, Role, RoleDetail } from '../../../../server/contract';
import { ApiError } from '../../lib/api/client';
import { Link, navigate } from '../../lib/router';
import { ActionError } from '../../ui/ActionError';
import { ConfirmDialog } from '../../ui/Dialog';
import { Icon } from '../../ui/Icon';
import { Alert, Card, Field } from '../../ui/basics';
import { useDocumentTitle } from '../../lib/hooks';
import { EmptyState, LoadFailure, LoadingBlock, PageHeader, Toggle } from '../../ui';
import { asList } from '../../lib/resource';
import { fieldErrors } from '../../lib/forms';
import { useScope } from '../../lib/session';
import { SCOPE_LABEL, roleTenantLabel, useDirectory } from './directory';
import { PermissionMatrix } from './PermissionMatrix';
import { keyOf } from './permissions';
import { RoleUsersCard, CloneRoleDialog, deleteProblem } from './RoleDialogs';
import { peopleApi, useAvailablePermissions, useEffectivePermissions, useRole, useRoles } from './api';

// The role editor: details, a permission matrix over the role vocabulary (resources x actions), the named special
// permissions and full administration. What the parent chain grants is shown checked and locked, with the role it
// comes from; the server has the last word on cycles, escalation and names.

const FALLBACK: AvailablePermissionsResponse = {
  resources: [
    'devices',
    'scripts',
    'alerts',
    'automations',
    'reports',
    'users',
    'settings',
    'organizations',
    'sites',
    'remote',
  ],
  actions: ['view', 'create', 'update', 'delete', 'execute'],
  special: [
    { resource: 'audit', action: 'read', description: 'Read the audit log' },
    { resource: 'audit', action: 'export', description: 'Export the audit log' },
    { resource: 'pam', action: 'manage_policy', description: 'Manage privileged-access rules and policy' },
    { resource: 'pam', action: 'approve', description: 'Approve or deny elevation requests' },
  ],
};

const FULL = '*:*';

/** A held `resource:action` covers a wanted one literally, with `*` matching any resource or action. */
function covers(held: string, wanted: string): boolean {
  const [hr, ha] = held.split(':');
  const [wr, wa] = wanted.split(':');
  return (hr === '*' || hr === wr) && (ha === '*' || ha === wa);
}

type Tenant =
  | { scope: 'system' }
  | { scope: 'partner'; partnerId: string | null }
  | { scope: 'organization'; orgId: string | null };

/** Mirrors the server's rule for which roles a tenant may hold (and so inherit from). */
function availableTo(role: Role, tenant: Tenant): boolean {
  if (role.scope !== tenant.scope) return false;
  if (tenant.scope === 'system') return role.partnerId === null && role.orgId === null;
  if (tenant.scope === 'partner')
    return (
      role.orgId === null &&
      (role.partnerId === null || tenant.partnerId === null || role.partnerId === tenant.partnerId)
    );
  return role.orgId === null || tenant.orgId === null || role.orgId === tenant.orgId;
}

function tenantOfRole(role: Role): Tenant {
  if (role.scope === 'system') return { scope: 'system' };
  if (role.scope === 'partner') return { scope: 'partner', partnerId: role.partnerId };
  return { scope: 'organization', orgId: role.orgId };
}

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
        {missing ? (
          <EmptyState icon="users" title="This role does not exist" testId="role-not-found">
            It may have been deleted, or it belongs to a tenant your account cannot see.
          </EmptyState>
        ) : (
          <LoadFailure
            error={role.error}
            onRetry={role.reload}
            forbiddenTitle="Roles are not available to your account"
            forbiddenText="Roles are managed inside a partner or an organization."
          />
        )}
      </>
    );
  }
  return (
    <RoleForm
      key={role.data ? `${role.data.id}:${role.data.updatedAt}` : 'new'}
      role={role.data ?? null}
      roles={asList(roles.data)}
      vocabulary={available.data ?? FALLBACK}
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
  const scope = useScope();
  const dir = useDirectory();
  const creating = role === null;
  const readOnly = role?.isSystem === true;
  const initialPerms = (role?.permissions ?? []).map((p) => keyOf(p.resource, p.action));

  const [name, setName] = useState(role?.name ?? '');
  const [description, setDescription] = useState(role?.description ?? '');
  const [parentId, setParentId] = useState(role?.parentRoleId ?? '');
  const [perms, setPerms] = useState<Set<string>>(() => new Set(initialPerms));
  const [target, setTarget] = useState(scope === 'system' ? 'system' : '');
  const [nameTouched, setNameTouched] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [serverFields, setServerFields] = useState<Record<string, string>>({});
  const [missing, setMissing] = useState<Set<string>>(new Set());
  const [cloning, setCloning] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<unknown>(null);

  // The tenant the role lives in: fixed for an existing role, chosen for a new one.
  const tenant: Tenant = role
    ? tenantOfRole(role)
    : target === 'system'
      ? { scope: 'system' }
      : target.startsWith('p:')
        ? { scope: 'partner', partnerId: target.slice(2) }
        : target.startsWith('o:')
          ? { scope: 'organization', orgId: target.slice(2) }
          : scope === 'organization'
            ? { scope: 'organization', orgId: null }
            : { scope: 'partner', partnerId: null };

  const byId = new Map(roles.map((r) => [r.id, r]));
  /** Roles that inherit (directly or further down) from this role: choosing one as parent closes a loop. */
  const inheritsFromThis = (candidate: Role): boolean => {
    if (!role) return false;
    const seen = new Set<string>();
    let next: string | null = candidate.id;
    while (next && !seen.has(next)) {
      if (next === role.id) return true;
      seen.add(next);
      next = byId.get(next)?.parentRoleId ?? null;
    }
    return false;
  };
  const parentOptions = roles
    .filter((r) => r.id !== role?.id && availableTo(r, tenant))
    .sort((a, b) => Number(b.isSystem) - Number(a.isSystem) || a.name.localeCompare(b.name));
  const parent = parentId ? byId.get(parentId) : undefined;

  const parentEffective = useEffectivePermissions(parentId || null);
  const cycleError =
    parent && inheritsFromThis(parent)
      ? `Circular inheritance: ${parent.name} already inherits from this role`
      : undefined;
  // While the chosen parent would close a loop, nothing is inherited: the error says why.
  const inherited = (cycleError ? [] : (parentEffective.data?.permissions ?? [])).map((p) => ({
    key: keyOf(p.resource, p.action),
    source: p.sourceRoleName,
  }));
  const inheritedSource = (k: string): string | null =>
    inherited.find((i) => covers(i.key, k))?.source ?? null;
  const fullInherited = inherited.find((i) => i.key === FULL)?.source ?? null;
  const fullDirect = perms.has(FULL);

  const nameError = !name.trim()
    ? 'Name is required'
    : name.trim().length > 100
      ? 'At most 100 characters'
      : undefined;
  const targetError = creating && scope === 'system' && !target ? 'Choose where the role belongs' : undefined;

  const permsChanged = perms.size !== initialPerms.length || initialPerms.some((k) => !perms.has(k));
  const dirty =
    creating ||
    name !== (role?.name ?? '') ||
    description !== (role?.description ?? '') ||
    parentId !== (role?.parentRoleId ?? '') ||
    permsChanged;

  const toggle = (k: string, on: boolean) => {
    setPerms((current) => {
      const next = new Set(current);
      if (on) next.add(k);
      else next.delete(k);
      return next;
    });
    if (missing.has(k)) setMissing((m) => new Set([...m].filter((x) => x !== k)));
  };
  const setMany = (keys: string[], on: boolean) => {
    setPerms((current) => {
      const next = new Set(current);
      for (const k of keys) {
        if (on) next.add(k);
        else next.delete(k);
      }
      return next;
    });
  };

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    setSubmitted(true);
    if (nameError || cycleError || targetError || readOnly) return;
    setBusy(true);
    setError(null);
    setServerFields({});
    setMissing(new Set());
    const permissions = [...perms].map((k) => {
      const [resource = '', action = ''] = k.split(':');
      return { resource, action };
    });
    try {
      let saved: RoleDetail;
      if (creating) {
        const body: Record<string, unknown> = {
          name: name.trim(),
          description: description.trim() || null,
          permissions,
        };
        if (parentId) body.parentRoleId = parentId;
        if (target.startsWith('p:')) body.partnerId = target.slice(2);
        if (target.startsWith('o:')) body.orgId = target.slice(2);
        saved = await peopleApi.createRole(body);
      } else {
        const body: Record<string, unknown> = {};
        if (name.trim() !== role.name) body.name = name.trim();
        if (description.trim() !== (role.description ?? '')) body.description = description.trim() || null;
        if (parentId !== (role.parentRoleId ?? '')) body.parentRoleId = parentId || null;
        if (permsChanged) body.permissions = permissions;
        if (Object.keys(body).length === 0) {
          setBusy(false);
          return;
        }
        saved = await peopleApi.updateRole(role.id, body);
      }
      onSaved(saved);
    } catch (err) {
      const fields = fieldErrors(err);
      if (err instanceof ApiError) {
        if (err.code === 'CIRCULAR_INHERITANCE' || /^Parent role|inheritance/i.test(err.message))
          fields.parentRoleId = err.message;
        if (err.code === 'ROLE_NAME_TAKEN') fields.name = err.message;
        if (err.code === 'PERMISSION_ESCALATION' && Array.isArray(err.body?.missing))
          setMissing(
            new Set((err.body.missing as unknown[]).filter((m): m is string => typeof m === 'string')),
          );
      }
      setServerFields(fields);
      setError(Object.keys(fields).length > 0 ? null : err);
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (!role) return;
    setBusy(true);
    setDeleteError(null);
    try {
      await peopleApi.deleteRole(role.id);
      navigate('/users/roles');
    } catch (err) {
      setDeleteError(err);
      setBusy(false);
    }
  };

  const discard = () => {
    setName(role?.name ?? '');
    setDescription(role?.description ?? '');
    setParentId(role?.parentRoleId ?? '');
    setPerms(new Set(initialPerms));
    setServerFields({});
    setMissing(new Set());
    setError(null);
    setSubmitted(false);
  };

  // Counts for the summary line: what the role grants once saved (its own plus what the parent brings).
  // Own grants as stored; some may also come from the parent, in which case the cell shows the lock.
  const directCount = [...perms].filter((k) => k !== FULL).length;
  const inheritedSources = [...new Set(inherited.map((i) => i.source))];

  const title = (
    <span className="pp-title">
      <span data-testid="role-title">{creating ? 'New role' : role.name}</span>
      {role?.isSystem ? (
        <span className="badge adm-badge-system" data-testid="role-system-badge">
          System
        </span>
      ) : null}
    </span>
  );

  const sub = role ? (
    <>
      {SCOPE_LABEL[role.scope] ?? role.scope} role · {roleTenantLabel(role, dir)} · {role.userCount} user
      {role.userCount === 1 ? '' : 's'}
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
              <button
                type="button"
                className={`btn ${readOnly ? 'btn-primary' : 'btn-secondary'}`}
                onClick={() => setCloning(true)}
                data-testid="role-clone"
              >
                <Icon name="copy" />
                {readOnly ? 'Clone to customize' : 'Clone'}
              </button>
            ) : null}
            {role && !readOnly ? (
              <button
                type="button"
                className="btn btn-danger"
                onClick={() => {
                  setDeleteError(null);
                  setDeleting(true);
                }}
                data-testid="role-delete"
              >
                <Icon name="trash" />
                Delete
              </button>
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
        <Card title="Details" icon="edit" className="pp-details">
          <div className="adm-form-grid">
            <Field
              label="Name"
              htmlFor="role-name"
              error={((submitted || nameTouched) && nameError) || serverFields.name}
            >
              <input
                id="role-name"
                type="text"
                maxLength={100}
                value={name}
                disabled={readOnly}
                autoFocus={creating}
                onChange={(e) => {
                  setName(e.target.value);
                  if (serverFields.name) setServerFields(({ name: _n, ...rest }) => rest);
                }}
                onBlur={() => setNameTouched(true)}
                data-testid="role-name"
              />
            </Field>
            <Field
              label="Inherits from"
              htmlFor="role-parent"
              error={cycleError ?? serverFields.parentRoleId}
              hint={
                parent
                  ? `Everything ${parent.name} grants is included and locked below.`
                  : readOnly
                    ? undefined
                    : 'No parent: the role grants only what you tick.'
              }
            >
              <select
                id="role-parent"
                value={parentId}
                disabled={readOnly}
                onChange={(e) => {
                  setParentId(e.target.value);
                  if (serverFields.parentRoleId) setServerFields(({ parentRoleId: _p, ...rest }) => rest);
                }}
                data-testid="role-parent"
              >
                <option value="">No parent</option>
                {parentOptions.map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.name}
                    {r.isSystem ? ' (built-in)' : ''}
                  </option>
                ))}
                {parentId && !parentOptions.some((r) => r.id === parentId) ? (
                  <option value={parentId}>{parent?.name ?? 'Current parent'}</option>
                ) : null}
              </select>
            </Field>
            {creating && scope !== 'organization' ? (
              <Field
                label="Belongs to"
                htmlFor="role-tenant"
                error={submitted ? targetError : undefined}
                hint="Who can hold the role. Partner roles are for partner users, organization roles for one customer."
              >
                <select
                  id="role-tenant"
                  value={target}
                  onChange={(e) => {
                    setTarget(e.target.value);
                    setParentId('');
                  }}
                  data-testid="role-tenant"
                >
                  {scope === 'system' ? (
                    <option value="system">Platform (platform administrators)</option>
                  ) : null}
                  {scope === 'partner' ? <option value="">Your partner (partner users)</option> : null}
                  {scope === 'system' && dir.partners.length > 0 ? (
                    <optgroup label="Partner roles">
                      {dir.partners.map((p) => (
                        <option key={p.id} value={`p:${p.id}`}>
                          {p.name}
                        </option>
                      ))}
                    </optgroup>
                  ) : null}
                  {dir.orgs.length > 0 ? (
                    <optgroup label="Organization roles">
                      {dir.orgs.map((o) => (
                        <option key={o.id} value={`o:${o.id}`}>
                          {o.name}
                        </option>
                      ))}
                    </optgroup>
                  ) : null}
                </select>
              </Field>
            ) : null}
            <div className={creating && scope !== 'organization' ? '' : 'full'}>
              <Field label="Description" htmlFor="role-description" error={serverFields.description}>
                <input
                  id="role-description"
                  type="text"
                  maxLength={1000}
                  value={description}
                  disabled={readOnly}
                  placeholder="What this role is for"
                  onChange={(e) => setDescription(e.target.value)}
                  data-testid="role-description"
                />
              </Field>
            </div>
          </div>
        </Card>

        <Card
          title="Permissions"
          icon="lock"
          className="pp-perms"
          testId="role-permissions"
          actions={
            <span className="muted small" data-testid="role-perm-summary">
              {fullDirect || fullInherited
                ? 'Full administration'
                : `${directCount} own${inherited.length ? ` · ${inherited.length} inherited` : ''}`}
            </span>
          }
        >
          <Toggle
            id="role-full-admin"
            checked={fullDirect || fullInherited !== null}
            disabled={readOnly || fullInherited !== null}
            onChange={(on) => toggle(FULL, on)}
            label={
              <>
                Full administration <code className="pp-code">*:*</code>
              </>
            }
            hint={
              fullInherited
                ? `Inherited from ${fullInherited}.`
                : 'Grants every permission below, and any added later. Reserve it for administrators.'
            }
          />
          {missing.has(FULL) ? (
            <div className="field-error">You do not hold full administration yourself.</div>
          ) : null}

          <PermissionMatrix
            vocabulary={vocabulary}
            perms={perms}
            readOnly={readOnly}
            full={fullDirect || fullInherited !== null}
            inheritedSource={inheritedSource}
            showSources={inherited.length > 0}
            missing={missing}
            onToggle={toggle}
            onSetMany={setMany}
          />

          <div className="pp-special">
            <h3 className="pp-section-title">Audit and privileged access</h3>
            {vocabulary.special.map((s) => {
              const k = keyOf(s.resource, s.action);
              const source = inheritedSource(k);
              const locked = readOnly || source !== null || fullDirect || fullInherited !== null;
              const checked = source !== null || fullDirect || fullInherited !== null || perms.has(k);
              return (
                <label
                  key={k}
                  className={`pp-special-row${locked ? ' locked' : ''}${missing.has(k) ? ' missing' : ''}`}
                >
                  <input
                    type="checkbox"
                    checked={checked}
                    disabled={locked}
                    onChange={(e) => toggle(k, e.target.checked)}
                    data-testid={`perm-${s.resource}-${s.action}`}
                  />
                  <span className="pp-special-text">
                    <code className="pp-code">{k}</code>
                    <span className="muted">{s.description}</span>
                  </span>
                  {source ? (
                    <span className="pp-from">
                      <Icon name="lock" size={12} />
                      {source}
                    </span>
                  ) : null}
                </label>
              );
            })}
          </div>

          {inheritedSources.length > 0 ? (
            <p className="pp-legend muted small">
              <Icon name="lock" size={12} /> Locked ticks come from {inheritedSources.join(', ')} through
              inheritance. Change or remove the parent to change them.
            </p>
          ) : null}
        </Card>

        <div className="pp-side">
          {role ? <RoleUsersCard role={role} dir={dir} /> : null}
          {!readOnly ? (
            <div className="pp-savebar" data-testid="role-savebar">
              <ActionError error={error} testId="role-error" />
              {missing.size > 0 ? (
                <p className="field-error">
                  You cannot grant what you do not hold yourself: {[...missing].join(', ')}.
                </p>
              ) : null}
              <div className="row gap-sm">
                <button
                  type="submit"
                  className="btn btn-primary"
                  disabled={busy || !dirty || Boolean(nameError && submitted) || Boolean(cycleError)}
                  data-testid="role-save"
                >
                  {busy ? 'Saving…' : creating ? 'Create role' : 'Save changes'}
                </button>
                {!creating ? (
                  <button
                    type="button"
                    className="btn btn-ghost"
                    disabled={busy || !dirty}
                    onClick={discard}
                    data-testid="role-discard"
                  >
                    Discard changes
                  </button>
                ) : (
                  <Link to="/users/roles" className="btn btn-ghost">
                    Cancel
                  </Link>
                )}
                {dirty && !creating ? <span className="muted small">Unsaved changes</span> : null}
              </div>
            </div>
          ) : null}
        </div>
      </form>

      {cloning && role ? (
        <CloneRoleDialog
          role={role}
          onClose={() => setCloning(false)}
          onCloned={(id) => {
            setCloning(false);
            navigate(`/users/roles/${id}`);
          }}
        />
      ) : null}

      <ConfirmDialog
        open={deleting}
        title="Delete role"
        confirmLabel="Delete role"
        busy={busy}
        onCancel={() => setDeleting(false)}
        onConfirm={() => void remove()}
        testId="role-delete-dialog"
      >
        <div className="adm-dialog-form">
          <p>
            Delete the role <strong>{role?.name}</strong>? This cannot be undone.
          </p>
          {role && role.userCount > 0 ? (
            <p className="muted">
              {role.userCount} user{role.userCount === 1 ? ' holds' : 's hold'} this role: give them another
              role first, or the server refuses.
            </p>
          ) : null}
          {deleteError ? deleteProblem(deleteError) : null}
        </div>
      </ConfirmDialog>
    </>
  );
}
