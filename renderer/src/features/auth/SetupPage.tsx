import { useState, type FormEvent } from 'react';
import type { TokenPair } from '../../../../server/contract';
import { ApiError, api, errorMessage } from '../../lib/api/client';
import { Link, navigate } from '../../lib/router';
import { useSession } from '../../lib/session';
import { AuthLayout, Field } from '../../ui/basics';
import { AuthFormSubmit } from '../../ui/AuthFormSubmit';
import { useDocumentTitle } from '../../lib/hooks';
import { isEmail } from '../../ui/password';

const MIN_PASSWORD = 12;

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
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [complete, setComplete] = useState(!setupRequired);
  const [busy, setBusy] = useState(false);
  const tokenFromUrl = tokenFromFragment() !== '';

  const problems = {
    setupToken: setupToken.trim() ? null : 'Paste the setup token printed in the server log.',
    name: name.trim() ? null : 'Enter your name.',
    email: isEmail(email) ? null : 'Enter a valid email address.',
    password:
      password.length >= MIN_PASSWORD
        ? null
        : `Use at least ${MIN_PASSWORD} characters (${password.length} so far).`,
    confirm: confirm === password ? null : 'The passwords do not match.',
  };
  const valid = Object.values(problems).every((p) => p === null);
  const show = (key: keyof typeof problems) => (touched ? problems[key] : null);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!valid || busy) return;
    setBusy(true);
    setError(null);
    try {
      const pair = await api<TokenPair>('/setup', {
        method: 'POST',
        body: { setupToken: setupToken.trim(), name: name.trim(), email: email.trim(), password },
        auth: false,
      });
      acceptTokens(pair);
      navigate('/mfa/enroll?from=setup', { replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'SETUP_COMPLETE') {
        setSetupRequired(false);
        setComplete(true);
      } else {
        setError(errorMessage(err));
      }
    } finally {
      setBusy(false);
    }
  };

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
      <div className="steps" aria-label="Setup progress">
        <span className="step current">1 · Administrator</span>
        <span className="step">2 · Authenticator</span>
        <span className="step">3 · Recovery codes</span>
      </div>
      <h1 className="auth-title">Set up Gatehouse</h1>
      <p className="auth-lead">
        Create the first administrator. This account has system scope: it can create partners, organizations
        and other users.
      </p>
      <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
        <Field
          label="Setup token"
          htmlFor="setup-token"
          error={show('setupToken')}
          hint={
            tokenFromUrl
              ? 'Filled in from the link that opened this page.'
              : 'The server prints a one-time setup token in its log at start.'
          }
        >
          <input
            id="setup-token"
            className="mono"
            autoComplete="off"
            spellCheck={false}
            value={setupToken}
            onChange={(e) => setSetupToken(e.target.value)}
            data-testid="setup-token"
          />
        </Field>
        <div className="form-row">
          <Field label="Full name" htmlFor="setup-name" error={show('name')}>
            <input
              id="setup-name"
              autoComplete="name"
              autoFocus
              value={name}
              onChange={(e) => setName(e.target.value)}
              data-testid="setup-name"
            />
          </Field>
          <Field label="Email" htmlFor="setup-email" error={show('email')}>
            <input
              id="setup-email"
              type="email"
              autoComplete="username"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              data-testid="setup-email"
            />
          </Field>
        </div>
        <div className="form-row">
          <Field
            label="Password"
            htmlFor="setup-password"
            error={show('password')}
            hint={`At least ${MIN_PASSWORD} characters. A passphrase works well.`}
          >
            <input
              id="setup-password"
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              data-testid="setup-password"
            />
          </Field>
          <Field label="Confirm password" htmlFor="setup-password-confirm" error={show('confirm')}>
            <input
              id="setup-password-confirm"
              type="password"
              autoComplete="new-password"
              value={confirm}
              onChange={(e) => setConfirm(e.target.value)}
              data-testid="setup-password-confirm"
            />
          </Field>
        </div>
        <AuthFormSubmit testIdPrefix="setup" error={error} busy={busy} busyLabel="Creating administrator…">
          Create administrator
        </AuthFormSubmit>
      </form>
    </AuthLayout>
  );
}
