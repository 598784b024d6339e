import { useState, type FormEvent } from 'react';
import { ApiError } from '../../lib/api/client';
import { Link, navigate } from '../../lib/router';
import { AuthLayout } from '../../ui/basics';
import { PersonNameField, TextField } from '../../ui/fields';
import { AuthForm } from '../../ui/AuthFormSubmit';
import { Button } from '../../ui/Button';
import { useDocumentTitle } from '../../lib/hooks';
import { NewPasswordField, isEmail, passwordStrength } from '../../ui/password';
import { authApi } from './api';
import { useAuthForm } from './form';
import { BackToSignIn, NoticePage } from './notice';

/** Where the registration page sends people when the server has registration turned off (spec 1). */
export const REGISTRATION_DISABLED_PATH = '/login?reason=registration-disabled';
export function RegisterPage() {
  useDocumentTitle('Create a partner account');
  const [companyName, setCompanyName] = useState('');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [acceptTerms, setAcceptTerms] = useState(false);
  const { touched, setTouched, busy, error, submit } = useAuthForm();
  const [sentTo, setSentTo] = useState<string | null>(null);

  const strength = passwordStrength(password, email);
  const problems = {
    companyName:
      companyName.trim().length >= 2
        ? companyName.trim().length <= 255
          ? null
          : 'At most 255 characters.'
        : 'Enter your company name (at least 2 characters).',
    name: name.trim() ? null : 'Enter your name.',
    email: isEmail(email) ? null : 'Enter a valid email address.',
    password: strength.problem,
    acceptTerms: acceptTerms ? null : 'Accept the terms to continue.',
  };
  const show = (key: keyof typeof problems) => (touched ? problems[key] : null);

  const onSubmit = (e: FormEvent) =>
    submit(e, {
      ready: !Object.values(problems).some(Boolean),
      run: async () => {
        await authApi.registerPartner({
          companyName: companyName.trim(),
          name: name.trim(),
          email: email.trim(),
          password,
          // Only a ticked box gets this far (`ready` above).
          acceptTerms: true,
        });
        setSentTo(email.trim());
        setPassword('');
      },
      handled: (err) => {
        const off = err instanceof ApiError && err.status === 404;
        if (off) navigate(REGISTRATION_DISABLED_PATH, { replace: true });
        return off;
      },
    });

  if (sentTo) {
    return (
      <NoticePage
        icon="mail"
        testId="register-sent"
        title="Check your email"
        lead={
          <>
            We sent a confirmation link to <span className="pub-email">{sentTo}</span>. Open it on this
            computer and press <strong>Confirm</strong> to create {companyName.trim() || 'your company'}
            &apos;s partner account. The link works once.
          </>
        }
      >
        <p className="small muted">
          Nothing arrived after a few minutes? Check the spam folder, then try again with the same details. If
          the address already has an account, sign in or reset its password instead.
        </p>
        <BackToSignIn>
          <Button
            tone="link"
            onClick={() => {
              setSentTo(null);
              setTouched(false);
            }}
            testId="register-again"
          >
            Use a different email
          </Button>
        </BackToSignIn>
      </NoticePage>
    );
  }

  return (
    <AuthLayout wide>
      <h1 className="auth-title">Create a partner account</h1>
      <p className="auth-lead">
        For managed service providers and IT teams. You become the administrator of your company&apos;s
        partner account and can add organizations and technicians afterwards.
      </p>
      <AuthForm
        onSubmit={onSubmit}
        submit={{ testIdPrefix: 'register', error, busy, busyLabel: 'Sending…', label: 'Create account' }}
      >
        <TextField
          id="register-company"
          label="Company name"
          type="text"
          autoComplete="organization"
          autoFocus
          maxLength={255}
          value={companyName}
          onChange={setCompanyName}
          error={show('companyName')}
        />
        <div className="form-row">
          <PersonNameField id="register-name" value={name} onChange={setName} error={show('name')} />
          <TextField
            id="register-email"
            label="Work email"
            type="email"
            autoComplete="email"
            maxLength={255}
            value={email}
            onChange={setEmail}
            error={show('email')}
          />
        </div>
        <NewPasswordField
          id="register-password"
          label="Password"
          value={password}
          onChange={setPassword}
          email={email}
          touched={touched}
        />
        <label className="check pub-terms" htmlFor="register-terms">
          <input
            id="register-terms"
            type="checkbox"
            checked={acceptTerms}
            onChange={(e) => setAcceptTerms(e.target.checked)}
            data-testid="register-terms"
          />
          <span>I accept the terms of service and the acceptable use policy of this Gatehouse service.</span>
        </label>
        {show('acceptTerms') ? <div className="field-error">{problems.acceptTerms}</div> : null}
      </AuthForm>
      <div className="auth-links">
        <span className="muted">Already have an account?</span>
        <Link to="/login" className="link" data-testid="register-sign-in">
          Sign in
        </Link>
      </div>
    </AuthLayout>
  );
}
