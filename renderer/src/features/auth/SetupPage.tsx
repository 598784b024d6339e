import { useState, type FormEvent } from 'react';
import { ApiError } from '../../lib/api/client';
import { Link, navigate } from '../../lib/router';
import { useSession } from '../../lib/session';
import { AuthLayout } from '../../ui/basics';
import { AccountEmailField, CodeField, TextField } from '../../ui/fields';
import { AuthForm } from '../../ui/AuthFormSubmit';
import { useDocumentTitle } from '../../lib/hooks';
import { NewPasswordFields, isEmail, useNewPassword } from '../../ui/password';
import { authApi } from './api';
import { useAuthForm } from './form';
import { AuthSteps } from './notice';

function tokenFromFragment(): string {
  const hash = window.location.hash.replace(/^#/, '');
  return new URLSearchParams(hash).get('token') ?? '';
}

export function SetupPage() {
  useDocumentTitle('First-run setup');
  const acceptTokens = useSession((s) => s.acceptTokens);
  const setupRequired = useSession((s) => s.setupRequired);
  const setSetupRequired = useSession((s) => s.setSetupRequired);
  const [setupToken, setSetupToken] = useState(tokenFromFragment);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  // The one password policy (ui/password, the server's passwordProblem), as on every other password form.
  const newPassword = useNewPassword(email);
  const { touched, busy, error, submit } = useAuthForm();
  const [complete, setComplete] = useState(!setupRequired);
  const tokenFromUrl = tokenFromFragment() !== '';

  const problems = {
    setupToken: setupToken.trim() ? null : 'Paste the setup token printed in the server log.',
    name: name.trim() ? null : 'Enter your name.',
    email: isEmail(email) ? null : 'Enter a valid email address.',
  };
  const valid = newPassword.ready && Object.values(problems).every((p) => p === null);
  const show = (key: keyof typeof problems) => (touched ? problems[key] : null);

  const onSubmit = (e: FormEvent) =>
    submit(e, {
      ready: valid,
      run: async () => {
        const pair = await authApi.setup({
          setupToken: setupToken.trim(),
          name: name.trim(),
          email: email.trim(),
          password: newPassword.password,
        });
        acceptTokens(pair);
        navigate('/mfa/enroll?from=setup', { replace: true });
      },
      handled: (err) => {
        if (!(err instanceof ApiError && err.code === 'SETUP_COMPLETE')) return false;
        setSetupRequired(false);
        setComplete(true);
        return true;
      },
    });

  if (complete) {
    return (
      <AuthLayout>
        <h1 className="auth-title">Setup is complete</h1>
        <p className="auth-lead">This server already has an administrator. Sign in with your account.</p>
        <Link to="/login" replace className="btn btn-primary btn-block" data-testid="setup-go-login">
          Go to sign in
        </Link>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout wide>
      <AuthSteps
        label="Setup progress"
        steps={['Administrator', 'Authenticator', 'Recovery codes']}
        current={0}
      />
      <h1 className="auth-title">Set up Gatehouse</h1>
      <p className="auth-lead">
        Create the first administrator. This account has system scope: it can create partners, organizations
        and other users.
      </p>
      <AuthForm
        onSubmit={onSubmit}
        submit={{
          testIdPrefix: 'setup',
          error,
          busy,
          busyLabel: 'Creating administrator…',
          label: 'Create administrator',
        }}
      >
        <CodeField
          id="setup-token"
          label="Setup token"
          value={setupToken}
          onChange={setSetupToken}
          error={show('setupToken')}
          hint={
            tokenFromUrl
              ? 'Filled in from the link that opened this page.'
              : 'The server prints a one-time setup token in its log at start.'
          }
        />
        <div className="form-row">
          <TextField
            id="setup-name"
            label="Full name"
            autoComplete="name"
            autoFocus
            value={name}
            onChange={setName}
            error={show('name')}
          />
          <AccountEmailField id="setup-email" value={email} onChange={setEmail} error={show('email')} />
        </div>
        <div className="form-row">
          <NewPasswordFields idPrefix="setup" {...newPassword.fields} touched={touched} first />
        </div>
      </AuthForm>
    </AuthLayout>
  );
}
