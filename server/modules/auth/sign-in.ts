import type { SessionSignIn } from '../../contract';
import type { AppContext } from '../../context';
import { signInEntryDetails } from '../audit';
import { sessionStartedAt } from '../sessions';

// How a session was signed in (GET /auth/me `signIn`): written into the sign-in's audit entry, tied to the session
// by its id, and read back from there. The audit entry is the server's record of every sign-in already, and it
// outlives the session (retention is at least 30 days, a session at most 7), so nothing else needs storing.

/** The steps a sign-in went through, as completeLogin records them. */
export interface SignInSteps {
  method: SessionSignIn['method'];
  secondFactor: SessionSignIn['secondFactor'];
  /** The single sign-on provider (method `sso`). */
  provider?: { id: string; name: string };
}

/**
 * The sign-in entry's details. `method` keeps the meaning it always had in the audit log (the last step proven:
 * `password`, `totp`, `sso`, ...) for the filters and reports that read it; `firstStep` and `secondFactor` say the
 * whole of it.
 */
export function signInDetails(steps: SignInSteps): Record<string, unknown> {
  const lastStep = steps.secondFactor && steps.secondFactor !== 'idp_mfa' ? steps.secondFactor : steps.method;
  return {
    method: lastStep,
    mfa: steps.secondFactor !== null,
    firstStep: steps.method,
    secondFactor: steps.secondFactor,
    ...(steps.provider ? { providerId: steps.provider.id, providerName: steps.provider.name } : {}),
  };
}

const METHODS = new Set<string>(['password', 'sso', 'invitation', 'email_verification']);
const SECOND_FACTORS = new Set<string>(['totp', 'sms', 'recovery_code', 'idp_mfa']);

/** How session `sessionId` of the user was signed in; null when its sign-in entry is not on record. */
export function sessionSignIn(ctx: AppContext, userId: string, sessionId: string): SessionSignIn | null {
  const startedAt = sessionStartedAt(ctx.db, userId, sessionId);
  if (!startedAt) return null;
  const details = signInEntryDetails(ctx.db, userId, sessionId, startedAt);
  const method = details?.firstStep;
  if (typeof method !== 'string' || !METHODS.has(method)) return null;
  const secondFactor = details?.secondFactor;
  const providerName = details?.providerName;
  return {
    method: method as SessionSignIn['method'],
    secondFactor:
      typeof secondFactor === 'string' && SECOND_FACTORS.has(secondFactor)
        ? (secondFactor as NonNullable<SessionSignIn['secondFactor']>)
        : null,
    providerName: typeof providerName === 'string' ? providerName : null,
    at: startedAt,
  };
}
