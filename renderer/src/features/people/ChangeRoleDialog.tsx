import { useState } from 'react';
import type { UserSummary } from '../../../../server/contract';
import { ActionError } from '../../ui/ActionError';
import { Dialog } from '../../ui/Dialog';

import { asList } from '../../lib/query';

import { tenantQueryOf } from './directory';
import { useAssignableRoles } from './api';
import { DialogButtons, SelectField } from '../../ui';

// Changing a user's role.

export function ChangeRoleDialog({
  user,
  busy,
  error,
  onClose,
  onSave,
}: {
  user: UserSummary;
  busy: boolean;
  error: unknown;
  onClose: () => void;
  onSave: (roleId: string, roleName: string) => void;
}) {
  const roles = useAssignableRoles(tenantQueryOf(user.association));
  const [roleId, setRoleId] = useState(user.association.roleId);
  const list = asList(roles.data);
  const chosen = list.find((r) => r.id === roleId);
  const unchanged = roleId === user.association.roleId;

  return (
    <Dialog
      open
      title={`Change role of ${user.name || user.email}`}
      onClose={onClose}
      testId="user-role-dialog"
      footer={
        <DialogButtons
          onCancel={onClose}
          onAction={() => chosen && onSave(chosen.id, chosen.name)}
          busy={busy}
          label="Change role"
          disabled={unchanged || !chosen}
          testId="user-role-save"
        />
      }
    >
      <div className="form">
        <SelectField
          id="user-role-select"
          label="Role"
          hint={chosen?.description ?? 'The new role applies from the user’s next request.'}
          value={roleId}
          onChange={setRoleId}
          disabled={roles.loading}
        >
          {roles.loading ? <option value={roleId}>Loading roles…</option> : null}
          {list.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name}
              {r.isSystem ? ' (built-in)' : ''}
              {r.id === user.association.roleId ? ' · current' : ''}
            </option>
          ))}
        </SelectField>
        {roles.error ? <ActionError error={roles.error} testId="roles-load-error" /> : null}
        <ActionError error={error} />
      </div>
    </Dialog>
  );
}
