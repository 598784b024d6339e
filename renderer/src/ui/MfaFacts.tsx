import type { AuthUser } from '../../../server/contract';
import { Facts, StatusPill } from './basics';

/** The account's MFA enrollment and whether this session passed MFA; shown on Home and Profile alike. */
export function MfaFacts({
  user,
  mfa,
  testIdPrefix,
}: {
  user: AuthUser;
  mfa: boolean;
  testIdPrefix: string;
}) {
  const method = user.mfaMethod === 'sms' ? 'SMS code' : 'Authenticator app (TOTP)';
  return (
    <Facts
      rows={[
        [
          'Account',
          user.mfaEnabled ? (
            <StatusPill tone="ok">Enabled</StatusPill>
          ) : (
            <StatusPill tone="warn">Not set up</StatusPill>
          ),
          `${testIdPrefix}-mfa-status`,
        ],
        ['Method', user.mfaEnabled ? method : '—'],
        [
          'This session',
          mfa ? (
            <StatusPill tone="ok">MFA verified</StatusPill>
          ) : (
            <StatusPill tone="muted">Password only</StatusPill>
          ),
          `${testIdPrefix}-session-mfa`,
        ],
      ]}
    />
  );
}
