import { useState, type ReactNode } from 'react';
import { Link, navigate, usePathname } from '../lib/router';
import { useSession } from '../lib/session';
import { useFreshHealth, useMeta } from '../lib/meta';
import { sectionFor, sectionsFor } from './routes';
import { desktopBridge } from '../lib/bridge';
import { initials, scopeLabel } from '../lib/format';
import { ConnectionIndicator } from './ConnectionIndicator';
import { SearchBox } from './GlobalSearch';
import { Icon, Logo } from '../ui/Icon';
import { SmallButton } from '../ui/SmallButton';

function Sidebar() {
  const pathname = usePathname();
  const health = useMeta((s) => s.health);
  const bridge = desktopBridge();
  const active = sectionFor(pathname);
  // Only the sections the user may use: a technician never meets a page that is all permission wall.
  const permissions = useSession((s) => s.user?.permissions);
  const sections = sectionsFor(permissions);
  const groups = [...new Set(sections.map((s) => s.group))];

  return (
    <aside className="sidebar">
      <Link to="/" className="brand" data-testid="brand">
        <Logo />
        <span className="brand-name">Gatehouse</span>
      </Link>
      <nav className="nav" aria-label="Sections">
        {groups.map((group) => (
          <div className="nav-group" key={group}>
            <div className="ui-eyebrow nav-group-label">{group}</div>
            {sections
              .filter((s) => s.group === group)
              .map((s) => (
                <Link
                  key={s.id}
                  to={s.path}
                  className={`nav-item${active?.id === s.id ? ' active' : ''}`}
                  aria-current={active?.id === s.id ? 'page' : undefined}
                  data-testid={`nav-${s.id}`}
                >
                  <Icon name={s.icon} />
                  <span className="nav-label">{s.label}</span>
                  {s.component ? null : (
                    <span className="nav-soon" title="Arrives in a later release">
                      soon
                    </span>
                  )}
                </Link>
              ))}
          </div>
        ))}
      </nav>
      <div className="sidebar-foot">
        <div>
          Server <span className="mono">{health ? `v${health.version}` : '—'}</span>
        </div>
        {bridge ? (
          <div>
            Desktop <span className="mono">v{bridge.appVersion}</span> · {bridge.platform}
          </div>
        ) : null}
      </div>
    </aside>
  );
}

function Topbar() {
  const user = useSession((s) => s.user);
  const signOut = useSession((s) => s.signOut);
  const pathname = usePathname();
  const section = sectionFor(pathname);
  const [busy, setBusy] = useState(false);

  if (!user) return null;

  const onSignOut = async () => {
    setBusy(true);
    await signOut();
    setBusy(false);
    navigate('/login', { replace: true });
  };

  return (
    <header className="topbar">
      <div className="topbar-title">
        <span className="crumb-root">Console</span>
        <span className="crumb-sep">/</span>
        <span className="crumb-here" data-testid="page-title">
          {section?.label ?? 'Not found'}
        </span>
      </div>
      <div className="topbar-right">
        <SearchBox />
        <ConnectionIndicator />
        <span className="topbar-divider" aria-hidden="true" />
        <Link to="/profile" className="user-chip" data-testid="user-chip" title="Your profile">
          <span className="avatar" aria-hidden="true">
            {initials(user.name, user.email)}
          </span>
          <span className="user-lines">
            <span className="user-name" data-testid="user-name">
              {user.name}
            </span>
            <span className="user-email" data-testid="user-email">
              {user.email}
            </span>
          </span>
          <span className={`badge badge-scope scope-${user.scope}`} data-testid="user-scope">
            {scopeLabel(user.scope)}
          </span>
        </Link>
        <SmallButton
          tone="ghost"
          icon="signOut"
          iconSize={16}
          onClick={() => void onSignOut()}
          disabled={busy}
          testId="sign-out"
        >
          {busy ? 'Signing out…' : 'Sign out'}
        </SmallButton>
      </div>
    </header>
  );
}

export function Shell({ children }: { children: ReactNode }) {
  useFreshHealth();

  return (
    <div className="shell">
      <Sidebar />
      <div className="main">
        <Topbar />
        <main className="content" id="content">
          {children}
        </main>
      </div>
    </div>
  );
}
