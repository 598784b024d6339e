import { useState, type FormEvent } from 'react';
import { Link } from '../../lib/router';
import { AuthLayout } from '../../ui/basics';
import { AccountEmailField } from '../../ui/fields';
import { AuthForm } from '../../ui/AuthFormSubmit';
import { useDocumentTitle } from '../../lib/hooks';
import { isEmail } from '../../ui/password';
import { authApi } from './api';
import { useAuthForm } from './form';
import { BackToSignIn, NoticePage } from './notice';

// The answer is the same whether or not the address has an account, so this page never hints at which.
export function ForgotPasswordPage() {
  useDocumentTitle('Reset your password');
  const [email, setEmail] = useState('');
  const { touched, busy, error, submit } = useAuthForm();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const problem = isEmail(email) ? null : 'Enter the email address you sign in with.';

  // Only failures that say nothing about the account reach the form: rate limits and an unreachable server.
  const onSubmit = (e: FormEvent) =>
    submit(e, {
      ready: !problem,
      run: async () => {
        await authApi.forgotPassword(email.trim());
        setSentTo(email.trim());
      },
    });

  if (sentTo) {
    return (
      <NoticePage
        icon="mail"
        testId="forgot-password-sent"
        title="Check your email"
        lead={
          <>
            If an account exists for <span className="pub-email">{sentTo}</span>, we have sent it a link to
            reset the password. The link works once and is valid for 1 hour.
          </>
        }
      >
        <p className="small muted">
          Accounts that sign in through single sign-on have no Gatehouse password; use your company sign-in
          instead.
        </p>
        <Link to="/login" className="btn btn-primary btn-block" data-testid="forgot-password-back">
          Back to sign in
        </Link>
      </NoticePage>
    );
  }

  return (
    <AuthLayout>
      <h1 className="auth-title">Reset your password</h1>
      <p className="auth-lead">Enter the email address of your account and we will send you a reset link.</p>
      <AuthForm
        onSubmit={onSubmit}
        submit={{
          testIdPrefix: 'forgot-password',
          error,
          busy,
          busyLabel: 'Sending…',
          label: 'Send reset link',
        }}
      >
        <AccountEmailField
          id="forgot-password-email"
          autoFocus
          value={email}
          onChange={setEmail}
          error={touched ? problem : null}
        />
      </AuthForm>
      <BackToSignIn />
    </AuthLayout>
  );
}
