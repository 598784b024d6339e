import { useMemo } from 'react';
import type { EnrollmentKey, EnrollmentKeyCreated, Organization, Site } from '../../../../server/contract';
import { orgName, useSites } from '../../lib/directory';
import { formatCount, formatDateTime, relativeTo } from '../../lib/format';
import { useNow } from '../../lib/hooks';
import { Segmented, StatusPill } from '../../ui';
import { useEnrollmentKeys } from './api';
import { KeyListFrame, KeyNameCell, RowAction, useFilteredPages } from './KeyListFrame';
import { CopySnippet, RevealDialog } from './KeyReveal';
import { CreateKeyDialog, defaultOrgOf, useKeyModals } from './shared';
import {
  CreateEnrollmentKeyForm,
  RotateEnrollmentKeyDialog,
  DeleteEnrollmentKeyDialog,
} from './EnrollmentKeyDialogs';

type ExpiredFilter = 'all' | 'usable' | 'expired';
const PAGE_SIZE = 50;
const EXPIRY_FILTERS: Array<{ value: ExpiredFilter; label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'usable', label: 'Not expired' },
  { value: 'expired', label: 'Expired' },
];

/** Sites of the organizations in view, for names in the table and the site picker. */
function useSiteNames(orgId: string): Map<string, Site> {
  const sites = useSites(orgId || null);
  return useMemo(() => new Map((sites.data ?? []).map((s) => [s.id, s])), [sites.data]);
}

export function simulatorCommand(key: string): string {
  return `npm run agent-sim -- --server ${window.location.origin} --enrollment-key ${key}`;
}

export function EnrollmentKeysTab({ orgs, orgFilter }: { orgs: Organization[]; orgFilter: string }) {
  const { filter, choose, page, setPage } = useFilteredPages<ExpiredFilter>('all');
  const now = useNow(30_000);

  const list = useEnrollmentKeys({
    page,
    limit: PAGE_SIZE,
    orgId: orgFilter || undefined,
    expired: filter === 'all' ? undefined : filter === 'expired' ? 'true' : 'false',
  });
  const sites = useSiteNames(orgFilter);
  const { modal, setModal, closeFor, reveal, done } = useKeyModals<
    EnrollmentKey,
    EnrollmentKeyCreated,
    'rotate' | 'delete'
  >(list.reload);

  const showOrg = !orgFilter && orgs.length > 1;

  return (
    <KeyListFrame
      noun="enrollment-keys"
      filter={
        <Segmented<ExpiredFilter>
          label="Expiry"
          value={filter}
          onChange={choose}
          testId="enrollment-key-filter"
          options={EXPIRY_FILTERS}
        />
      }
      createLabel="New enrollment key"
      createTestId="create-enrollment-key"
      canCreate={orgs.length > 0}
      onCreate={() => setModal({ kind: 'create' })}
      list={list}
      loadingLabel="Loading enrollment keys…"
      empty={{
        icon: 'devices',
        title: filter === 'all' ? 'No enrollment keys' : 'Nothing matches this filter',
        text: (
          <>
            Agents enroll with a short-lived enrollment key. Create one for an organization (optionally pinned
            to a site), hand it to the installer, and let it expire.
          </>
        ),
        offerCreate: filter === 'all' && orgs.length > 0,
      }}
      columns={['Name', 'Site', 'Usage', 'Expires', 'Status', 'Created']}
      onPage={setPage}
      dialogs={
        <>
          <CreateKeyDialog
            open={modal?.kind === 'create'}
            title="New enrollment key"
            onClose={closeFor('create')}
            testId="enrollment-key-create-dialog"
          >
            <CreateEnrollmentKeyForm
              orgs={orgs}
              defaultOrg={defaultOrgOf(orgs, orgFilter)}
              onCancel={closeFor('create')}
              onCreated={(key) => reveal(key, false)}
            />
          </CreateKeyDialog>
          {modal?.kind === 'rotate' ? (
            <RotateEnrollmentKeyDialog
              k={modal.key}
              onClose={closeFor('rotate')}
              onDone={(key) => reveal(key, true)}
            />
          ) : null}
          {modal?.kind === 'delete' ? (
            <DeleteEnrollmentKeyDialog k={modal.key} onClose={closeFor('delete')} onDone={done} />
          ) : null}
          <RevealDialog
            reveal={modal?.kind === 'reveal' ? modal : null}
            noun="Enrollment key"
            testIdPrefix="enrollment-key"
            onClose={closeFor('reveal')}
          >
            {(key, rotated) => (
              <>
                <p className="small muted">
                  Works {key.maxUsage === null ? 'for any number of' : `for ${formatCount(key.maxUsage)}`}{' '}
                  enrollment{key.maxUsage === 1 ? '' : 's'} until{' '}
                  {formatDateTime(key.expiresAt, { seconds: false })}.
                  {rotated ? ' The previous key stopped working when this one was issued.' : ''}
                </p>
                <CopySnippet
                  label="Try it with the agent simulator"
                  text={simulatorCommand(key.key)}
                  copyLabel="Copy command"
                  testId="enrollment-key-command"
                />
              </>
            )}
          </RevealDialog>
        </>
      }
    >
      {(list.rows ?? []).map((k) => (
        <EnrollmentKeyRow
          key={k.id}
          k={k}
          now={now}
          org={showOrg ? orgName(orgs, k.orgId) : null}
          site={k.siteId ? (sites.get(k.siteId)?.name ?? `Site ${k.siteId.slice(0, 8)}`) : null}
          onRotate={() => setModal({ kind: 'rotate', key: k })}
          onDelete={() => setModal({ kind: 'delete', key: k })}
        />
      ))}
    </KeyListFrame>
  );
}

