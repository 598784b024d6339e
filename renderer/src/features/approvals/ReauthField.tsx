import type { ReactNode } from 'react';
import { Field, TotpCodeInput } from '../../ui/basics';

// The "confirm who you are again" field of a decision (the decision panel, deciding look-alikes together): the
// authenticator code or the password, whichever the account re-authenticates with.

export function ReauthField({
  method,
  ids,
  optional = false,
  value,
  onChange,
  disabled,
  error,
  hint,
  passwordTestId,
}: {
  method: 'password' | 'mfa_code';
  /** The code input's and the password input's element ids. */
  ids: { code: string; password: string };
  /** Confirming again is offered, not asked (the label says so). */
  optional?: boolean;
  value: string;
  onChange: (value: string) => void;
  disabled: boolean;
  error: string | undefined;
  hint: ReactNode;
  passwordTestId: string;
}) {
  const code = method === 'mfa_code';
  return (
    <Field
      label={`${code ? 'Authenticator code' : 'Your password'}${optional ? ' (optional)' : ''}`}
      htmlFor={code ? ids.code : ids.password}
      error={error}
      hint={hint}
    >
      {code ? (
        <TotpCodeInput id={ids.code} value={value} onChange={onChange} />
      ) : (
        <input
          id={ids.password}
          type="password"
          autoComplete="current-password"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          disabled={disabled}
          data-testid={passwordTestId}
        />
      )}
    </Field>
  );
}
