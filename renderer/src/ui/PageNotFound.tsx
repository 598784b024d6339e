import { EmptyState } from './states';

// A section's answer to a path under it that names no page (an old or mistyped link).

export function PageNotFound({ pathname }: { pathname: string }) {
  return (
    <EmptyState icon="alert" title={`There is no page at ${pathname}`} testId="not-found">
      The link may be old.
    </EmptyState>
  );
}
