import { ApiError, errorMessage } from '../api/client';
import { Link } from '../router';
import { Alert } from './ui';

// How a failed write is shown. A write that needs an MFA-verified session leads the technician to set up an
// authenticator (then back here) instead of leaving them with a bare "forbidden".

export function isMfaRequired(err: unknown): boolean {
  return err instanceof ApiError && err.code === 'MFA_REQUIRED';
}

export function ActionError({ error, testId = 'action-error' }: { error: unknown; testId?: string }) {
  if (!error) return null;
  if (isMfaRequired(error)) {
    const back = `${window.location.pathname}${window.location.search}`;
    return (
      <Alert tone="warning" testId="mfa-required">
        This change needs a session verified with multi-factor authentication.{' '}
        <Link to={`/mfa/enroll?returnTo=${encodeURIComponent(back)}`}>Set up an authenticator</Link>, or sign
        out and sign in again with your code.
      </Alert>
    );
  }
  return <Alert testId={testId}>{errorMessage(error)}</Alert>;
}
