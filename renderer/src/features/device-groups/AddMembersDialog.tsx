import { useState } from 'react';
import type { DeviceGroup } from '../../../../server/contract';
import { useAsyncAction } from '../../lib/action';
import { plural } from '../../lib/format';
import { useDebounced } from '../../lib/hooks';
import { Check, FormDialog, TextField, type DialogProps } from '../../ui';
import { groupsApi, refreshGroups, useCandidates } from './api';

// The device picker: search the devices of the group's organization (hostname, name or last user), tick the ones
// to add, add them in one request. Devices already in the group are shown ticked and disabled.

export function AddMembersDialog({
  group,
  memberIds,
  onClose,
}: { group: DeviceGroup; memberIds: ReadonlySet<string> } & Pick<DialogProps, 'onClose'>) {
  const [search, setSearch] = useState('');
  const debounced = useDebounced(search, 250);
  const candidates = useCandidates(group.orgId, debounced.trim());
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const save = useAsyncAction();
  const rows = candidates.data?.data ?? [];

  const toggle = (id: string, on: boolean) =>
    setPicked((old) => {
      const next = new Set(old);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  return (
    <FormDialog
      title={`Add devices to “${group.name}”`}
      onClose={onClose}
      testId="add-members-dialog"
      onSubmit={(e) => {
        e.preventDefault();
        if (save.busy || picked.size === 0) return;
        void save.run(async () => {
          await groupsApi.addMembers(group.id, [...picked]);
          await refreshGroups();
          onClose();
        });
      }}
      action={save}
      submit={{
        label: picked.size ? `Add ${plural(picked.size, 'device')}` : 'Add devices',
        busyLabel: 'Adding…',
        testId: 'add-members-submit',
        disabled: picked.size === 0,
      }}
    >
      <TextField
        id="member-search"
        label="Find devices"
        value={search}
        onChange={setSearch}
        placeholder="Hostname, name or user"
        autoFocus
        autoComplete="off"
      />
      <div className="dg-picker" data-testid="member-candidates">
        {candidates.loading ? (
          <p className="muted small">Loading devices…</p>
        ) : rows.length === 0 ? (
          <p className="muted small">No devices of this organization match.</p>
        ) : (
          rows.map((d) => {
            const member = memberIds.has(d.id);
            return (
              <div key={d.id} className={`dg-pick${member ? ' member' : ''}`} data-hostname={d.hostname}>
                {member ? (
                  <span className="muted small dg-pick-member">In the group</span>
                ) : (
                  <Check checked={picked.has(d.id)} onChange={(on) => toggle(d.id, on)} testId="member-pick">
                    <span className="mono">{d.hostname}</span>
                    {d.displayName ? <span className="muted"> · {d.displayName}</span> : null}
                    <span className="muted small"> · {d.osType}</span>
                  </Check>
                )}
                {member ? <span className="mono">{d.hostname}</span> : null}
              </div>
            );
          })
        )}
        {candidates.data && candidates.data.pagination.total > rows.length ? (
          <p className="muted small">
            Showing {rows.length} of {candidates.data.pagination.total}; search to narrow.
          </p>
        ) : null}
      </div>
    </FormDialog>
  );
}
