import { useState } from 'react';
import { useDialog } from '../../lib/hooks';
import type { BulkSummary } from './bulk-decide';

/**
 * A bulk decision on a list (Deny selected in the inbox, deciding look-alikes on a request page): its dialog, open
 * with what it is about (`pending`), and its outcome once done. Done closes the dialog, shows the outcome and
 * runs `after` (clear the selection, read the list again).
 */
export function useBulkRun<T>(after: () => void) {
  const dialog = useDialog<T>();
  const [summary, setSummary] = useState<BulkSummary | null>(null);
  return {
    pending: dialog.value,
    open: dialog.open,
    props: dialog.props((s: BulkSummary) => {
      setSummary(s);
      after();
    }),
    summary,
    dismiss: () => setSummary(null),
  };
}
