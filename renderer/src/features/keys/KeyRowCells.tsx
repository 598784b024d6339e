import { formatDateTime, relativeTo } from '../../lib/format';
import { StatusPill } from '../../ui';

// The cells an API-key row and a partner-key row share: both kinds are issued with a prefix, live until revoked or
// expired, and are rotated or revoked from the row.

/** The statuses an API key or a partner key can be in (the two contracts name the same three), in list order. */
export const ISSUED_KEY_STATUSES = ['active', 'expired', 'revoked'] as const;
export type IssuedKeyStatus = (typeof ISSUED_KEY_STATUSES)[number];

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
