import { useMemo, useState } from 'react';
import type { DeviceSummary } from '../../../../server/contract';
import { useAsyncAction } from '../../lib/action';
import { useCan } from '../../lib/can';
import { orgName, useOrganizations, useSites } from '../../lib/directory';
import { formatDateTime, plural } from '../../lib/format';
import { useDialog, useDocumentTitle } from '../../lib/hooks';
import { Link, navigate } from '../../lib/router';
import {
  CreateButton,
  ActionError,
  AdminTable,
  ConfirmDialog,
  DeleteButton,
  EmptyState,
  RecordFrame,
  RecordPlaceholder,
  SmallButton,
  StatusPill,
  type RecordPage,
} from '../../ui';
import { AddMembersDialog } from './AddMembersDialog';
import { groupsApi, refreshGroups, useGroup, useGroupMembers } from './api';
import { GroupFormDialog } from './GroupFormDialog';

// /device-groups/:id: one group, its devices (each linking to its device page), and for those who may change
// devices: add members from a picker, remove one, edit the group, delete it (its devices stay).

const PAGE: RecordPage = {
  noun: 'device group',
  icon: 'devices',
  className: 'adm dg-page',
  back: { to: '/device-groups', label: 'Device groups' },
  testId: 'group-detail',
};

export function DeviceGroupPage({ groupId }: { groupId: string }) {
  const group = useGroup(groupId);
  const members = useGroupMembers(groupId);
  const canWrite = useCan('devices:write');
  const { orgs } = useOrganizations();
  const sites = useSites(group.data?.orgId ?? null, Boolean(group.data));
  const editing = useDialog<true>();
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [removing, setRemoving] = useState<DeviceSummary | null>(null);
  const action = useAsyncAction();
  const g = group.data;
  useDocumentTitle(g ? g.name : 'Device group');
  const memberIds = useMemo(() => new Set((members.data?.data ?? []).map((d) => d.id)), [members.data]);

  if (!g) return <RecordPlaceholder page={PAGE} of={group} notFound="It may have been deleted." />;
  const site = g.siteId ? (sites.data?.find((s) => s.id === g.siteId)?.name ?? '…') : 'Whole organization';
  const rows = members.data?.data ?? [];

  return (
    <RecordFrame
      page={PAGE}
      title={g.name}
      sub={`${orgName(orgs, g.orgId)} · ${site}${g.description ? ` · ${g.description}` : ''}`}
      actions={
        canWrite ? (
          <>
            <CreateButton onClick={() => setAdding(true)} testId="group-add-members">
              Add devices
            </CreateButton>
            <SmallButton
              tone="secondary"
              icon="edit"
              iconSize={14}
              onClick={() => editing.open(true)}
              testId="group-edit"
            >
              Edit
            </SmallButton>
            <DeleteButton onClick={() => setDeleting(true)} testId="group-delete" />
          </>
        ) : null
      }
    >
      <ActionError error={action.error} />
      <div className="adm-toolbar">
        <span className="muted small" data-testid="group-member-count">
          {plural(g.deviceCount, 'device')} · changed {formatDateTime(g.updatedAt)}
        </span>
      </div>
      {members.loading ? (
        <p className="muted">Loading devices…</p>
      ) : rows.length === 0 ? (
        <EmptyState
          icon="devices"
          title="No devices in this group"
          testId="group-members-empty"
          compact
          action={
            <CreateButton allowed={canWrite} onClick={() => setAdding(true)} testId="group-add-first">
              Add devices
            </CreateButton>
          }
        >
          Add devices of {orgName(orgs, g.orgId)} from the picker.
        </EmptyState>
      ) : (
        <AdminTable testId="group-members" columns={['Device', 'Status', 'OS', 'Agent', 'Last user', '']}>
          {rows.map((d) => (
            <tr key={d.id} data-testid="group-member-row" data-hostname={d.hostname}>
              <td>
                <Link to={`/devices/${d.id}`} className="mono" data-testid="group-member-link">
                  {d.hostname}
                </Link>
                {d.displayName ? <span className="muted"> · {d.displayName}</span> : null}
              </td>
              <td>
                <StatusPill tone={d.status === 'online' ? 'ok' : 'muted'}>{d.status}</StatusPill>
              </td>
              <td className="muted">{d.osType}</td>
              <td className="mono muted">{d.agentVersion}</td>
              <td className="muted">{d.lastUser ?? '—'}</td>
              <td className="actions">
                {canWrite ? (
                  <SmallButton tone="ghost" onClick={() => setRemoving(d)} testId="group-member-remove">
                    Remove
                  </SmallButton>
                ) : null}
              </td>
            </tr>
          ))}
        </AdminTable>
      )}

      {adding ? <AddMembersDialog group={g} memberIds={memberIds} onClose={() => setAdding(false)} /> : null}
      {editing.value ? <GroupFormDialog editing={g} {...editing.props()} /> : null}
      {removing ? (
        <ConfirmDialog
          open
          title={`Remove ${removing.hostname}?`}
          confirmLabel="Remove from group"
          busy={action.busy}
          onCancel={() => setRemoving(null)}
          onConfirm={() =>
            void action.run(async () => {
              await groupsApi.removeMember(g.id, removing.id);
              setRemoving(null);
              await refreshGroups();
            })
          }
        >
          The device stays enrolled; it just leaves “{g.name}”. Technicians limited to this group stop seeing
          it.
        </ConfirmDialog>
      ) : null}
      {deleting ? (
        <ConfirmDialog
          open
          title={`Delete “${g.name}”?`}
          confirmLabel="Delete group"
          busy={action.busy}
          onCancel={() => setDeleting(false)}
          onConfirm={() =>
            void action.run(async () => {
              await groupsApi.remove(g.id);
              setDeleting(false);
              await refreshGroups();
              navigate('/device-groups');
            })
          }
        >
          Its {plural(g.deviceCount, 'device')} stay enrolled. Technicians limited to this group lose access
          to them, and filters or rules naming it stop matching.
        </ConfirmDialog>
      ) : null}
    </RecordFrame>
  );
}
