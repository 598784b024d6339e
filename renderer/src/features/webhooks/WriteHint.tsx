import { Link, useRouter } from '../../lib/router';
import { useSession } from '../../lib/session';
import { Alert } from '../../ui';

// Why webhook changes will be refused, said before the technician tries: no write permission (read-only), or a
// session without a second factor (the write routes need MFA).

export function WriteHint({ canWrite }: { canWrite: boolean }) {
  const user = useSession((s) => s.user);
  const mfa = useSession((s) => s.mfa);
  const pathname = useRouter((s) => s.pathname);
  if (!user) return null;
  if (!canWrite)
    return (
      <Alert tone="info" testId="webhooks-read-only">
        You can read webhooks and their deliveries. Changing them needs the <code>organizations:write</code>{' '}
        permission.
      </Alert>
    );
  if (!user.mfaEnabled)
    return (
      <Alert tone="info" testId="webhooks-mfa-hint">
        Creating and changing webhooks needs two-step verification.{' '}
        <Link to={`/mfa/enroll?returnTo=${encodeURIComponent(pathname)}`}>Set it up now</Link>; you can look
        around without it.
      </Alert>
    );
  if (!mfa)
    return (
      <Alert tone="info" testId="webhooks-mfa-hint">
        This session was not verified with your second factor, so webhook changes will be refused. Sign out
        and sign in again with your code to make changes.
      </Alert>
    );
  return null;
}
