import { useEffect, type JSX } from 'react';
import { navigate, useRouter } from '../lib/router';
import { useSession, type SessionStatus } from '../lib/session';
import { startLive, stopLive } from '../lib/live/socket';
import { sectionFor } from './sections';
import { Shell } from './Shell';
import { LoginPage } from '../pages/LoginPage';
import { SetupPage } from '../pages/SetupPage';
import { MfaEnrollPage } from '../pages/MfaEnrollPage';
import { HomePage } from '../pages/HomePage';
import { ProfilePage } from '../pages/ProfilePage';
import { BootScreen, NotFoundPage, PlaceholderPage, UnreachableScreen } from './screens';
import { TenantsPage } from '../pages/tenants/TenantsPage';
import { PeoplePage } from '../pages/people/PeoplePage';
import { SettingsPage } from '../pages/settings/SettingsPage';
import { KeysPage } from '../pages/keys/KeysPage';
import { DevicesSection } from '../pages/devices/DevicesSection';
import { ApprovalsSection } from '../pages/approvals/ApprovalsSection';
import { PamPolicySection } from '../pages/pam-policy/PamPolicySection';
import { FiltersPage } from '../pages/filters/FiltersPage';
import { RegisterPage } from '../pages/public/RegisterPage';
import { VerifyEmailPage } from '../pages/public/VerifyEmailPage';
import { AcceptInvitePage } from '../pages/public/AcceptInvitePage';
import { ForgotPasswordPage } from '../pages/public/ForgotPasswordPage';
import { ResetPasswordPage } from '../pages/public/ResetPasswordPage';

/** Pages for people who are not signed in: sign-in, first run, and the links that arrive by email. */
const PUBLIC_PAGES: Record<string, () => JSX.Element> = {
  '/register': RegisterPage,
  '/verify-email': VerifyEmailPage,
  '/accept-invite': AcceptInvitePage,
  '/forgot-password': ForgotPasswordPage,
  '/reset-password': ResetPasswordPage,
};
const PUBLIC_PATHS = new Set(['/login', '/setup', ...Object.keys(PUBLIC_PAGES)]);

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
  const PublicPage = PUBLIC_PAGES[pathname];
  if (PublicPage) return <PublicPage />;

  const section = sectionFor(pathname);
  let page;
  if (!section || (section.path !== pathname && !section.ready)) page = <NotFoundPage />;
  else if (section.id === 'home') page = <HomePage />;
  else if (section.id === 'profile') page = <ProfilePage />;
  else if (section.id === 'tenants') page = <TenantsPage />;
  else if (section.id === 'users') page = <PeoplePage />;
  else if (section.id === 'keys') page = <KeysPage />;
  else if (section.id === 'settings') page = <SettingsPage />;
  else if (section.id === 'devices') page = <DevicesSection />;
  else if (section.id === 'filters') page = <FiltersPage />;
  else if (section.id === 'approvals') page = <ApprovalsSection />;
  else if (section.id === 'pam-policy') page = <PamPolicySection />;
  else page = <PlaceholderPage section={section} />;
  return <Shell>{page}</Shell>;
}
