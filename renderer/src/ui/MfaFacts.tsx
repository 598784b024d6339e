import type { AuthUser, SessionSignIn } from '../../../server/contract';
import { Facts, StatusPill } from './basics';

const SECOND_FACTOR: Record<NonNullable<SessionSignIn['secondFactor']>, string> = {
  totp: 'authenticator app',
  sms: 'SMS code',
  recovery_code: 'recovery code',
  idp_mfa: "the provider's MFA",
};

/** How the session was signed in, as a technician says it: "Single sign-on via Contoso Entra + authenticator app". */
export function signInLabel(signIn: SessionSignIn): string {
  const first =
    signIn.method === 'sso'
      ? `Single sign-on via ${signIn.providerName ?? 'your organization'}`
      : signIn.method === 'invitation'
        ? 'Invitation link'
        : signIn.method === 'email_verification'
          ? 'Email verification link'
          : 'Password';
  if (!signIn.secondFactor) return signIn.method === 'password' ? 'Password only' : first;
  return signIn.secondFactor === 'idp_mfa'
    ? `${first} with ${SECOND_FACTOR.idp_mfa}`
    : `${first} + ${SECOND_FACTOR[signIn.secondFactor]}`;
}

/**
 * The account's MFA enrollment and how this session was signed in; shown on Home and Profile alike. Without a
 * sign-in record (a session started by first-run setup or by switching MFA on) it says only whether MFA passed.
 */
export function MfaFacts({
  user,
  mfa,
  signIn,
  testIdPrefix,
}: {
  user: AuthUser;
  mfa: boolean;
  /** From GET /auth/me; null when not on record, undefined while loading. */
  signIn: SessionSignIn | null | undefined;
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
          <StatusPill tone={mfa ? 'ok' : 'muted'}>
            {signIn ? signInLabel(signIn) : mfa ? 'MFA verified' : 'No second factor'}
          </StatusPill>,
          `${testIdPrefix}-session-mfa`,
        ],
      ]}
    />
  );
}
