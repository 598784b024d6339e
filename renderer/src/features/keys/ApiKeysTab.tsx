import { useState } from 'react';
import type { ApiKey, ApiKeyCreated, ApiKeyStatus, Organization } from '../../../../server/contract';
import { Dialog } from '../../ui/Dialog';
import { StatusPill } from '../../ui/basics';
import { useApiKeys } from './api';
import { useNow } from '../../lib/hooks';
import { WILDCARD } from './ScopeEditor';
import { CopySnippet, KeyListFrame, RevealDialog, RowAction, defaultOrgOf } from './shared';
import { orgName } from '../../lib/directory';
import { Segmented } from '../../ui';
import { formatCount, formatDateTime, relativeTo } from '../../lib/format';
import { useModal } from '../../lib/hooks';
import { CreateApiKeyForm, EditApiKeyDialog, RotateApiKeyDialog, RevokeApiKeyDialog } from './ApiKeyDialogs';

type StatusFilter = 'all' | ApiKeyStatus;
const PAGE_SIZE = 50;

const STATUS_TONE: Record<ApiKeyStatus, 'ok' | 'warn' | 'muted'> = {
  active: 'ok',
  expired: 'warn',
  revoked: 'muted',
};

type Modal =
  | { kind: 'create' }
  | { kind: 'edit'; key: ApiKey }
  | { kind: 'rotate'; key: ApiKey }
  | { kind: 'revoke'; key: ApiKey }
  | { kind: 'reveal'; key: ApiKeyCreated; rotated: boolean };

