import { useCallback, useState } from 'react';

export interface AsyncAction {
  busy: boolean;
  error: unknown;
  /** Runs `work` with `busy` set; a throw lands in `error` (cleared at the start of every run). */
  run: (work: () => Promise<void>) => Promise<void>;
  /** Clears a previous error, e.g. when the same dialog is opened for another row. */
  reset: () => void;
}

/**
 * The busy/error pair every write in the administration screens carries. `busy` is cleared when the work ends
 * either way: on success the caller usually closes the dialog, and a still-mounted one is ready for the next try.
 */
export function useAsyncAction(): AsyncAction {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = useCallback(async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }, []);
  const reset = useCallback(() => setError(null), []);
  return { busy, error, run, reset };
}
