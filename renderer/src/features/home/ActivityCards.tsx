import { useMemo, type ComponentProps, type ReactNode } from 'react';
import type {
  AuditEntry,
  DashboardDevices,
  DashboardElevations,
  ElevationOutcome,
} from '../../../../server/contract';
import { compactTime, formatCount, formatDateTime, relativeTo } from '../../lib/format';
import { Link } from '../../lib/router';
import { BarChart, Card, CHART_COLORS, TimeSeriesChart } from '../../ui';
import { RESULT_TONE } from '../../lib/audit-result';
import { links } from './links';
import { RISK_LABEL } from './StatTiles';

// The Overview's second and third rows: presence over 24 hours, elevations over 7 days with their decision mix,
// the grants that end soonest, and the newest audit entries. Each card's title links to its full list.

const OUTCOMES: Array<{ key: ElevationOutcome; label: string; color: string }> = [
  { key: 'approved', label: 'Approved', color: CHART_COLORS.ok },
  { key: 'auto_approved', label: 'Auto-approved', color: CHART_COLORS.accent },
  { key: 'denied', label: 'Denied', color: CHART_COLORS.bad },
  { key: 'expired', label: 'Expired', color: CHART_COLORS.muted },
  { key: 'pending', label: 'Pending', color: CHART_COLORS.warn },
];

/** A Card whose header links to the full list it summarises; `link` null where there is nothing more to see. */
function LinkedCard({
  link,
  ...card
}: Omit<ComponentProps<typeof Card>, 'actions'> & {
  link: { to: string; label: ReactNode; testId: string } | null;
}) {
  const actions = link ? (
    <Link to={link.to} className="link small" data-testid={link.testId}>
      {link.label}
    </Link>
  ) : null;
  return <Card {...card} actions={actions} />;
}

/** The header of each card whose link does not depend on what it shows: title, icon, test id, the list it opens. */
const HEADS = {
  presence: {
    title: 'Devices · last 24 hours',
    icon: 'devices',
    testId: 'ov-presence',
    link: { to: links.devices(), label: 'All devices', testId: 'ov-presence-link' },
  },
  elevations: {
    title: 'Elevations · last 7 days',
    icon: 'approvals',
    testId: 'ov-elevations',
    link: { to: links.history(), label: 'History', testId: 'ov-elevations-link' },
  },
  audit: {
    title: 'Recent activity',
    icon: 'audit',
    testId: 'ov-audit',
    link: { to: links.audit, label: 'Audit log', testId: 'ov-audit-link' },
  },
} satisfies Record<string, Omit<ComponentProps<typeof LinkedCard>, 'children'>>;

/** The height of the Overview's charts, so the two cards of a row line up. */
const CHART_HEIGHT = 190;

export function PresenceCard({ devices }: { devices: DashboardDevices }) {
  const series = useMemo(
    () => [
      {
        label: 'Online',
        color: CHART_COLORS.ok,
        points: devices.presence.map((p): [number, number] => [Date.parse(p.at), p.online]),
      },
      {
        label: 'Offline',
        color: CHART_COLORS.muted,
        points: devices.presence.map((p): [number, number] => [Date.parse(p.at), p.offline]),
      },
    ],
    [devices.presence],
  );
  return (
    <LinkedCard {...HEADS.presence}>
      <TimeSeriesChart
        series={series}
        height={CHART_HEIGHT}
        ariaLabel="Devices online and offline over the last 24 hours"
        testId="ov-presence-chart"
      />
    </LinkedCard>
  );
}

const dayLabel = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, {
    weekday: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });

