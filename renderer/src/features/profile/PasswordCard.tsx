import { useState, type FormEvent } from 'react';
import { ActionError } from '../../ui/ActionError';
import { Card } from '../../ui/basics';
import { TextField } from '../../ui/fields';
import { navigate } from '../../lib/router';
import { useSession } from '../../lib/session';
import { NewPasswordFields, useNewPassword } from '../../ui/password';
import { profileApi } from './api';
import { SmallButton } from '../../ui/SmallButton';

export const PASSWORD_CHANGED_NOTICE =
  'Your password was changed and every session signed out. Sign in with the new password.';

/** Change password. The server ends every session of the account, this one included, so the console signs out. */
export function PasswordCard({
  email,
  passwordChangedAt,
}: {
  email: string;
  passwordChangedAt: string | null;
}) {
  const [current, setCurrent] = useState('');
  const newPassword = useNewPassword(email);
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (busy || !current || !newPassword.ready) return;
    setBusy(true);
    setError(null);
    try {
      await profileApi.changePassword(current, newPassword.password);
      useSession.getState().clear(PASSWORD_CHANGED_NOTICE);
      navigate('/login', { replace: true });
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  return (
    <Card title="Password" icon="lock" testId="profile-password">
      <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
        <p className="small muted">
          {passwordChangedAt
            ? `Last changed ${new Date(passwordChangedAt).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' })}. `
            : ''}
          Changing it signs you out everywhere, including this window; sign in again with the new password.
        </p>
        <TextField
          id="profile-current-password"
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={current}
          onChange={setCurrent}
          error={touched && !current ? 'Enter your current password.' : null}
        />
        <NewPasswordFields idPrefix="profile-new" {...newPassword.fields} touched={touched} />
        <ActionError error={error} testId="profile-password-error" />
        <div className="pf-actions pf-actions-end">
          <SmallButton tone="secondary" submit disabled={busy} testId="profile-change-password">
            {busy ? 'Changing…' : 'Change password and sign out'}
          </SmallButton>
        </div>
      </form>
    </Card>
  );
}
