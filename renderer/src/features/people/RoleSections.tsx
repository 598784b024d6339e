import type { AvailablePermissionsResponse } from '../../../../server/contract';
import { Link } from '../../lib/router';
import { ActionError, Button, Card, Icon, SelectField, TextField, Toggle } from '../../ui';
import { PermissionMatrix } from './PermissionMatrix';
import { keyOf } from './permissions';
import { FULL } from './role-model';
import { TenantOptions } from './TenantOptions';
import type { RoleFormState } from './useRoleForm';

// The cards of the role form: its details (name, parent, tenant, description), its permissions (full
// administration, the matrix, the special permissions), and the save bar. Each renders the one state model
// (useRoleForm) it is given.

export function RoleDetailsCard({ form }: { form: RoleFormState }) {
  const {
    name,
    setName,
    description,
    setDescription,
    parentId,
    setParentId,
    target,
    setTarget,
    setNameTouched,
    nameTouched,
    submitted,
    serverFields,
    setServerFields,
    parentOptions,
    parent,
    cycleError,
    nameError,
    targetError,
    readOnly,
    creating,
    scope,
    dir,
  } = form;
  return (
    <Card title="Details" icon="edit" className="pp-details">
      <div className="adm-form-grid">
        <TextField
          id="role-name"
          label="Name"
          error={((submitted || nameTouched) && nameError) || serverFields.name}
          type="text"
          maxLength={100}
          value={name}
          disabled={readOnly}
          autoFocus={creating}
          onChange={(v) => {
            setName(v);
            if (serverFields.name) setServerFields(({ name: _n, ...rest }) => rest);
          }}
          onBlur={() => setNameTouched(true)}
        />
        <SelectField
          id="role-parent"
          label="Inherits from"
          error={cycleError ?? serverFields.parentRoleId}
          hint={
            parent
              ? `Everything ${parent.name} grants is included and locked below.`
              : readOnly
                ? undefined
                : 'No parent: the role grants only what you tick.'
          }
          value={parentId}
          onChange={(v) => {
            setParentId(v);
            if (serverFields.parentRoleId) setServerFields(({ parentRoleId: _p, ...rest }) => rest);
          }}
          disabled={readOnly}
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
        </SelectField>
        {creating && scope !== 'organization' ? (
          <SelectField
            id="role-tenant"
            label="Belongs to"
            error={submitted ? targetError : undefined}
            hint="Who can hold the role. Partner roles are for partner users, organization roles for one customer."
            value={target}
            onChange={(v) => {
              setTarget(v);
              setParentId('');
            }}
          >
            {scope === 'system' ? <option value="system">Platform (platform administrators)</option> : null}
            {scope === 'partner' ? <option value="">Your partner (partner users)</option> : null}
            <TenantOptions
              dir={dir}
              partners={scope === 'system' ? 'Partner roles' : null}
              organizations="Organization roles"
            />
          </SelectField>
        ) : null}
        <div className={creating && scope !== 'organization' ? '' : 'full'}>
          <TextField
            id="role-description"
            label="Description"
            error={serverFields.description}
            type="text"
            maxLength={1000}
            value={description}
            disabled={readOnly}
            placeholder="What this role is for"
            onChange={setDescription}
          />
        </div>
      </div>
    </Card>
  );
}

export function RolePermissionsCard({
  form,
  vocabulary,
}: {
  form: RoleFormState;
  vocabulary: AvailablePermissionsResponse;
}) {
  const {
    perms,
    readOnly,
    missing,
    inherited,
    inheritedSource,
    fullInherited,
    fullDirect,
    toggle,
    setMany,
    directCount,
    inheritedSources,
  } = form;
  return (
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
  );
}

export function RoleSaveBar({ form }: { form: RoleFormState }) {
  const { error, missing, busy, dirty, nameError, submitted, cycleError, creating, discard } = form;
  return (
    <div className="pp-savebar" data-testid="role-savebar">
      <ActionError error={error} testId="role-error" />
      {missing.size > 0 ? (
        <p className="field-error">
          You cannot grant what you do not hold yourself: {[...missing].join(', ')}.
        </p>
      ) : null}
      <div className="row gap-sm">
        <Button
          tone="primary"
          submit
          busy={busy}
          busyLabel="Saving…"
          disabled={!dirty || Boolean(nameError && submitted) || Boolean(cycleError)}
          testId="role-save"
        >
          {creating ? 'Create role' : 'Save changes'}
        </Button>
        {!creating ? (
          <Button tone="ghost" disabled={busy || !dirty} onClick={discard} testId="role-discard">
            Discard changes
          </Button>
        ) : (
          <Link to="/users/roles" className="btn btn-ghost">
            Cancel
          </Link>
        )}
        {dirty && !creating ? <span className="muted small">Unsaved changes</span> : null}
      </div>
    </div>
  );
}