function EnrollmentKeyRow({
  k,
  now,
  org,
  site,
  onRotate,
  onDelete,
}: {
  k: EnrollmentKey;
  now: number;
  org: string | null;
  site: string | null;
  onRotate: () => void;
  onDelete: () => void;
}) {
  const expires = Date.parse(k.expiresAt);
  const expired = k.expired || expires <= now;
  const ratio = k.maxUsage ? Math.min(1, k.usageCount / k.maxUsage) : 0;
  return (
    <tr
      className={expired || k.exhausted ? 'kx-dim' : undefined}
      data-testid="enrollment-key-row"
      data-key-id={k.id}
      data-name={k.name}
    >
      <KeyNameCell name={k.name} org={org} />
      <td>{site ?? <span className="muted">Any site</span>}</td>
      <td data-testid="enrollment-key-usage">
        <div className="kx-usage">
          <span>
            {formatCount(k.usageCount)} / {k.maxUsage === null ? 'unlimited' : formatCount(k.maxUsage)}
          </span>
          {k.maxUsage !== null ? (
            <span className="kx-bar" aria-hidden="true">
              <span style={{ width: `${Math.round(ratio * 100)}%` }} />
            </span>
          ) : null}
        </div>
      </td>
      <td title={formatDateTime(k.expiresAt, { seconds: false })}>
        <div>{relativeTo(expires, now)}</div>
        <div className="adm-cell-sub">{formatDateTime(k.expiresAt, { seconds: false })}</div>
      </td>
      <td>
        <div className="kx-chips">
          {expired ? (
            <StatusPill tone="warn" testId="enrollment-key-status">
              Expired
            </StatusPill>
          ) : null}
          {k.exhausted ? (
            <StatusPill tone="bad" testId="enrollment-key-status">
              Exhausted
            </StatusPill>
          ) : null}
          {!expired && !k.exhausted ? (
            <StatusPill tone="ok" testId="enrollment-key-status">
              Usable
            </StatusPill>
          ) : null}
        </div>
      </td>
      <td title={formatDateTime(k.createdAt, { seconds: false })}>
        {relativeTo(Date.parse(k.createdAt), now)}
      </td>
      <td className="actions kx-actions">
        <RowAction
          icon="refresh"
          label="Rotate"
          name={k.name}
          onClick={onRotate}
          testId="enrollment-key-rotate"
        />
        <RowAction
          icon="trash"
          label="Delete"
          name={k.name}
          onClick={onDelete}
          testId="enrollment-key-delete"
          danger
        />
      </td>
    </tr>
  );
}
