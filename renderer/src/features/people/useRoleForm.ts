import { useState, type FormEvent } from 'react';
import type { Role, RoleDetail } from '../../../../server/contract';
import { ApiError } from '../../lib/errors';
import { fieldErrors } from '../../lib/forms';
import { navigate } from '../../lib/router';
import { useScope } from '../../lib/session';
import { peopleApi, useEffectivePermissions, type CreateRoleBody, type UpdateRoleBody } from './api';
import { useDirectory } from './directory';
import { keyOf } from './permissions';
import {
  FULL,
  availableTo,
  covers,
  inheritsFrom,
  tenantOfRole,
  tenantOfTarget,
  type Tenant,
} from './role-model';

// The role editor's state model: the draft (name, description, parent, permissions, tenant), what the parent
// chain grants, the checks as typed, and the save, discard and delete with the server's refusals placed on their
// fields. The cards (RoleSections) only render it.

export function useRoleForm({
  role,
  roles,
  onSaved,
}: {
  role: RoleDetail | null;
  roles: Role[];
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
  const [deleteError, setDeleteError] = useState<unknown>(null);

  // The tenant the role lives in: fixed for an existing role, chosen for a new one.
  const tenant: Tenant = role ? tenantOfRole(role) : tenantOfTarget(target, scope);

  const byId = new Map(roles.map((r) => [r.id, r]));
  /** Roles that inherit (directly or further down) from this role: choosing one as parent closes a loop. */
  const inheritsFromThis = (candidate: Role): boolean =>
    role ? inheritsFrom(candidate, role.id, byId) : false;
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
        const body: CreateRoleBody = {
          name: name.trim(),
          description: description.trim() || null,
          permissions,
        };
        if (parentId) body.parentRoleId = parentId;
        if (target.startsWith('p:')) body.partnerId = target.slice(2);
        if (target.startsWith('o:')) body.orgId = target.slice(2);
        saved = await peopleApi.createRole(body);
      } else {
        const body: UpdateRoleBody = {};
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

  return {
    role,
    scope,
    dir,
    creating,
    readOnly,
    name,
    setName,
    description,
    setDescription,
    parentId,
    setParentId,
    perms,
    target,
    setTarget,
    setNameTouched,
    nameTouched,
    submitted,
    busy,
    error,
    serverFields,
    setServerFields,
    missing,
    deleteError,
    setDeleteError,
    parentOptions,
    parent,
    cycleError,
    inherited,
    inheritedSource,
    fullInherited,
    fullDirect,
    nameError,
    targetError,
    dirty,
    toggle,
    setMany,
    submit,
    remove,
    discard,
    directCount,
    inheritedSources,
  };
}

export type RoleFormState = ReturnType<typeof useRoleForm>;
