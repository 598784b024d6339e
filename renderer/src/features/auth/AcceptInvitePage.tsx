import { useState, type FormEvent } from 'react';
import type { InvitationInfo } from '../../../../server/contract';
import { ApiError, errorMessage } from '../../lib/api/client';
import { navigate } from '../../lib/router';
import { useSession } from '../../lib/session';
import { AuthLayout, Alert, Facts, Spinner } from '../../ui/basics';
import { PersonNameField } from '../../ui/fields';
import { AuthForm } from '../../ui/AuthFormSubmit';
import { Button } from '../../ui/Button';
import { useDocumentTitle } from '../../lib/hooks';
import { NewPasswordFields, useNewPassword } from '../../ui/password';
import { useApiQuery } from '../../lib/query';
import { authApi, authKeys } from './api';
import { useAuthForm } from './form';
import { AuthSteps, GoToSignIn, NoticePage, useLinkToken } from './notice';
import { formatDateTime } from '../../lib/format';

/** The server does not know the token (or it was spent): nothing to retry. */
function isInvalidToken(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 400 || err.status === 404);
}

export function AcceptInvitePage() {
  useDocumentTitle('Accept invitation');
  const token = useLinkToken();
  // Set when the server refuses the token on submit (accepted meanwhile, or expired while the form was open).
  const [spent, setSpent] = useState(false);
  const invitation = useApiQuery(token ? authKeys.invitation(token) : null, () => authApi.invitation(token));

  if (!token || spent || isInvalidToken(invitation.error)) return <InvalidInvitation />;

  if (invitation.error) {
    return (
      <AuthLayout>
        <h1 className="auth-title">Could not open the invitation</h1>
        <Alert testId="accept-invite-error">{errorMessage(invitation.error)}</Alert>
        <Button tone="secondary" block onClick={invitation.reload}>
          Try again
        </Button>
      </AuthLayout>
    );
  }

  if (!invitation.data) {
    return (
      <AuthLayout>
        <div className="enroll-loading">
          <Spinner label="Opening your invitation…" />
        </div>
      </AuthLayout>
    );
  }

  return <AcceptForm token={token} info={invitation.data} onInvalid={() => setSpent(true)} />;
}

function InvalidInvitation() {
  return (
    <NoticePage
      icon="alert"
      tone="bad"
      testId="accept-invite-invalid"
      title="This invitation no longer works"
      lead="The link is invalid or has expired, or the invitation was already accepted. Ask the person who invited you to send a new invitation. If you already set your password, sign in."
    >
      <GoToSignIn />
    </NoticePage>
  );
}

function AcceptForm({
  token,
  info,
  onInvalid,
}: {
  token: string;
  info: InvitationInfo;
  onInvalid: () => void;
}) {
  const acceptTokens = useSession((s) => s.acceptTokens);
  const [name, setName] = useState(info.name);
  const newPassword = useNewPassword(info.email);
  const { touched, busy, error, submit } = useAuthForm();

  const nameProblem = name.trim() ? null : 'Enter your name.';

  const onSubmit = (e: FormEvent) =>
    submit(e, {
      ready: !nameProblem && newPassword.ready,
      run: async () => {
        const pair = await authApi.acceptInvite({
          token,
          password: newPassword.password,
          ...(name.trim() !== info.name ? { name: name.trim() } : {}),
        });
        acceptTokens(pair);
        // A new technician's next step is their second factor; the enrollment page returns to the overview.
        navigate(pair.user.mfaEnabled ? '/' : `/mfa/enroll?from=invite&returnTo=${encodeURIComponent('/')}`, {
          replace: true,
        });
      },
      handled: (err) => {
        const invalid = err instanceof ApiError && err.status === 400 && err.code === 'INVALID_TOKEN';
        if (invalid) onInvalid();
        return invalid;
      },
    });

  return (
    <AuthLayout wide>
      <AuthSteps label="Progress" steps={['Password', 'Authenticator', 'Recovery codes']} current={0} />
      <h1 className="auth-title" data-testid="accept-invite-title">
        Join {info.tenantName}
      </h1>
      <p className="auth-lead">
        {info.invitedByName ? `${info.invitedByName} invited you` : 'You have been invited'} to work in{' '}
        <strong>{info.tenantName}</strong> on Gatehouse. Choose a password to activate your account.
      </p>
      <div className="pub-invite" data-testid="accept-invite-details">
        <Facts
          rows={[
            ['Account', <span className="mono">{info.email}</span>, 'accept-invite-email'],
            ['Joining', info.tenantName, 'accept-invite-tenant'],
            ['Role', info.roleName || '—', 'accept-invite-role'],
            ['Link expires', formatDateTime(info.expiresAt, { seconds: false })],
          ]}
        />
      </div>
      <AuthForm
        onSubmit={onSubmit}
        submit={{
          testIdPrefix: 'accept-invite',
          error,
          busy,
          busyLabel: 'Activating…',
          label: 'Set password and continue',
        }}
        after={
          <p className="small muted">
            Next you set up two-step verification with an authenticator app: administrative changes in
            Gatehouse need it.
          </p>
        }
      >
        <PersonNameField
          id="accept-invite-name"
          value={name}
          onChange={setName}
          error={touched ? nameProblem : null}
        />
        <div className="form-row">
          <NewPasswordFields
            idPrefix="accept-invite"
            {...newPassword.fields}
            touched={touched}
            first
            autoFocus
          />
        </div>
      </AuthForm>
    </AuthLayout>
  );
}