export function ApiKeysTab({ orgs, orgFilter }: { orgs: Organization[]; orgFilter: string }) {
  const [status, setStatus] = useState<StatusFilter>('all');
  const [page, setPage] = useState(1);
  const { modal, setModal, close, closeFor } = useModal<Modal>();
  const now = useNow(30_000);

  const {
    rows,
    pagination,
    error: loadError,
    reload,
  } = useApiKeys({
    page,
    limit: PAGE_SIZE,
    orgId: orgFilter || undefined,
    status: status === 'all' ? undefined : status,
  });

  const showOrg = !orgFilter && orgs.length > 1;
  const create = () => setModal({ kind: 'create' });

  return (
    <KeyListFrame
      noun="api-keys"
      filter={
        <Segmented<StatusFilter>
          label="Status"
          value={status}
          onChange={(v) => {
            setStatus(v);
            setPage(1);
          }}
          testId="api-key-filter"
          options={[
            { value: 'all', label: 'All' },
            { value: 'active', label: 'Active' },
            { value: 'expired', label: 'Expired' },
            { value: 'revoked', label: 'Revoked' },
          ]}
        />
      }
      createLabel="New API key"
      createTestId="create-api-key"
      canCreate={orgs.length > 0}
      onCreate={create}
      onReload={reload}
      loading={rows === null}
      loadingLabel="Loading API keys…"
      loadError={loadError}
      count={rows?.length ?? 0}
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
      head={
        <>
          <th>Name</th>
          <th>Prefix</th>
          <th>Scopes</th>
          <th>Status</th>
          <th className="num">Rate limit</th>
          <th className="num">Usage</th>
          <th>Last used</th>
          <th>Expires</th>
        </>
      }
      pagination={pagination}
      onPage={setPage}
      dialogs={
        <>
          <Dialog
            open={modal?.kind === 'create'}
            title="New API key"
            onClose={closeFor('create')}
            testId="api-key-create-dialog"
            wide
          >
            {modal?.kind === 'create' ? (
              <CreateApiKeyForm
                orgs={orgs}
                defaultOrg={defaultOrgOf(orgs, orgFilter)}
                onCancel={closeFor('create')}
                onCreated={(key) => {
                  setModal({ kind: 'reveal', key, rotated: false });
                  reload();
                }}
              />
            ) : null}
          </Dialog>
          {modal?.kind === 'edit' ? (
            <EditApiKeyDialog
              apiKey={modal.key}
              onClose={closeFor('edit')}
              onSaved={() => {
                close();
                reload();
              }}
            />
          ) : null}
          {modal?.kind === 'rotate' ? (
            <RotateApiKeyDialog
              apiKey={modal.key}
              onClose={closeFor('rotate')}
              onRotated={(key) => {
                setModal({ kind: 'reveal', key, rotated: true });
                reload();
              }}
            />
          ) : null}
          {modal?.kind === 'revoke' ? (
            <RevokeApiKeyDialog
              apiKey={modal.key}
              onClose={closeFor('revoke')}
              onRevoked={() => {
                close();
                reload();
              }}
            />
          ) : null}
          <RevealDialog
            reveal={modal?.kind === 'reveal' ? modal : null}
            noun="API key"
            testIdPrefix="api-key"
            onClose={closeFor('reveal')}
          >
            {(key, rotated) => (
              <>
                {rotated ? (
                  <p className="small muted">
                    The previous key stopped working the moment this one was issued.
                  </p>
                ) : null}
                <CopySnippet
                  label="Send it as a request header"
                  text={`X-API-Key: ${key.key}`}
                  copyLabel="Copy header"
                  testId="api-key-snippet"
                />
              </>
            )}
          </RevealDialog>
        </>
      }
    >
      {(rows ?? []).map((k) => (
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
  const expires = k.expiresAt ? Date.parse(k.expiresAt) : null;
  return (
    <tr
      className={active ? undefined : 'kx-dim'}
      data-testid="api-key-row"
      data-key-id={k.id}
      data-name={k.name}
    >
      <td>
        <div className="kx-name">{k.name}</div>
        {org ? <div className="kx-sub">{org}</div> : null}
      </td>
      <td>
        <span className="mono kx-prefix" data-testid="api-key-prefix">
          {k.keyPrefix}…
        </span>
      </td>
      <td>
        {k.scopes.length === 0 ? (
          <span className="muted small">none</span>
        ) : (
          <div className="kx-chips" title={k.scopes.join(', ')}>
            {shown.map((s) => (
              <span key={s} className={`kx-chip kx-chip-sm${s === WILDCARD ? ' kx-chip-warn' : ''}`}>
                <span className="mono">{s}</span>
              </span>
            ))}
            {more > 0 ? <span className="muted small">+{more}</span> : null}
          </div>
        )}
      </td>
      <td>
        <StatusPill tone={STATUS_TONE[k.status]} testId="api-key-status">
          <span className="cap">{k.status}</span>
        </StatusPill>
      </td>
      <td className="num">{formatCount(k.rateLimit)}/h</td>
      <td className="num" data-testid="api-key-usage">
        {formatCount(k.usageCount)}
      </td>
      <td title={k.lastUsedAt ? formatDateTime(k.lastUsedAt, { seconds: false }) : undefined}>
        {k.lastUsedAt ? relativeTo(Date.parse(k.lastUsedAt), now) : <span className="muted">Never</span>}
      </td>
      <td title={k.expiresAt ? formatDateTime(k.expiresAt, { seconds: false }) : undefined}>
        {expires === null ? (
          <span className="muted">Never</span>
        ) : (
          <span className={expires < now ? 'tone-warn' : undefined}>{relativeTo(expires, now)}</span>
        )}
      </td>
      <td className="kx-actions">
        {active ? (
          <>
            <RowAction icon="edit" label="Edit" name={k.name} onClick={onEdit} testId="api-key-edit" />
            <RowAction
              icon="refresh"
              label="Rotate"
              name={k.name}
              onClick={onRotate}
              testId="api-key-rotate"
            />
            <RowAction
              icon="trash"
              label="Revoke"
              name={k.name}
              onClick={onRevoke}
              testId="api-key-revoke"
              danger
            />
          </>
        ) : null}
      </td>
    </tr>
  );
}
