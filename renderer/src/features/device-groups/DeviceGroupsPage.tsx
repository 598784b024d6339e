import { useState } from 'react';
import type { DeviceGroup } from '../../../../server/contract';
import { useCan } from '../../lib/can';
import { orgName, useOrganizations, useSites } from '../../lib/directory';
import { formatDate, plural } from '../../lib/format';
import { useDialog, useDocumentTitle } from '../../lib/hooks';
import { navigate } from '../../lib/router';
import {
  AdminTable,
  EmptyState,
  LinkRow,
  LoadState,
  PageHeader,
  Pager,
  TitleCell,
  CreateButton,
} from '../../ui';
import { useGroupList } from './api';
import { GroupFormDialog } from './GroupFormDialog';

// /device-groups: the device groups in the caller's scope with their member counts (the members the caller can
// see), and the create dialog for those who may change devices.

const FORBIDDEN = { title: 'Device groups are not available to you', text: 'Your role cannot read devices.' };

export function DeviceGroupsPage() {
  useDocumentTitle('Device groups');
  const [page, setPage] = useState(1);
  const creating = useDialog<true>();
  const canWrite = useCan('devices:write');
  const { orgs } = useOrganizations();
  const sites = useSites(null);
  const list = useGroupList(page);
  const rows = list.data?.data;
  const spans = orgs.length > 1;
  const siteName = (id: string | null) =>
    id === null ? 'Whole organization' : (sites.data?.find((s) => s.id === id)?.name ?? '…');

  const createButton = (
    <CreateButton allowed={canWrite} onClick={() => creating.open(true)} testId="group-create">
      New group
    </CreateButton>
  );

  return (
    <div className="page adm dg-page">
      <PageHeader
        title="Device groups"
        sub="Named sets of devices within an organization: for technicians limited to some devices, for filters and for the elevation rules that name a group."
        actions={createButton}
      />
      {!rows ? (
        <LoadState of={list} loading="Loading device groups…" forbidden={FORBIDDEN} />
      ) : rows.length === 0 ? (
        <EmptyState icon="devices" title="No device groups yet" testId="groups-empty" action={createButton}>
          A group gathers devices of one organization (optionally of one site), so a technician can be given
          just those devices.
        </EmptyState>
      ) : (
        <AdminTable
          testId="groups-table"
          columns={[
            'Group',
            ...(spans ? ['Organization'] : []),
            'Site',
            <th key="n" className="num">
              Devices
            </th>,
            'Changed',
          ]}
          after={<Pager pagination={list.data?.pagination ?? null} onPage={setPage} />}
        >
          {rows.map((g) => (
            <LinkRow key={g.id} to={`/device-groups/${g.id}`} testId="group-row" name={g.name}>
              <TitleCell
                title={g.name}
                to={`/device-groups/${g.id}`}
                titleTestId="group-link"
                sub={g.description ?? undefined}
              />
              {spans ? <td className="nowrap">{orgName(orgs, g.orgId)}</td> : null}
              <td className={g.siteId ? 'nowrap' : 'nowrap muted'}>{siteName(g.siteId)}</td>
              <td className="num" data-testid="group-device-count">
                {plural(g.deviceCount, 'device')}
              </td>
              <td className="muted nowrap">{formatDate(g.updatedAt)}</td>
            </LinkRow>
          ))}
        </AdminTable>
      )}
      {creating.value ? (
        <GroupFormDialog
          {...creating.props((group: DeviceGroup) => navigate(`/device-groups/${group.id}`))}
        />
      ) : null}
    </div>
  );
}
