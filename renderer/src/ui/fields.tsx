import {
  forwardRef,
  useState,
  type ComponentPropsWithoutRef,
  type InputHTMLAttributes,
  type ReactNode,
  type TextareaHTMLAttributes,
} from 'react';
import { Field, TotpCodeInput } from './basics';

// The labelled inputs the forms repeat: a text input in its Field, and the second-factor code entry (an
// authenticator or texted code, or a recovery code). The input's id doubles as its test id, as everywhere.

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange'>;

/** What every labelled field takes: its id (also its test id), label, text and change, error or hint. */
interface LabelledValue {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  hint?: ReactNode;
}

/** A labelled single-line input with its hint or error underneath. */
export const TextField = forwardRef<
  HTMLInputElement,
  InputProps &
    LabelledValue & {
      /** Beside the label (a strength meter, a count). */
      aside?: ReactNode;
    }
>(function TextField({ id, label, value, onChange, error, hint, aside, ...input }, ref) {
  return (
    <Field label={label} htmlFor={id} error={error} hint={hint} aside={aside}>
      <input
        ref={ref}
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        data-testid={id}
        {...input}
      />
    </Field>
  );
});

/** A labelled multi-line input (a description, a reason) with its hint or error underneath; id as test id. */
export function TextAreaField({
  id,
  label,
  value,
  onChange,
  error,
  hint,
  aside,
  ...area
}: Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'value' | 'onChange'> &
  LabelledValue & {
    /** Beside the label (a count of what was typed). */
    aside?: ReactNode;
  }) {
  return (
    <Field label={label} htmlFor={id} error={error} hint={hint} aside={aside}>
      <textarea id={id} value={value} onChange={(e) => onChange(e.target.value)} data-testid={id} {...area} />
    </Field>
  );
}

/** What a preset of TextField still takes: everything but what it fixes, the label only to override its default. */
type PresetFieldProps = Omit<
  ComponentPropsWithoutRef<typeof TextField>,
  'label' | 'type' | 'autoComplete'
> & {
  label?: string;
};

/** The email of an existing account (sign-in, reset, setup): the browser offers the saved user name. */
export const AccountEmailField = forwardRef<HTMLInputElement, PresetFieldProps>(function AccountEmailField(
  { label = 'Email', ...field },
  ref,
) {
  return <TextField ref={ref} label={label} type="email" autoComplete="username" {...field} />;
});

/** A person's own name, at most 255 characters as the server stores it; the browser offers the user's name. */
export const PersonNameField = forwardRef<HTMLInputElement, PresetFieldProps>(function PersonNameField(
  { label = 'Your name', ...field },
  ref,
) {
  return <TextField ref={ref} label={label} type="text" autoComplete="name" maxLength={255} {...field} />;
});

/** A string a machine reads rather than a person (a token, a recovery code, a checksum): monospace, no autofill,
 *  no spell check. */
export const CodeField = forwardRef<
  HTMLInputElement,
  Omit<ComponentPropsWithoutRef<typeof TextField>, 'autoComplete'>
>(function CodeField(field, ref) {
  return <TextField ref={ref} className="mono" autoComplete="off" spellCheck={false} {...field} />;
});

/** A typed second-factor code as the server wants it: a recovery code trimmed, a 6-digit code as digits. */
export function mfaCode(code: string, recovery: boolean): { normalized: string; ready: boolean } {
  const normalized = recovery ? code.trim() : code.replace(/\D/g, '');
  return { normalized, ready: recovery ? normalized.length >= 6 : normalized.length === 6 };
}

/**
 * The state of a second-factor step: the typed code, whether it is a recovery code (switching clears the code),
 * and the code as the server wants it (mfaCode).
 */
export function useMfaCodeEntry() {
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState(false);
  const toggleRecovery = () => {
    setRecovery((v) => !v);
    setCode('');
  };
  return { code, setCode, recovery, toggleRecovery, ...mfaCode(code, recovery) };
}

/** The code field of a second-factor step: 6 digits from an app or a text, or (with `recovery`) a recovery code. */
export const MfaCodeField = forwardRef<
  HTMLInputElement,
  {
    id: string;
    /** The label of the 6-digit field; a recovery code is always "Recovery code". */
    label: string;
    value: string;
    onChange: (code: string) => void;
    recovery?: boolean;
    autoFocus?: boolean;
  }
>(function MfaCodeField({ id, label, value, onChange, recovery = false, autoFocus }, ref) {
  if (recovery) {
    return <CodeField ref={ref} id={id} label="Recovery code" value={value} onChange={onChange} />;
  }
  return (
    <Field label={label} htmlFor={id}>
      <TotpCodeInput ref={ref} id={id} value={value} onChange={onChange} autoFocus={autoFocus} />
    </Field>
  );
});
