import { errorMessage } from '../../lib/api/client';
import { useMe } from '../../lib/account';
import { useDocumentTitle, useNow } from '../../lib/hooks';
import { Link } from '../../lib/router';
import { useSession } from '../../lib/session';
import { Alert, ErrorBlock, LoadingBlock } from '../../ui';
import { AuditCard, ElevationsCard, GrantsCard, PresenceCard } from './ActivityCards';
import { useDashboard } from './api';
import { DemoDataCard } from './DemoDataCard';
import { useDashboardLive } from './live';
import { SessionDetails } from './SessionDetails';
import { StatTiles } from './StatTiles';
import './home.css';

// The Overview (issue 16): the operations picture a technician keeps open all day — what waits for a decision,
// what is in force, which devices are away, how elevations went this week, what happened last — for the
// caller's scope, live over the console socket. Each tile and card leads to its filtered list.

export function HomePage() {
  useDocumentTitle('Overview');
  const me = useMe();
  const meError = me.error ? errorMessage(me.error) : null;
  const user = useSession((s) => s.user);
  const dashboard = useDashboard();
  useDashboardLive();
  const now = useNow(1000);

  if (!user) return null;
  const firstName = user.name.trim().split(/\s+/)[0] ?? user.name;
  const data = dashboard.data;
  const where =
    data?.organization?.name ?? data?.partner?.name ?? (user.scope === 'system' ? 'Every partner' : null);

  return (
    <div className="page ov-page">
      <div className="page-head">
        <div>
          <h1 data-testid="home-greeting">Welcome, {firstName}</h1>
          <p className="page-sub" data-testid="home-tenant">
            {where ? <span className="ov-tenant">{where}</span> : null}
            {where ? ' · ' : null}
            What needs you now, updated as it happens.
          </p>
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
      {user.scope === 'system' ? <DemoDataCard /> : null}

      {data ? (
        <div className="ov-body" data-testid="overview">
          <StatTiles data={data} now={now} />
          {data.devices || data.elevations ? (
            <div className="ov-charts">
              {data.devices ? <PresenceCard devices={data.devices} /> : null}
              {data.elevations ? <ElevationsCard elevations={data.elevations} /> : null}
            </div>
          ) : null}
          <div className="ov-lists">
            {data.elevations ? <GrantsCard elevations={data.elevations} now={now} /> : null}
            {data.recentAudit ? <AuditCard entries={data.recentAudit} /> : null}
          </div>
          {!data.elevations && !data.recentAudit ? (
            <p className="muted" data-testid="ov-nothing">
              Your role reads neither devices nor the audit log, so there is nothing to summarize here.
            </p>
          ) : null}
        </div>
      ) : dashboard.error ? (
        <ErrorBlock error={dashboard.error} onRetry={() => void dashboard.refetch()} />
      ) : (
        <LoadingBlock label="Loading the overview…" />
      )}

      <SessionDetails
        now={now}
        partnerName={data?.partner?.name ?? null}
        orgName={data?.organization?.name ?? null}
        signIn={me.data?.signIn}
      />
    </div>
  );
}
