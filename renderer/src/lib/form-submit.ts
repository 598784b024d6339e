import { useState, type FormEvent } from 'react';
import { fieldErrors } from './forms';

// The submit of a validated dialog form: errors show under their fields once the field was left or the form
// submitted; the write runs only when the form is valid; a refusal that names a field lands on that field (until
// the field is edited), one that names none above the buttons.

type Messages<K extends string> = Partial<Record<K, string | undefined>>;

/**
 * `errors` are the form's own checks, computed on every render; `refusalFields` maps a refusal the server's
 * VALIDATION_ERROR issues do not name a field for (a 409 on a taken email, say) onto the field it concerns.
 */
export function useFormSubmit<K extends string>(
  errors: Messages<K>,
  refusalFields?: (err: unknown) => Record<string, string>,
) {
  const [touched, setTouched] = useState<Partial<Record<K, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [serverFields, setServerFields] = useState<Record<string, string>>({});

  const show = (key: K): string | undefined =>
    (submitted || touched[key] ? errors[key] : undefined) ?? serverFields[key];
  const blur = (key: K) => setTouched((t) => ({ ...t, [key]: true }));
  /** An edit answers the server's refusal of that field. */
  const clearRefusal = (key: string) => {
    if (key in serverFields) setServerFields(({ [key]: _drop, ...rest }) => rest);
  };

  /** What an input bound to one field takes: its value, its edits (each answers a refusal of the field), its blur
   *  and the message to show under it. */
  const bound = (key: K, value: string, onChange: (value: string) => void) => ({
    value,
    onChange: (next: string) => {
      onChange(next);
      clearRefusal(key);
    },
    onBlur: () => blur(key),
    error: show(key),
  });

  const submit = (write: () => Promise<void>) => async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (Object.values(errors).some(Boolean)) return;
    setBusy(true);
    setError(null);
    setServerFields({});
    try {
      await write();
    } catch (err) {
      const fields = { ...fieldErrors(err), ...refusalFields?.(err) };
      setServerFields(fields);
      setError(Object.keys(fields).length > 0 ? null : err);
    } finally {
      setBusy(false);
    }
  };

  return { show, blur, bound, clearRefusal, busy, error, serverFields, submit };
}
