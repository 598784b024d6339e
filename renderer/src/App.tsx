import { useEffect } from 'react';
import { navigate, useRouter } from './router';
import { useSession, type SessionStatus } from './session/store';
import { startLive, stopLive } from './live/socket';
import { sectionFor } from './sections';
import { Shell } from './components/Shell';
import { LoginPage } from './pages/LoginPage';
import { SetupPage } from './pages/SetupPage';
import { MfaEnrollPage } from './pages/MfaEnrollPage';
import { HomePage } from './pages/HomePage';
import { ProfilePage } from './pages/ProfilePage';
import { BootScreen, NotFoundPage, PlaceholderPage, UnreachableScreen } from './pages/misc';

const PUBLIC_PATHS = new Set(['/login', '/setup']);

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

  useEffect(() => {
    if (status === 'signedIn') startLive();
    else stopLive();
  }, [status]);

  if (status === 'booting') return <BootScreen />;
  if (status === 'unreachable') return <UnreachableScreen onRetry={() => void boot()} />;
  if (target) return null;

  if (pathname === '/login') return <LoginPage />;
  // Keyed by the fragment: a new #token=… link (same page) starts the form afresh with that token.
  if (pathname === '/setup') return <SetupPage key={hash} />;
  if (pathname === '/mfa/enroll') return <MfaEnrollPage />;

  const section = sectionFor(pathname);
  let page;
  if (!section || (section.path !== pathname && !section.ready)) page = <NotFoundPage />;
  else if (section.id === 'home') page = <HomePage />;
  else if (section.id === 'profile') page = <ProfilePage />;
  else page = <PlaceholderPage section={section} />;
  return <Shell>{page}</Shell>;
}
