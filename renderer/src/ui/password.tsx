import { useState, type ComponentPropsWithoutRef } from 'react';
import { PASSWORD_MIN_LENGTH as MIN_PASSWORD } from '../../../server/contract';
import { TextField } from './fields';
import './password.css';

// Password strength as the server judges it (server/modules/auth/passwords.ts passwordProblem), mirrored here
// so the form can say "too weak" before the round trip. The server stays the authority: its 400 message is
// shown verbatim when the two ever disagree.

const COMMON = new Set([
  'password',
  'password1',
  'password123',
  '12345678',
  '123456789',
  '1234567890',
  'qwertyuiop',
  'qwerty123',
  'iloveyou',
  'letmein1',
  'welcome1',
  'admin123',
  'administrator',
  'changeme',
  'passw0rd',
  'p@ssw0rd',
]);

export interface Strength {
  /** 0 empty, 1 refused, 2 fair, 3 good, 4 strong. */
  level: 0 | 1 | 2 | 3 | 4;
  label: string;
  /** Why the server would refuse it, or null. */
  problem: string | null;
}

export function passwordStrength(password: string, email = ''): Strength {
  if (!password) return { level: 0, label: '', problem: `Use at least ${MIN_PASSWORD} characters.` };
  if (password.length < MIN_PASSWORD)
    return {
      level: 1,
      label: 'Too short',
      problem: `Use at least ${MIN_PASSWORD} characters (${password.length} so far).`,
    };
  if (password.length > 256) return { level: 1, label: 'Too long', problem: 'Use at most 256 characters.' };
  const lower = password.toLowerCase();
  const local = email.split('@')[0]?.toLowerCase() ?? '';
  if (COMMON.has(lower)) return { level: 1, label: 'Too weak', problem: 'This password is too common.' };
  if (new Set(password).size < 4)
    return { level: 1, label: 'Too weak', problem: 'Use more different characters.' };
  if (local.length >= 4 && lower.includes(local))
    return { level: 1, label: 'Too weak', problem: 'Do not include your email name in the password.' };
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(password)).length;
  if (classes < 2 && password.length < 16)
    return {
      level: 1,
      label: 'Too weak',
      problem: 'Mix letters with digits, capitals or symbols, or use 16 or more characters.',
    };
  const score = (password.length >= 12 ? 1 : 0) + (password.length >= 16 ? 1 : 0) + (classes >= 3 ? 1 : 0);
  if (score >= 2) return { level: 4, label: 'Strong', problem: null };
  if (score === 1) return { level: 3, label: 'Good', problem: null };
  return { level: 2, label: 'Fair', problem: null };
}

/** The meter under a new-password field. */
export function StrengthMeter({ strength, testId }: { strength: Strength; testId?: string }) {
  if (strength.level === 0) return null;
  return (
    <div className={`pw-meter pw-l${strength.level}`} data-testid={testId} data-level={strength.level}>
      <span className="pw-bars" aria-hidden="true">
        <span />
        <span />
        <span />
        <span />
      </span>
      <span className="pw-label">{strength.label}</span>
    </div>
  );
}

export function isEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());
}

/** A new-password field with the strength meter; its problem shows once submitted or once long enough to judge. */
export function NewPasswordField({
  email,
  touched,
  ...field
}: Omit<ComponentPropsWithoutRef<typeof TextField>, 'type' | 'autoComplete' | 'error' | 'hint' | 'aside'> & {
  email?: string;
  touched: boolean;
}) {
  const strength = passwordStrength(field.value, email);
  const meter = <StrengthMeter strength={strength} testId={field.id.replace(/-password$/, '-strength')} />;
  return (
    <TextField
      type="password"
      autoComplete="new-password"
      error={touched || field.value.length >= MIN_PASSWORD ? strength.problem : null}
      hint={`At least ${MIN_PASSWORD} characters. A passphrase of a few words works well.`}
      aside={meter}
      {...field}
    />
  );
}

// How the pair is labelled: a first password (setup, an invitation) or a new one replacing the old (reset, profile).
const PAIR_LABELS = {
  first: ['Password', 'Repeat the password'],
  replacing: ['New password', 'Repeat the new password'],
} as const;

/**
 * New password plus confirmation, with the meter and inline problems (shown once the form was submitted).
 * `first`: the account's first password, labelled without "new".
 */
export function NewPasswordFields({
  idPrefix,
  password,
  confirm,
  onPassword,
  onConfirm,
  email,
  touched,
  first = false,
  autoFocus,
}: {
  idPrefix: string;
  password: string;
  confirm: string;
  onPassword: (value: string) => void;
  onConfirm: (value: string) => void;
  email?: string;
  touched: boolean;
  first?: boolean;
  autoFocus?: boolean;
}) {
  const labels = PAIR_LABELS[first ? 'first' : 'replacing'];
  // Only once the repeat is as long as the original: no red while the technician is still typing.
  const mismatch = confirm.length > 0 && confirm.length >= password.length && confirm !== password;
  return (
    <>
      <NewPasswordField
        id={`${idPrefix}-password`}
        label={labels[0]}
        value={password}
        onChange={onPassword}
        email={email}
        touched={touched}
        autoFocus={autoFocus}
      />
      <TextField
        id={`${idPrefix}-password-confirm`}
        label={labels[1]}
        type="password"
        autoComplete="new-password"
        value={confirm}
        onChange={onConfirm}
        error={
          mismatch || (touched && confirm !== password)
            ? 'The passwords do not match.'
            : touched && !confirm
              ? 'Repeat the password.'
              : null
        }
      />
    </>
  );
}

/** Both fields acceptable: strong enough and repeated. */
export function newPasswordReady(password: string, confirm: string, email?: string): boolean {
  return passwordStrength(password, email).problem === null && confirm === password;
}

/**
 * The state of a NewPasswordFields pair: spread `fields` into it (with `idPrefix` and `touched`); `ready` once both
 * are acceptable for `email`'s account.
 */
export function useNewPassword(email?: string) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  return {
    password,
    ready: newPasswordReady(password, confirm, email),
    fields: { password, confirm, onPassword: setPassword, onConfirm: setConfirm, email },
  };
}
