import { useMemo } from 'react';
import type { EnrollmentKey, EnrollmentKeyCreated, Organization } from '../../../../server/contract';
import { useSites } from '../../lib/directory';
import { formatCount, formatDateTime, relativeTo } from '../../lib/format';
import { StatusPill } from '../../ui';
import { useEnrollmentKeys } from './api';
import { ALL_KEYS, KeyListFrame, KeyRow, type KeyListKind, type KeyRowProps } from './KeyListFrame';
import { CopySnippet, RevealDialog } from './KeyReveal';
import { useKeyTab } from './useKeyTab';
import {
  CreateEnrollmentKeyForm,
  RotateEnrollmentKeyDialog,
  DeleteEnrollmentKeyDialog,
} from './EnrollmentKeyDialogs';

type ExpiredFilter = 'all' | 'usable' | 'expired';

/** The name of a key's site among those of the organizations in view; null for a key not pinned to one. */
function useSiteNames(orgId: string): (siteId: string | null) => string | null {
  const sites = useSites(orgId || null);
  const byId = useMemo(() => new Map((sites.data ?? []).map((s) => [s.id, s])), [sites.data]);
  return (siteId) => (siteId ? (byId.get(siteId)?.name ?? `Site ${siteId.slice(0, 8)}`) : null);
}

export function simulatorCommand(key: string): string {
  return `npm run agent-sim -- --server ${window.location.origin} --enrollment-key ${key}`;
}

const ENROLLMENT_KEY_LIST = {
  prefix: 'enrollment-key',
  noun: 'enrollment key',
  icon: 'devices',
  filter: {
    label: 'Expiry',
    options: [
      ALL_KEYS,
      { value: 'usable', label: 'Not expired', query: { expired: 'false' } },
      { value: 'expired', label: 'Expired', query: { expired: 'true' } },
    ],
  },
  columns: ['Name', 'Site', 'Usage', 'Expires', 'Status', 'Created'],
  empty: {
    title: (filter) => (filter === 'all' ? 'No enrollment keys' : 'Nothing matches this filter'),
    text: (
      <>
        Agents enroll with a short-lived enrollment key. Create one for an organization (optionally pinned to
        a site), hand it to the installer, and let it expire.
      </>
    ),
  },
  createForm: CreateEnrollmentKeyForm,
} satisfies KeyListKind<ExpiredFilter, EnrollmentKeyCreated>;

export function EnrollmentKeysTab({ orgs, orgFilter }: { orgs: Organization[]; orgFilter: string }) {
  const tab = useKeyTab<EnrollmentKey, EnrollmentKeyCreated, 'rotate' | 'delete', ExpiredFilter>(
    ENROLLMENT_KEY_LIST,
    useEnrollmentKeys,
    orgs,
    orgFilter,
  );
  const siteName = useSiteNames(orgFilter);
  const { modal, closeFor, reveal, done } = tab.modals;

  return (
    <KeyListFrame
      {...tab}
      renderRow={(row) => <EnrollmentKeyRow {...row} site={siteName(row.k.siteId)} />}
      dialogs={
        <>
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
    />
  );
}

function EnrollmentKeyRow({
  k,
  now,
  org,
  site,
  open,
}: KeyRowProps<EnrollmentKey, 'rotate' | 'delete'> & { site: string | null }) {
  const expires = Date.parse(k.expiresAt);
  const expired = k.expired || expires <= now;
  const ratio = k.maxUsage ? Math.min(1, k.usageCount / k.maxUsage) : 0;
  // Expired and used up can both hold; a key that is neither is usable.
  const states: Array<['ok' | 'warn' | 'bad', string]> = [];
  if (expired) states.push(['warn', 'Expired']);
  if (k.exhausted) states.push(['bad', 'Exhausted']);
  if (states.length === 0) states.push(['ok', 'Usable']);
  return (
    <KeyRow
      k={k}
      prefix="enrollment-key"
      dim={expired || k.exhausted}
      org={org}
      actions={['rotate', 'delete']}
      open={open}
    >
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
          {states.map(([tone, label]) => (
            <StatusPill key={label} tone={tone} testId="enrollment-key-status">
              {label}
            </StatusPill>
          ))}
        </div>
      </td>
      <td title={formatDateTime(k.createdAt, { seconds: false })}>
        {relativeTo(Date.parse(k.createdAt), now)}
      </td>
    </KeyRow>
  );
}
