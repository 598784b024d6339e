import { useState } from 'react';
import type { BulkSummary } from './bulk-decide';

/**
 * A bulk decision on a list (Deny selected in the inbox, deciding look-alikes on a request page): its dialog, open
 * with what it is about (`pending`), and its outcome once done. `done` closes the dialog, shows the outcome and
 * runs `after` (clear the selection, read the list again).
 */
export function useBulkRun<T>(after: () => void) {
  const [pending, setPending] = useState<T | null>(null);
  const [summary, setSummary] = useState<BulkSummary | null>(null);
  return {
    pending,
    open: setPending,
    close: () => setPending(null),
    done: (s: BulkSummary) => {
      setPending(null);
      setSummary(s);
      after();
    },
    summary,
    dismiss: () => setSummary(null),
  };
}