export function ElevationsCard({ elevations }: { elevations: DashboardElevations }) {
  const categories = useMemo(() => elevations.perDay.map((d) => dayLabel(d.day)), [elevations.perDay]);
  const series = useMemo(
    () =>
      OUTCOMES.map((o) => ({
        label: o.label,
        color: o.color,
        values: elevations.perDay.map((d) => d[o.key]),
      })),
    [elevations.perDay],
  );
  const total = OUTCOMES.reduce((sum, o) => sum + elevations.mix[o.key], 0);
  return (
    <LinkedCard {...HEADS.elevations}>
      <BarChart
        categories={categories}
        series={series}
        stacked
        legend={false}
        height={CHART_HEIGHT}
        ariaLabel="Elevation requests per day by outcome over the last 7 days"
        testId="ov-elevations-chart"
      />
      <div className="ov-mix" data-testid="ov-mix">
        {total > 0 ? (
          <div className="ov-mix-bar" aria-hidden="true">
            {OUTCOMES.filter((o) => elevations.mix[o.key] > 0).map((o) => (
              <span
                key={o.key}
                style={{ flexGrow: elevations.mix[o.key], background: o.color }}
                title={`${o.label}: ${formatCount(elevations.mix[o.key])}`}
              />
            ))}
          </div>
        ) : null}
        <div className="ov-mix-keys">
          {OUTCOMES.map((o) => (
            <Link
              key={o.key}
              to={links.history(o.key)}
              className="ov-mix-key"
              data-testid={`ov-mix-${o.key}`}
              data-count={elevations.mix[o.key]}
            >
              <span className="ov-key" style={{ background: o.color }} aria-hidden="true" />
              {o.label}
              <span className="ov-mix-count">{formatCount(elevations.mix[o.key])}</span>
            </Link>
          ))}
        </div>
      </div>
    </LinkedCard>
  );
}

export function GrantsCard({ elevations, now }: { elevations: DashboardElevations; now: number }) {
  const { total, endingSoonest } = elevations.activeGrants;
  return (
    <LinkedCard
      title="Grants ending soonest"
      icon="clock"
      testId="ov-grant-list"
      link={
        total > endingSoonest.length
          ? { to: links.activeGrants, label: `All ${formatCount(total)}`, testId: 'ov-grant-all' }
          : null
      }
    >
      {endingSoonest.length === 0 ? (
        <div className="empty-inline">No elevation is in force right now.</div>
      ) : (
        <ul className="ov-list">
          {endingSoonest.map((g) => (
            <li key={g.id}>
              <Link to={links.request(g.id)} className="ov-row" data-testid="ov-grant-row">
                <span className={`ov-risk-dot ov-risk-${g.riskLevel}`} title={RISK_LABEL[g.riskLevel]} />
                <span className="ov-row-main">
                  <span className="ov-strong">{g.target ?? 'Elevation'}</span>
                  <span className="muted small">
                    {g.subjectUsername ? `${g.subjectUsername} · ` : ''}
                    {g.deviceHostname}
                  </span>
                </span>
                <span className="ov-row-time" title={formatDateTime(g.expiresAt)}>
                  ends {relativeTo(Date.parse(g.expiresAt), now)}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </LinkedCard>
  );
}

const actorOf = (e: AuditEntry) =>
  e.user.name ?? e.user.email ?? (e.actorType === 'system' ? 'System' : e.actorType.replace('_', ' '));

export function AuditCard({ entries }: { entries: AuditEntry[] }) {
  return (
    <LinkedCard {...HEADS.audit}>
      {entries.length === 0 ? (
        <div className="empty-inline">Nothing recorded yet.</div>
      ) : (
        <ul className="ov-list">
          {entries.map((e) => (
            <li key={e.id} className="ov-audit-row" data-testid="ov-audit-row">
              <span
                className={`ov-result tone-${RESULT_TONE[e.result]}`}
                title={e.result}
                aria-label={e.result}
              />
              <span className="ov-row-main">
                <span className="mono small ov-strong">{e.action}</span>
                <span className="muted small">
                  {actorOf(e)}
                  {e.resource.name ? ` · ${e.resource.name}` : ''}
                </span>
              </span>
              <span className="ov-row-time" title={formatDateTime(e.timestamp)}>
                {compactTime(e.timestamp)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </LinkedCard>
  );
}
