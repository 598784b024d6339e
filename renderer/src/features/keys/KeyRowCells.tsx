import { formatDateTime, relativeTo } from '../../lib/format';
import { StatusPill } from '../../ui';
import { RowAction } from './KeyListFrame';

// The cells an API-key row and a partner-key row share: both kinds are issued with a prefix, live until revoked or
// expired, and are rotated or revoked from the row.

/** The status an API key or a partner key is in (the two contracts name the same three). */
export type IssuedKeyStatus = 'active' | 'expired' | 'revoked';

const STATUS_TONE: Record<IssuedKeyStatus, 'ok' | 'warn' | 'muted'> = {
  active: 'ok',
  expired: 'warn',
  revoked: 'muted',
};

/** The key's visible prefix (`<testIdPrefix>-prefix`). */
export function KeyPrefixCell({ prefix, testIdPrefix }: { prefix: string; testIdPrefix: string }) {
  return (
    <td>
      <span className="mono kx-prefix" data-testid={`${testIdPrefix}-prefix`}>
        {prefix}…
      </span>
    </td>
  );
}

/** The key's status as a pill (`<testIdPrefix>-status`). */
export function KeyStatusCell({ status, testIdPrefix }: { status: IssuedKeyStatus; testIdPrefix: string }) {
  return (
    <td>
      <StatusPill tone={STATUS_TONE[status]} testId={`${testIdPrefix}-status`}>
        <span className="cap">{status}</span>
      </StatusPill>
    </td>
  );
}

/** "Last used" and "Expires": relative to now, the exact time as the tooltip; an expiry in the past in warn tone. */
export function KeyUseAndExpiryCells({
  lastUsedAt,
  expiresAt,
  now,
}: {
  lastUsedAt: string | null;
  expiresAt: string | null;
  now: number;
}) {
  const expires = expiresAt ? Date.parse(expiresAt) : null;
  return (
    <>
      <td title={lastUsedAt ? formatDateTime(lastUsedAt, { seconds: false }) : undefined}>
        {lastUsedAt ? relativeTo(Date.parse(lastUsedAt), now) : <span className="muted">Never</span>}
      </td>
      <td title={expiresAt ? formatDateTime(expiresAt, { seconds: false }) : undefined}>
        {expires === null ? (
          <span className="muted">Never</span>
        ) : (
          <span className={expires < now ? 'tone-warn' : undefined}>{relativeTo(expires, now)}</span>
        )}
      </td>
    </>
  );
}

/** Rotate and revoke, on an active key only (`<testIdPrefix>-rotate`, `<testIdPrefix>-revoke`). */
export function RotateRevokeActions({
  name,
  active,
  testIdPrefix,
  onRotate,
  onRevoke,
}: {
  name: string;
  active: boolean;
  testIdPrefix: string;
  onRotate: () => void;
  onRevoke: () => void;
}) {
  if (!active) return null;
  const actions = [
    { icon: 'refresh', label: 'Rotate', onClick: onRotate, danger: false },
    { icon: 'trash', label: 'Revoke', onClick: onRevoke, danger: true },
  ] as const;
  return (
    <>
      {actions.map((a) => (
        <RowAction
          key={a.label}
          icon={a.icon}
          label={a.label}
          name={name}
          onClick={a.onClick}
          testId={`${testIdPrefix}-${a.label.toLowerCase()}`}
          danger={a.danger}
        />
      ))}
    </>
  );
}
