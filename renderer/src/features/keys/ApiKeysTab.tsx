import type { ApiKey, ApiKeyCreated, ApiKeyStatus, Organization } from '../../../../server/contract';
import { orgName } from '../../lib/directory';
import { formatCount } from '../../lib/format';
import { useNow } from '../../lib/hooks';
import { Segmented } from '../../ui';
import { useApiKeys } from './api';
import { KeyListFrame, KeyNameCell, RowAction, useFilteredPages } from './KeyListFrame';
import { KeyPrefixCell, KeyStatusCell, KeyUseAndExpiryCells, RotateRevokeActions } from './KeyRowCells';
import { WILDCARD } from './ScopeEditor';
import { CreateKeyDialog, defaultOrgOf, useKeyModals } from './shared';
import { API_KEY_KIND, CreateApiKeyForm, EditApiKeyDialog } from './ApiKeyDialogs';
import { IssuedKeyDialogs } from './IssuedKeyDialogs';

type StatusFilter = 'all' | ApiKeyStatus;
const PAGE_SIZE = 50;
const STATUS_FILTERS: Array<{ value: StatusFilter; label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'active', label: 'Active' },
  { value: 'expired', label: 'Expired' },
  { value: 'revoked', label: 'Revoked' },
];

export function ApiKeysTab({ orgs, orgFilter }: { orgs: Organization[]; orgFilter: string }) {
  const { filter: status, choose, page, setPage } = useFilteredPages<StatusFilter>('all');
  const now = useNow(30_000);

  const list = useApiKeys({
    page,
    limit: PAGE_SIZE,
    orgId: orgFilter || undefined,
    status: status === 'all' ? undefined : status,
  });

  const modals = useKeyModals<ApiKey, ApiKeyCreated, 'edit' | 'rotate' | 'revoke'>(list.reload);
  const { modal, setModal, closeFor, reveal, done } = modals;
  const showOrg = !orgFilter && orgs.length > 1;
  const create = () => setModal({ kind: 'create' });

  return (
    <KeyListFrame
      noun="api-keys"
      filter={
        <Segmented<StatusFilter>
          label="Status"
          value={status}
          onChange={choose}
          testId="api-key-filter"
          options={STATUS_FILTERS}
        />
      }
      createLabel="New API key"
      createTestId="create-api-key"
      canCreate={orgs.length > 0}
      onCreate={create}
      list={list}
      loadingLabel="Loading API keys…"
      empty={{
        icon: 'keys',
        title: status === 'all' ? 'No API keys yet' : `No ${status} API keys`,
        text: (
          <>
            API keys let integrations and scripts call Gatehouse with the{' '}
            <span className="mono">X-API-Key</span> header. Each key belongs to one organization, carries
            scopes and an hourly rate limit.
          </>
        ),
        offerCreate: status === 'all' && orgs.length > 0,
      }}
      columns={[
        'Name',
        'Prefix',
        'Scopes',
        'Status',
        <th className="num">Rate limit</th>,
        <th className="num">Usage</th>,
        'Last used',
        'Expires',
      ]}
      onPage={setPage}
      dialogs={
        <>
          <CreateKeyDialog
            open={modal?.kind === 'create'}
            title="New API key"
            onClose={closeFor('create')}
            testId="api-key-create-dialog"
          >
            <CreateApiKeyForm
              orgs={orgs}
              defaultOrg={defaultOrgOf(orgs, orgFilter)}
              onCancel={closeFor('create')}
              onCreated={(key) => reveal(key, false)}
            />
          </CreateKeyDialog>
          {modal?.kind === 'edit' ? (
            <EditApiKeyDialog k={modal.key} onClose={closeFor('edit')} onDone={done} />
          ) : null}
          <IssuedKeyDialogs kind={API_KEY_KIND} modals={modals} />
        </>
      }
    >
      {(list.rows ?? []).map((k) => (
        <ApiKeyRow
          key={k.id}
          k={k}
          now={now}
          org={showOrg ? orgName(orgs, k.orgId) : null}
          onEdit={() => setModal({ kind: 'edit', key: k })}
          onRotate={() => setModal({ kind: 'rotate', key: k })}
          onRevoke={() => setModal({ kind: 'revoke', key: k })}
        />
      ))}
    </KeyListFrame>
  );
}

function ApiKeyRow({
  k,
  now,
  org,
  onEdit,
  onRotate,
  onRevoke,
}: {
  k: ApiKey;
  now: number;
  org: string | null;
  onEdit: () => void;
  onRotate: () => void;
  onRevoke: () => void;
}) {
  const active = k.status === 'active';
  const shown = k.scopes.slice(0, 2);
  const more = k.scopes.length - shown.length;
  return (
    <tr
      className={active ? undefined : 'kx-dim'}
      data-testid="api-key-row"
      data-key-id={k.id}
      data-name={k.name}
    >
      <KeyNameCell name={k.name} org={org} />
      <KeyPrefixCell prefix={k.keyPrefix} testIdPrefix="api-key" />
      <td>
        {k.scopes.length === 0 ? (
          <span className="muted small">none</span>
        ) : (
          <div className="kx-chips" title={k.scopes.join(', ')}>
            {shown.map((s) => (
              <span
                key={s}
                className={`ui-value-chip kx-chip kx-chip-sm${s === WILDCARD ? ' kx-chip-warn' : ''}`}
              >
                <span className="mono">{s}</span>
              </span>
            ))}
            {more > 0 ? <span className="muted small">+{more}</span> : null}
          </div>
        )}
      </td>
      <KeyStatusCell status={k.status} testIdPrefix="api-key" />
      <td className="num">{formatCount(k.rateLimit)}/h</td>
      <td className="num" data-testid="api-key-usage">
        {formatCount(k.usageCount)}
      </td>
      <KeyUseAndExpiryCells lastUsedAt={k.lastUsedAt} expiresAt={k.expiresAt} now={now} />
      <td className="actions kx-actions">
        {active ? (
          <RowAction icon="edit" label="Edit" name={k.name} onClick={onEdit} testId="api-key-edit" />
        ) : null}
        <RotateRevokeActions
          name={k.name}
          active={active}
          testIdPrefix="api-key"
          onRotate={onRotate}
          onRevoke={onRevoke}
        />
      </td>
    </tr>
  );
}
