import type { ApiKey, ApiKeyRotated, ApiKeyStatus, Organization } from '../../../../server/contract';
import { capitalize, formatCount } from '../../lib/format';
import { useApiKeys } from './api';
import { ALL_KEYS, KeyListFrame, KeyRow, type KeyListKind, type KeyRowProps } from './KeyListFrame';
import { ISSUED_KEY_STATUSES, KeyPrefixCell, KeyStatusCell, KeyUseAndExpiryCells } from './KeyRowCells';
import { WILDCARD } from './ScopeEditor';
import { useKeyTab } from './useKeyTab';
import { API_KEY_KIND, CreateApiKeyForm, EditApiKeyDialog } from './ApiKeyDialogs';
import { IssuedKeyDialogs } from './IssuedKeyDialogs';

type StatusFilter = 'all' | ApiKeyStatus;
const API_KEY_LIST = {
  prefix: 'api-key',
  noun: 'API key',
  icon: 'keys',
  filter: {
    label: 'Status',
    options: [
      ALL_KEYS,
      ...ISSUED_KEY_STATUSES.map((status) => ({
        value: status,
        label: capitalize(status),
        query: { status },
      })),
    ],
  },
  columns: [
    'Name',
    'Prefix',
    'Scopes',
    'Status',
    <th className="num">Rate limit</th>,
    <th className="num">Usage</th>,
    'Last used',
    'Expires',
  ],
  empty: {
    title: (status) => (status === 'all' ? 'No API keys yet' : `No ${status} API keys`),
    text: (
      <>
        API keys let integrations and scripts call Gatehouse with the <span className="mono">X-API-Key</span>{' '}
        header. Each key belongs to one organization, carries scopes and an hourly rate limit.
      </>
    ),
  },
  createForm: CreateApiKeyForm,
} satisfies KeyListKind<StatusFilter, ApiKeyRotated>;

export function ApiKeysTab({ orgs, orgFilter }: { orgs: Organization[]; orgFilter: string }) {
  const tab = useKeyTab<ApiKey, ApiKeyRotated, 'edit' | 'rotate' | 'revoke', StatusFilter>(
    API_KEY_LIST,
    useApiKeys,
    orgs,
    orgFilter,
  );
  const { modal, closeFor, done } = tab.modals;

  return (
    <KeyListFrame
      {...tab}
      renderRow={(row) => <ApiKeyRow {...row} />}
      dialogs={
        <>
          {modal?.kind === 'edit' ? (
            <EditApiKeyDialog k={modal.key} onClose={closeFor('edit')} onDone={done} />
          ) : null}
          <IssuedKeyDialogs kind={API_KEY_KIND} modals={tab.modals} />
        </>
      }
    />
  );
}

function ApiKeyRow({ k, now, org, open }: KeyRowProps<ApiKey, 'edit' | 'rotate' | 'revoke'>) {
  const active = k.status === 'active';
  const shown = k.scopes.slice(0, 2);
  const more = k.scopes.length - shown.length;
  return (
    <KeyRow
      k={k}
      prefix="api-key"
      dim={!active}
      org={org}
      actions={active ? ['edit', 'rotate', 'revoke'] : []}
      open={open}
    >
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
    </KeyRow>
  );
}
