import { ApiError, errorMessage } from '../lib/errors';
import { Link } from '../lib/router';
import { useSession } from '../lib/session';
import { Alert } from './basics';

// How a failed write is shown. A write that needs an MFA-verified session leads the technician to set up an
// authenticator (then back here) instead of leaving them with a bare "forbidden".

export function isMfaRequired(err: unknown): boolean {
  return err instanceof ApiError && err.code === 'MFA_REQUIRED';
}

export function ActionError({ error, testId = 'action-error' }: { error: unknown; testId?: string }) {
  const mfaEnabled = useSession((s) => s.user?.mfaEnabled ?? false);
  if (!error) return null;
  if (isMfaRequired(error)) {
    const back = `${window.location.pathname}${window.location.search}`;
    return (
      <Alert tone="warning" testId="mfa-required">
        This change needs a session verified with two-step verification.{' '}
        {mfaEnabled ? (
          'Sign out and sign in again with your code, then repeat the change.'
        ) : (
          <>
            <Link to={`/mfa/enroll?returnTo=${encodeURIComponent(back)}`}>Set up an authenticator</Link> (it
            takes a minute), then repeat the change.
          </>
        )}
      </Alert>
    );
  }
  return <Alert testId={testId}>{errorMessage(error)}</Alert>;
}
