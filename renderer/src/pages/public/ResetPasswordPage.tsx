import { useState, type FormEvent } from 'react';
import type { AcceptedResponse } from '../../../../server/contract';
import { ApiError, api, errorMessage } from '../../api/client';
import { Link, navigate, useRouter } from '../../router';
import { useSession } from '../../session/store';
import { AuthLayout, Alert } from '../../components/ui';
import { Icon } from '../../components/Icon';
import { useDocumentTitle } from '../../lib/hooks';
import { NewPasswordFields, newPasswordReady } from './password';

export function ResetPasswordPage() {
  useDocumentTitle('Choose a new password');
  const search = useRouter((s) => s.search);
  const token = new URLSearchParams(search).get('token')?.trim() ?? '';
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
      await api<AcceptedResponse>('/auth/reset-password', {
        method: 'POST',
        body: { token, password },
        auth: false,
      });
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
        <div className="pub-icon bad">
          <Icon name="alert" size={20} />
        </div>
        <h1 className="auth-title" data-testid="reset-password-invalid">
          This reset link no longer works
        </h1>
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
        <div className="auth-links">
          <Link to="/login" className="link">
            Back to sign in
          </Link>
        </div>
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
        {error ? (
          <Alert testId="reset-password-error">
            <span data-testid="reset-password-error-message">{error}</span>
          </Alert>
        ) : null}
        <button
          type="submit"
          className="btn btn-primary btn-block"
          disabled={busy}
          data-testid="reset-password-submit"
        >
          {busy ? 'Saving…' : 'Set new password'}
        </button>
      </form>
      <div className="auth-links">
        <Link to="/login" className="link">
          Back to sign in
        </Link>
      </div>
    </AuthLayout>
  );
}
