import type { ComponentProps, ReactNode } from 'react';
import { desktopBridge } from '../../lib/bridge';
import { formatDuration, formatTime, relativeTime, scopeLabel } from '../../lib/format';
import { useMeta } from '../../lib/meta';
import { useSession } from '../../lib/session';
import { Facts, StatusPill } from '../../ui/basics';
import { MfaFacts } from '../../ui/MfaFacts';
import type { SessionSignIn } from '../../../../server/contract';

// Who is signed in, this server, the session's tokens: useful when something is off, not part of a working day.
// So they sit folded at the foot of the Overview (a technician opens them when support asks) instead of taking
// the first screen.

/** One titled block of the folded grid. */
function Panel({ testId, title, children }: { testId: string; title: string; children: ReactNode }) {
  return (
    <div data-testid={testId}>
      <h3>{title}</h3>
      {children}
    </div>
  );
}

function FactsPanel({
  rows,
  ...panel
}: {
  testId: string;
  title: string;
  rows: ComponentProps<typeof Facts>['rows'];
}) {
  return (
    <Panel {...panel}>
      <Facts rows={rows} />
    </Panel>
  );
}

export function SessionDetails({
  now,
  partnerName,
  orgName,
  signIn,
}: {
  now: number;
  partnerName: string | null;
  orgName: string | null;
  /** How this session was signed in (GET /auth/me). */
  signIn: SessionSignIn | null | undefined;
}) {
  const user = useSession((s) => s.user);
  const mfa = useSession((s) => s.mfa);
  const expiresAt = useSession((s) => s.expiresAt);
  const nextRefreshAt = useSession((s) => s.nextRefreshAt);
  const signedInAt = useSession((s) => s.signedInAt);
  const lastRefreshAt = useSession((s) => s.lastRefreshAt);
  const health = useMeta((s) => s.health);
  const healthError = useMeta((s) => s.healthError);
  const bridge = desktopBridge();
  if (!user) return null;

  return (
    <details className="ov-session" data-testid="home-session">
      <summary>Session and server</summary>
      <div className="ov-session-grid">
        <FactsPanel
          testId="home-identity"
          title="Signed in as"
          rows={[
            ['Name', <span data-testid="home-user-name">{user.name}</span>],
            ['Email', <span data-testid="home-user-email">{user.email}</span>],
            [
              'Scope',
              <span className={`badge badge-scope scope-${user.scope}`}>{scopeLabel(user.scope)}</span>,
            ],
            ['Role', user.roleName ?? (user.scope === 'system' ? 'System administrator' : '—')],
            ...(partnerName ? [['Partner', partnerName] as [string, string]] : []),
            ...(orgName ? [['Organization', orgName] as [string, string]] : []),
          ]}
        />
        <Panel testId="home-mfa" title="Two-step verification">
          <MfaFacts user={user} mfa={mfa} signIn={signIn} testIdPrefix="home" />
        </Panel>
        <FactsPanel
          testId="home-server"
          title="Server"
          rows={[
            [
              'Status',
              health ? (
                <StatusPill tone="ok">Healthy</StatusPill>
              ) : healthError ? (
                <StatusPill tone="bad">Unreachable</StatusPill>
              ) : (
                <StatusPill tone="muted">Checking…</StatusPill>
              ),
            ],
            ['Version', health ? <span className="mono">v{health.version}</span> : '—', 'server-version'],
            ['Address', <span className="mono small">{window.location.host}</span>],
            ['Console', bridge ? `Desktop v${bridge.appVersion} · ${bridge.platform}` : 'Web browser'],
          ]}
        />
        <FactsPanel
          testId="home-tokens"
          title="Session"
          rows={[
            ['Signed in', signedInAt ? `${formatTime(signedInAt)} · ${relativeTime(signedInAt, now)}` : '—'],
            [
              'Access token',
              expiresAt ? `expires in ${formatDuration(expiresAt - now)}` : '—',
              'session-expiry',
            ],
            ['Silent refresh', nextRefreshAt ? `in ${formatDuration(nextRefreshAt - now)}` : '—'],
            ['Last refresh', lastRefreshAt ? relativeTime(lastRefreshAt, now) : 'not yet'],
            ['Refresh token', 'HTTP-only cookie'],
          ]}
        />
      </div>
    </details>
  );
}
