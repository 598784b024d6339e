import { useState, type FormEvent } from 'react';
import { ApiError } from '../../lib/api/client';
import { Link, navigate } from '../../lib/router';
import { useSession } from '../../lib/session';
import { AuthLayout } from '../../ui/basics';
import { AuthForm } from '../../ui/AuthFormSubmit';
import { useDocumentTitle } from '../../lib/hooks';
import { NewPasswordFields, useNewPassword } from '../../ui/password';
import { authApi } from './api';
import { useAuthForm } from './form';
import { BackToSignIn, NoticePage, useLinkToken } from './notice';

export function ResetPasswordPage() {
  useDocumentTitle('Choose a new password');
  const token = useLinkToken();
  const newPassword = useNewPassword();
  const { touched, busy, error, submit } = useAuthForm();
  const [invalid, setInvalid] = useState(!token);

  const onSubmit = (e: FormEvent) =>
    submit(e, {
      ready: newPassword.ready,
      run: async () => {
        await authApi.resetPassword(token, newPassword.password);
        // Every session of the account ended with the reset, this browser's included.
        useSession.getState().clear('Your password was changed. Sign in with the new password.');
        navigate('/login', { replace: true });
      },
      handled: (err) => {
        const spent =
          err instanceof ApiError && err.status === 400 && err.message === 'invalid or expired token';
        if (spent) setInvalid(true);
        return spent;
      },
    });

  if (invalid) {
    return (
      <NoticePage
        icon="alert"
        tone="bad"
        testId="reset-password-invalid"
        title="This reset link no longer works"
        lead="Reset links are valid for 1 hour and work once. Ask for a new link and use the newest email."
      >
        <Link
          to="/forgot-password"
          className="btn btn-primary btn-block"
          data-testid="reset-password-new-link"
        >
          Send a new link
        </Link>
        <BackToSignIn />
      </NoticePage>
    );
  }

  return (
    <AuthLayout>
      <h1 className="auth-title">Choose a new password</h1>
      <p className="auth-lead">
        After the change, every session of your account is signed out, including other browsers and the
        desktop app.
      </p>
      <AuthForm
        onSubmit={onSubmit}
        submit={{
          testIdPrefix: 'reset-password',
          error,
          busy,
          busyLabel: 'Saving…',
          label: 'Set new password',
        }}
      >
        <NewPasswordFields idPrefix="reset-new" {...newPassword.fields} touched={touched} autoFocus />
      </AuthForm>
      <BackToSignIn />
    </AuthLayout>
  );
}
