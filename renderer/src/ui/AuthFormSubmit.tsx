import type { FormEvent, ReactNode } from 'react';
import { Alert } from './basics';

// The end of every signed-out form (setup, registration, password reset, invitation): the server's error, then
// the full-width submit button. Test ids follow one pattern per form, `<testIdPrefix>-error`,
// `<testIdPrefix>-error-message` and `<testIdPrefix>-submit`, so browser tests find each form's parts alike.

/** The server's answer, verbatim, when a request failed; nothing otherwise. */
export function AuthFormError({ testIdPrefix, error }: { testIdPrefix: string; error: string | null }) {
  if (!error) return null;
  return (
    <Alert testId={`${testIdPrefix}-error`}>
      <span data-testid={`${testIdPrefix}-error-message`}>{error}</span>
    </Alert>
  );
}

/** The error (if any) and the submit button, which shows `busyLabel` and is disabled while the request runs. */
export function AuthFormSubmit({
  testIdPrefix,
  error,
  busy,
  busyLabel,
  disabled = false,
  children,
}: {
  testIdPrefix: string;
  error: string | null;
  busy: boolean;
  busyLabel: string;
  /** Also disabled while the form is incomplete (busy always disables it). */
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <>
      <AuthFormError testIdPrefix={testIdPrefix} error={error} />
      <button
        type="submit"
        className="btn btn-primary btn-block"
        disabled={busy || disabled}
        data-testid={`${testIdPrefix}-submit`}
      >
        {busy ? busyLabel : children}
      </button>
    </>
  );
}

/**
 * A signed-out form: its fields, then the error and the submit button described by `submit` (label included),
 * then `after` (a note on what comes next).
 */
export function AuthForm({
  onSubmit,
  submit: { label, ...button },
  after,
  children,
}: {
  onSubmit: (e: FormEvent) => Promise<unknown>;
  submit: Omit<Parameters<typeof AuthFormSubmit>[0], 'children'> & { label: string };
  after?: ReactNode;
  children: ReactNode;
}) {
  return (
    <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
      {children}
      <AuthFormSubmit {...button}>{label}</AuthFormSubmit>
      {after}
    </form>
  );
}
