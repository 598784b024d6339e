import type { PartnerKey, PartnerKeyCreated } from '../../../../server/contract';
import { formatCount } from '../../lib/format';
import { useNow } from '../../lib/hooks';
import { usePartnerKeys } from './api';
import { KeyListFrame, KeyNameCell } from './KeyListFrame';
import { KeyPrefixCell, KeyStatusCell, KeyUseAndExpiryCells, RotateRevokeActions } from './KeyRowCells';
import { CreatePartnerKeyForm, PARTNER_KEY_KIND } from './PartnerKeyDialogs';
import { IssuedKeyDialogs } from './IssuedKeyDialogs';
import { PARTNER_SCOPE_LABELS, PARTNER_WRITE_CAP } from './partner-scopes';
import { CreateKeyDialog, useKeyModals } from './shared';

// Partner provisioning keys (spec 3, Partner provisioning interface): the partner's own service principal for
// unattended automation through /partner-api. Created, rotated and revoked by a partner administrator in an
// MFA session; the list never holds the raw key.

export function PartnerKeysTab() {
  const list = usePartnerKeys();
  const now = useNow(30_000);
  const modals = useKeyModals<PartnerKey, PartnerKeyCreated, 'rotate' | 'revoke'>(list.reload);
  const { modal, setModal, closeFor, reveal } = modals;
  const create = () => setModal({ kind: 'create' });

  return (
    <KeyListFrame
      noun="partner-keys"
      filter={
        <p className="muted small">
          Keys of your partner for <span className="mono">/partner-api</span>: automation that creates
          organizations, sites and enrollment keys, with no way to delete anything.
        </p>
      }
      createLabel="New partner key"
      createTestId="create-partner-key"
      canCreate
      onCreate={create}
      list={list}
      loadingLabel="Loading partner keys…"
      empty={{
        icon: 'keys',
        title: 'No partner keys yet',
        text: (
          <>
            A partner key lets your onboarding scripts create customers, their sites and enrollment keys
            through <span className="mono">/partner-api</span> with the{' '}
            <span className="mono">X-API-Key</span> header, without a person signing in.
          </>
        ),
        offerCreate: true,
      }}
      columns={[
        'Name',
        'Prefix',
        'Scopes',
        'Status',
        <th className="num">Writes</th>,
        'Last used',
        'Expires',
      ]}
      onPage={() => undefined}
      dialogs={
        <>
          <CreateKeyDialog
            open={modal?.kind === 'create'}
            title="New partner key"
            onClose={closeFor('create')}
            testId="partner-key-create-dialog"
          >
            <CreatePartnerKeyForm onCancel={closeFor('create')} onCreated={(key) => reveal(key, false)} />
          </CreateKeyDialog>
          <IssuedKeyDialogs kind={PARTNER_KEY_KIND} modals={modals} />
        </>
      }
    >
      {(list.rows ?? []).map((k) => (
        <PartnerKeyRow
          key={k.id}
          k={k}
          now={now}
          onRotate={() => setModal({ kind: 'rotate', key: k })}
          onRevoke={() => setModal({ kind: 'revoke', key: k })}
        />
      ))}
    </KeyListFrame>
  );
}

function PartnerKeyRow({
  k,
  now,
  onRotate,
  onRevoke,
}: {
  k: PartnerKey;
  now: number;
  onRotate: () => void;
  onRevoke: () => void;
}) {
  const active = k.status === 'active';
  return (
    <tr
      className={active ? undefined : 'kx-dim'}
      data-testid="partner-key-row"
      data-key-id={k.id}
      data-name={k.name}
    >
      <KeyNameCell name={k.name} org={null} />
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
      <td className="actions kx-actions">
        <RotateRevokeActions
          name={k.name}
          active={active}
          testIdPrefix="partner-key"
          onRotate={onRotate}
          onRevoke={onRevoke}
        />
      </td>
    </tr>
  );
}
