import type { ReactNode } from 'react';
import { errorMessage } from '../../lib/api/client';
import { useMe } from '../../lib/account';
import { Link } from '../../lib/router';
import { useSession } from '../../lib/session';
import { useLive, LIVE_EVENT_BUFFER, type LiveEvent } from '../../lib/live/socket';
import { useMeta } from '../../lib/meta';
import { Alert, Card, Facts, StatusPill } from '../../ui/basics';
import { MfaFacts } from '../../ui/MfaFacts';
import { DemoDataCard } from './DemoDataCard';
import { desktopBridge } from '../../lib/bridge';
import { formatDateTime, formatDuration, formatTime, relativeTime, scopeLabel } from '../../lib/format';
import { useDocumentTitle, useNow } from '../../lib/hooks';

export function HomePage() {
  useDocumentTitle('Overview');
  const me = useMe();
  const meError = me.error ? errorMessage(me.error) : null;
  const user = useSession((s) => s.user);
  const mfa = useSession((s) => s.mfa);
  const expiresAt = useSession((s) => s.expiresAt);
  const nextRefreshAt = useSession((s) => s.nextRefreshAt);
  const signedInAt = useSession((s) => s.signedInAt);
  const lastRefreshAt = useSession((s) => s.lastRefreshAt);
  const health = useMeta((s) => s.health);
  const healthError = useMeta((s) => s.healthError);
  const now = useNow(1000);
  const bridge = desktopBridge();

  if (!user) return null;
  const firstName = user.name.trim().split(/\s+/)[0] ?? user.name;

  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1 data-testid="home-greeting">Welcome, {firstName}</h1>
          <p className="page-sub">Your session, this server and what is happening right now.</p>
        </div>
      </div>

      {meError ? <Alert tone="warning">Could not refresh your identity: {meError}</Alert> : null}
      {!user.mfaEnabled ? (
        <Alert tone="warning" testId="home-mfa-banner">
          Two-step verification is off for your account. Approvals and administrative changes require it.{' '}
          <Link to="/mfa/enroll" className="link" data-testid="home-enroll-mfa">
            Set it up now
          </Link>
        </Alert>
      ) : null}

      <div className="grid grid-home">
        <Card title="Signed in as" icon="profile" testId="home-identity">
          <div className="identity">
            <div className="identity-main">
              <div className="identity-name" data-testid="home-user-name">
                {user.name}
              </div>
              <div className="identity-email" data-testid="home-user-email">
                {user.email}
              </div>
            </div>
          </div>
          <Facts
            rows={[
              [
                'Scope',
                <span className={`badge badge-scope scope-${user.scope}`}>{scopeLabel(user.scope)}</span>,
              ],
              ['Role', user.roleName ?? (user.scope === 'system' ? 'System administrator' : '—')],
              ...(user.partnerId
                ? [['Partner', <span className="mono small">{user.partnerId}</span>] as [string, ReactNode]]
                : []),
              ...(user.orgId
                ? [['Organization', <span className="mono small">{user.orgId}</span>] as [string, ReactNode]]
                : []),
              ['Previous sign-in', formatDateTime(user.lastLoginAt)],
            ]}
          />
        </Card>

        <Card title="Two-step verification" icon="lock" testId="home-mfa">
          <MfaFacts user={user} mfa={mfa} testIdPrefix="home" />
          <div className="card-foot">
            <Link to="/profile" className="link">
              Manage in profile
            </Link>
          </div>
        </Card>

        <Card title="Server" icon="server" testId="home-server">
          <Facts
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
        </Card>

        <Card title="Session" icon="clock" testId="home-session">
          <Facts
            rows={[
              [
                'Signed in',
                signedInAt ? (
                  <>
                    {formatTime(signedInAt)} <span className="muted">· {relativeTime(signedInAt, now)}</span>
                  </>
                ) : (
                  '—'
                ),
              ],
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
        </Card>

        {user.scope === 'system' ? <DemoDataCard /> : null}
        <LiveActivity now={now} />
      </div>
    </div>
  );
}

function LiveActivity({ now }: { now: number }) {
  const state = useLive((s) => s.state);
  const events = useLive((s) => s.events);

  return (
    <Card
      title="Live activity"
      icon="activity"
      className="span-2 live-card"
      testId="live-activity"
      actions={
        <span className="muted small">
          {events.length
            ? `${events.length} event${events.length === 1 ? '' : 's'}${events.length >= LIVE_EVENT_BUFFER ? ' (most recent)' : ''}`
            : null}
        </span>
      }
    >
      {events.length === 0 ? (
        <div className="empty-inline" data-testid="live-activity-empty">
          {state === 'live'
            ? 'Connected. Elevation, device, webhook, access-review and audit events in your scope appear here as they happen.'
            : state === 'connecting'
              ? 'Connecting to the live feed…'
              : 'The live feed is offline. Events will appear once it reconnects.'}
        </div>
      ) : (
        <ul className="events" data-testid="live-events">
          {events.map((e) => (
            <EventRow key={e.seq} event={e} now={now} />
          ))}
        </ul>
      )}
    </Card>
  );
}

function eventTone(name: string): string {
  if (/denied|failed|revoked|expired|error/.test(name)) return 'bad';
  if (/approved|completed|succeeded|enrolled|online/.test(name)) return 'ok';
  if (/requested|pending|created/.test(name)) return 'warn';
  return 'muted';
}

/** An audit entry reads as "who · what · outcome"; other events show their identifying fields. */
function summarize(event: LiveEvent): string {
  if (event.event === 'audit.created') {
    const entry = event.data;
    return [entry.action, entry.actorEmail ?? 'system', entry.result === 'success' ? null : entry.result]
      .filter(Boolean)
      .join(' · ');
  }
  const record: Record<string, unknown> = { ...event.data };
  const parts: string[] = [];
  for (const key of ['hostname', 'deviceName', 'status', 'action', 'subjectUsername', 'name', 'id']) {
    const value = record[key];
    if (typeof value === 'string' || typeof value === 'number') parts.push(`${key}=${value}`);
    if (parts.length >= 3) break;
  }
  return parts.join('  ');
}

function EventRow({ event, now }: { event: LiveEvent; now: number }) {
  return (
    <li className="event" data-testid="live-event">
      <span className="event-time mono" title={new Date(event.receivedAt).toISOString()}>
        {formatTime(event.receivedAt)}
      </span>
      <span className={`event-name tone-${eventTone(event.event)}`}>{event.event}</span>
      <span className="event-summary mono">{summarize(event)}</span>
      <span className="event-ago">{relativeTime(event.receivedAt, now)}</span>
    </li>
  );
}
