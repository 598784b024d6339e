import type { PartnerKey, PartnerKeyCreated, PartnerKeyStatus } from '../../../../server/contract';
import { formatCount, formatDateTime, relativeTo } from '../../lib/format';
import { useNow } from '../../lib/hooks';
import { StatusPill } from '../../ui';
import { usePartnerKeys } from './api';
import { KeyListFrame, KeyNameCell, RowAction } from './KeyListFrame';
import { CopySnippet, RevealDialog } from './KeyReveal';
import { CreatePartnerKeyForm, RevokePartnerKeyDialog, RotatePartnerKeyDialog } from './PartnerKeyDialogs';
import { PARTNER_SCOPE_LABELS, PARTNER_WRITE_CAP } from './partner-scopes';
import { CreateKeyDialog, useKeyModals } from './shared';

// Partner provisioning keys (spec 3, Partner provisioning interface): the partner's own service principal for
// unattended automation through /partner-api. Created, rotated and revoked by a partner administrator in an
// MFA session; the list never holds the raw key.

const STATUS_TONE: Record<PartnerKeyStatus, 'ok' | 'warn' | 'muted'> = {
  active: 'ok',
  expired: 'warn',
  revoked: 'muted',
};

export function PartnerKeysTab() {
  const list = usePartnerKeys();
  const now = useNow(30_000);
  const { modal, setModal, closeFor, reveal, done } = useKeyModals<
    PartnerKey,
    PartnerKeyCreated,
    'rotate' | 'revoke'
  >(list.reload);
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
          {modal?.kind === 'rotate' ? (
            <RotatePartnerKeyDialog
              k={modal.key}
              onClose={closeFor('rotate')}
              onDone={(key) => reveal(key, true)}
            />
          ) : null}
          {modal?.kind === 'revoke' ? (
            <RevokePartnerKeyDialog k={modal.key} onClose={closeFor('revoke')} onDone={done} />
          ) : null}
          <RevealDialog
            reveal={modal?.kind === 'reveal' ? modal : null}
            noun="Partner key"
            testIdPrefix="partner-key"
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
                  label="Try it: list your organizations"
                  text={`curl -H "X-API-Key: ${key.key}" ${window.location.origin}/api/v1/partner-api/organizations`}
                  copyLabel="Copy command"
                  testId="partner-key-snippet"
                />
              </>
            )}
          </RevealDialog>
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
  const expires = k.expiresAt ? Date.parse(k.expiresAt) : null;
  return (
    <tr
      className={active ? undefined : 'kx-dim'}
      data-testid="partner-key-row"
      data-key-id={k.id}
      data-name={k.name}
    >
      <KeyNameCell name={k.name} org={null} />
      <td>
        <span className="mono kx-prefix" data-testid="partner-key-prefix">
          {k.keyPrefix}…
        </span>
      </td>
      <td>
        <div className="kx-chips" title={k.scopes.join(', ')}>
          {k.scopes.map((s) => (
            <span key={s} className="ui-value-chip kx-chip kx-chip-sm" title={s}>
              {PARTNER_SCOPE_LABELS[s]}
            </span>
          ))}
        </div>
      </td>
      <td>
        <StatusPill tone={STATUS_TONE[k.status]} testId="partner-key-status">
          <span className="cap">{k.status}</span>
        </StatusPill>
      </td>
      <td className="num" title={`Writes are capped at ${PARTNER_WRITE_CAP} an hour`}>
        {formatCount(Math.min(k.rateLimit, PARTNER_WRITE_CAP))}/h
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
      <td className="actions kx-actions">
        {active ? (
          <>
            <RowAction
              icon="refresh"
              label="Rotate"
              name={k.name}
              onClick={onRotate}
              testId="partner-key-rotate"
            />
            <RowAction
              icon="trash"
              label="Revoke"
              name={k.name}
              onClick={onRevoke}
              testId="partner-key-revoke"
              danger
            />
          </>
        ) : null}
      </td>
    </tr>
  );
}
