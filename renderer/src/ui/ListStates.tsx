import type { ReactNode } from 'react';
import { ErrorBlock, LoadFailure, LoadingBlock, type Forbidden } from './states';

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
      <LoadFailure
        error={of.error}
        onRetry={of.reload}
        forbiddenTitle={forbidden.title}
        forbiddenText={forbidden.text}
      />
    ) : (
      <ErrorBlock error={of.error} onRetry={of.reload} />
    );
  if (empty) return <>{empty}</>;
  return <>{children}</>;
}
