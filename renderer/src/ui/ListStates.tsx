import type { ReactNode } from 'react';
import { ErrorBlock, LoadingBlock, LoadState, type Forbidden } from './states';

// The states a list page goes through before its table: the first load, a failure with nothing to show, and
// "nothing here yet". Once there is something to list, the page's own toolbar and table show.

export function ListStates({
  of,
  loading,
  forbidden,
  empty,
  children,
}: {
  /** The list's read (a cached query's state). */
  of: { data: unknown; error: unknown; loading: boolean; reload: () => void };
  /** What is loading, e.g. "Loading partners…". */
  loading: string;
  /** How a refusal (403) is explained; without it a failure shows the error and Retry. */
  forbidden?: Forbidden;
  /** Shown instead of the list when there is nothing to list (null or absent: the list shows). */
  empty?: ReactNode;
  children: ReactNode;
}) {
  if (of.loading) return <LoadingBlock label={loading} />;
  if (of.error && !of.data)
    return forbidden ? (
      <LoadState of={of} forbidden={forbidden} />
    ) : (
      <ErrorBlock error={of.error} onRetry={of.reload} />
    );
  if (empty) return <>{empty}</>;
  return <>{children}</>;
}

/**
 * The same states for a list read page after page (usePagedList): a failure with no rows, then the first load,
 * then "nothing here" (`empty`), else the table. While a changed query loads, the previous rows stay on screen
 * (`switching`), so the empty state waits for the new answer unless `emptyWhileSwitching` says otherwise.
 */
export function PagedListStates({
  list,
  shown = list.rows.length,
  loading,
  forbidden,
  empty,
  emptyWhileSwitching = false,
  children,
}: {
  list: {
    rows: readonly unknown[];
    error: unknown;
    loading: boolean;
    switching: boolean;
    reload: () => void;
  };
  /** How many rows the table would show, when the page narrows the loaded rows further (a local search). */
  shown?: number;
  loading: string;
  forbidden: Forbidden;
  empty: ReactNode;
  /** Show the empty state as soon as the loaded rows say so, even while the new query is still on its way. */
  emptyWhileSwitching?: boolean;
  children: ReactNode;
}) {
  // With an error and nothing loaded, LoadState shows the failure (a refusal explained, else Retry).
  if (list.error && list.rows.length === 0) return <LoadState of={list} forbidden={forbidden} />;
  if (list.loading) return <LoadingBlock label={loading} />;
  if (shown === 0 && (emptyWhileSwitching || !list.switching)) return <>{empty}</>;
  return <>{children}</>;
}
