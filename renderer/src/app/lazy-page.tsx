import { lazy, Suspense, type ComponentType } from 'react';
import { Icon, Logo } from '../ui/Icon';
import { Spinner } from '../ui/basics';
import { EmptyState } from '../ui/states';

// Every page of the route table is its own chunk, loaded when it is first opened (issue 18: the console used to
// ship one script of about a megabyte, all of it parsed before the first screen). A page shows a spinner in its
// frame while its chunk arrives, and a way out if the chunk cannot be fetched (the server was updated since the
// console loaded, so the chunk names changed, or the server is gone).

/** Inside the console frame: the sidebar and top bar stay, the page area spins. */
function ConsoleLoading() {
  return (
    <div className="page" data-testid="page-loading">
      <div className="adm-loading">
        <Spinner label="Loading…" />
      </div>
    </div>
  );
}

/** A page outside the frame (sign-in, first run): the boot screen's look, so the hand-over does not flash. */
function BareLoading() {
  return (
    <div className="boot" data-testid="page-loading">
      <Logo size={34} />
      <Spinner label="Loading…" />
    </div>
  );
}

function PageLoadFailed() {
  return (
    <div className="page">
      <EmptyState
        icon="alert"
        title="This page could not be loaded"
        testId="page-load-failed"
        action={
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => window.location.reload()}>
            <Icon name="refresh" />
            Reload
          </button>
        }
      >
        The server may have been updated or stopped since the console opened. Reloading fetches it again.
      </EmptyState>
    </div>
  );
}

/**
 * The page `name` of the feature module `load` imports, as a component that loads that module on first render.
 * `frame` is where the page is drawn: inside the console frame, or bare (sign-in, first run, email links).
 */
export function lazyPage<K extends string>(
  load: () => Promise<Record<K, ComponentType>>,
  name: K,
  frame: 'console' | 'bare' = 'console',
): ComponentType {
  const Page = lazy((): Promise<{ default: ComponentType }> =>
    load().then(
      (module) => ({ default: module[name] }),
      () => ({ default: PageLoadFailed }),
    ),
  );
  const Fallback = frame === 'bare' ? BareLoading : ConsoleLoading;
  function LazyPage() {
    return (
      <Suspense fallback={<Fallback />}>
        <Page />
      </Suspense>
    );
  }
  LazyPage.displayName = `Lazy(${name})`;
  return LazyPage;
}
