import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../lib/errors';

// What every signed-out form carries: whether it was submitted (problems show from then on), whether its request
// is running, and the server's refusal in words.

export interface SubmitSpec {
  /** False while a field still has a problem: the submit only marks the form touched. */
  ready?: boolean;
  run: () => Promise<void>;
  /** Takes over a refusal the page answers itself (an invalid link, setup already done); true when it did. */
  handled?: (err: unknown) => boolean;
}

export function useAuthForm() {
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent, { ready = true, run, handled }: SubmitSpec): Promise<void> => {
    e.preventDefault();
    setTouched(true);
    if (busy || !ready) return;
    setBusy(true);
    setError(null);
    try {
      await run();
    } catch (err) {
      if (!handled?.(err)) setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return { touched, setTouched, busy, error, setError, submit };
}
