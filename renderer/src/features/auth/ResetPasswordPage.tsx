import { useState, type FormEvent } from 'react';
import { ApiError, errorMessage } from '../../lib/api/client';
import { Link, navigate } from '../../lib/router';
import { useSession } from '../../lib/session';
import { AuthLayout } from '../../ui/basics';
import { AuthFormSubmit } from '../../ui/AuthFormSubmit';
import { useDocumentTitle } from '../../lib/hooks';
import { NewPasswordFields, newPasswordReady } from '../../ui/password';
import { authApi } from './api';
import { BackToSignIn, NoticeHead, useLinkToken } from './notice';

export function ResetPasswordPage() {
  useDocumentTitle('Choose a new password');
  const token = useLinkToken();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [invalid, setInvalid] = useState(!token);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (busy || !newPasswordReady(password, confirm)) return;
    setBusy(true);
    setError(null);
    try {
      await authApi.resetPassword(token, password);
      // Every session of the account ended with the reset, this browser's included.
      useSession.getState().clear('Your password was changed. Sign in with the new password.');
      navigate('/login', { replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.status === 400 && err.message === 'invalid or expired token') {
        setInvalid(true);
      } else {
        setError(errorMessage(err));
      }
      setBusy(false);
    }
  };

  if (invalid) {
    return (
      <AuthLayout>
        <NoticeHead icon="alert" tone="bad" testId="reset-password-invalid">
          This reset link no longer works
        </NoticeHead>
        <p className="auth-lead">
          Reset links are valid for 1 hour and work once. Ask for a new link and use the newest email.
        </p>
        <Link
          to="/forgot-password"
          className="btn btn-primary btn-block"
          data-testid="reset-password-new-link"
        >
          Send a new link
        </Link>
        <BackToSignIn />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout>
      <h1 className="auth-title">Choose a new password</h1>
      <p className="auth-lead">
        After the change, every session of your account is signed out, including other browsers and the
        desktop app.
      </p>
      <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
        <NewPasswordFields
          idPrefix="reset-new"
          password={password}
          confirm={confirm}
          onPassword={setPassword}
          onConfirm={setConfirm}
          touched={touched}
          autoFocus
        />
        <AuthFormSubmit testIdPrefix="reset-password" error={error} busy={busy} busyLabel="Saving…">
          Set new password
        </AuthFormSubmit>
      </form>
      <BackToSignIn />
    </AuthLayout>
  );
}
