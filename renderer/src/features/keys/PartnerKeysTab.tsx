import type { PartnerKey, PartnerKeyCreated } from '../../../../server/contract';
import { formatCount } from '../../lib/format';
import { usePartnerKeys } from './api';
import { KeyListFrame, KeyRow, type KeyListKind, type KeyRowProps } from './KeyListFrame';
import { KeyPrefixCell, KeyStatusCell, KeyUseAndExpiryCells } from './KeyRowCells';
import { CreatePartnerKeyForm, PARTNER_KEY_KIND } from './PartnerKeyDialogs';
import { IssuedKeyDialogs } from './IssuedKeyDialogs';
import { PARTNER_SCOPE_LABELS, PARTNER_WRITE_CAP } from './partner-scopes';
import { useKeyModals } from './shared';

// Partner provisioning keys (spec 3, Partner provisioning interface): the partner's own service principal for
// unattended automation through /partner-api. Created, rotated and revoked by a partner administrator in an
// MFA session; the list never holds the raw key.

const PARTNER_KEY_LIST: KeyListKind<string, PartnerKeyCreated> = {
  prefix: 'partner-key',
  noun: 'partner key',
  icon: 'keys',
  columns: ['Name', 'Prefix', 'Scopes', 'Status', <th className="num">Writes</th>, 'Last used', 'Expires'],
  empty: {
    title: () => 'No partner keys yet',
    text: (
      <>
        A partner key lets your onboarding scripts create customers, their sites and enrollment keys through{' '}
        <span className="mono">/partner-api</span> with the <span className="mono">X-API-Key</span> header,
        without a person signing in.
      </>
    ),
  },
  createForm: CreatePartnerKeyForm,
};

export function PartnerKeysTab() {
  const list = usePartnerKeys();
  const modals = useKeyModals<PartnerKey, PartnerKeyCreated, 'rotate' | 'revoke'>(list.reload);

  return (
    <KeyListFrame
      kind={PARTNER_KEY_LIST}
      note={
        <p className="muted small">
          Keys of your partner for <span className="mono">/partner-api</span>: automation that creates
          organizations, sites and enrollment keys, with no way to delete anything.
        </p>
      }
      modals={modals}
      list={list}
      renderRow={(row) => <PartnerKeyRow {...row} />}
      dialogs={<IssuedKeyDialogs kind={PARTNER_KEY_KIND} modals={modals} />}
    />
  );
}

function PartnerKeyRow({ k, now, org, open }: KeyRowProps<PartnerKey, 'rotate' | 'revoke'>) {
  const active = k.status === 'active';
  return (
    <KeyRow
      k={k}
      prefix="partner-key"
      dim={!active}
      org={org}
      actions={active ? ['rotate', 'revoke'] : []}
      open={open}
    >
      <KeyPrefixCell prefix={k.keyPrefix} testIdPrefix="partner-key" />
      <td>
        <div className="kx-chips" title={k.scopes.join(', ')}>
          {k.scopes.map((s) => (
            <span key={s} className="ui-value-chip kx-chip kx-chip-sm" title={s}>
              {PARTNER_SCOPE_LABELS[s]}
            </span>
          ))}
        </div>
      </td>
      <KeyStatusCell status={k.status} testIdPrefix="partner-key" />
      <td className="num" title={`Writes are capped at ${PARTNER_WRITE_CAP} an hour`}>
        {formatCount(Math.min(k.rateLimit, PARTNER_WRITE_CAP))}/h
      </td>
      <KeyUseAndExpiryCells lastUsedAt={k.lastUsedAt} expiresAt={k.expiresAt} now={now} />
    </KeyRow>
  );
}
