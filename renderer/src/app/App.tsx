import { useEffect, useRef } from 'react';
import { navigate, useRouter } from '../lib/router';
import { useSession, type SessionStatus } from '../lib/session';
import { startLive, stopLive } from '../lib/live/socket';
import { queryClient } from '../lib/query';
import { PUBLIC_PATHS, bareRouteFor, sectionFor } from './routes';
import { Shell } from './Shell';
import { BootScreen, NotFoundPage, PlaceholderPage, UnreachableScreen } from './screens';

/** Where the current location must send the user, or null to stay. */
function redirectFor(status: SessionStatus, setupRequired: boolean, pathname: string): string | null {
  if (status === 'signedOut') {
    if (setupRequired) return pathname === '/setup' ? null : `/setup${window.location.hash}`;
    return PUBLIC_PATHS.has(pathname) ? null : '/login';
  }
  if (status === 'signedIn') {
    if (pathname === '/login') return useSession.getState().returnTo ?? '/';
    if (pathname === '/setup') return '/';
  }
  return null;
}

export function App() {
  const status = useSession((s) => s.status);
  const setupRequired = useSession((s) => s.setupRequired);
  const boot = useSession((s) => s.boot);
  const pathname = useRouter((s) => s.pathname);
  const search = useRouter((s) => s.search);
  const hash = useRouter((s) => s.hash);
  const target = redirectFor(status, setupRequired, pathname);

  useEffect(() => {
    void boot();
  }, [boot]);

  useEffect(() => {
    if (!target) return;
    const session = useSession.getState();
    if (status === 'signedOut' && target === '/login' && pathname !== '/')
      session.setReturnTo(`${pathname}${search}`);
    if (status === 'signedIn' && pathname === '/login') session.setReturnTo(null);
    navigate(target, { replace: true });
  }, [target, status, pathname, search]);

  // The devices feature keeps its cached device lists current from live pushes. Its code is a lazy chunk (routes.ts),
  // fetched here once someone signs in; the handler registers as soon as the chunk runs, before any device list
  // read over HTTP can be in the cache.
  useEffect(() => {
    if (status === 'signedIn')
      void import('../features/devices').then((devices) => devices.registerDeviceLiveCache());
  }, [status]);

  // The cache belongs to the signed-in user: nothing of it survives a sign-out. Only a sign-out clears it: a
  // signed-out page (an invitation) reads through the cache too, and a clear would drop its read in flight.
  const wasSignedIn = useRef(false);
  useEffect(() => {
    if (status === 'signedIn') {
      startLive();
      wasSignedIn.current = true;
      return;
    }
    stopLive();
    if (status === 'signedOut' && wasSignedIn.current) {
      wasSignedIn.current = false;
      queryClient.clear();
    }
  }, [status]);

  if (status === 'booting') return <BootScreen />;
  if (status === 'unreachable') return <UnreachableScreen onRetry={() => void boot()} />;
  if (target) return null;

  const bare = bareRouteFor(pathname);
  if (bare) {
    const Page = bare.component;
    return <Page key={bare.keyByHash ? hash : undefined} />;
  }

  const section = sectionFor(pathname);
  const Page = section?.component;
  let page;
  if (!section || (section.path !== pathname && !Page)) page = <NotFoundPage />;
  else if (Page) page = <Page />;
  else page = <PlaceholderPage section={section} />;
  return <Shell>{page}</Shell>;
}
