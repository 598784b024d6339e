import { useState } from 'react';
import type { AgentVersion } from '../../../../server/contract';
import { formatCount, formatDate } from '../../lib/format';
import { useDocumentTitle } from '../../lib/hooks';
import { Link } from '../../lib/router';
import { useScope } from '../../lib/session';
import { AdminTable, BarList, EmptyState, LoadState, PageHeader, SmallButton, CreateButton } from '../../ui';
import { StatusPill } from '../../ui/basics';
import { fleetAdoption, OS_LABEL, percentOf, type FleetAdoption } from './adoption';
import { runningVersion, useAdoption, useAgentVersions } from './api';
import { PLATFORM_LABEL, rolloutLabel, SOURCE_LABEL } from './labels';
import { RegisterVersionDialog } from './RegisterVersionDialog';
import { RolloutDialog } from './RolloutDialog';
import './agent-versions.css';

// /agent-versions — the registered agent builds (newest first; the latest of each platform and architecture is
// what heartbeats offer, within its staged rollout), how many devices in the caller's scope run each build and
// what share of their platform that is, each count opening the device list filtered to it. Platform
// administrators register builds and set each version's rollout here.

export function AgentVersionsPage() {
  useDocumentTitle('Agent versions');
  const admin = useScope() === 'system';
  const list = useAgentVersions();
  const facets = useAdoption();
  const builds = list.data?.data ?? null;
  const adoption = builds && facets.data ? fleetAdoption(builds, facets.data) : null;
  const [registering, setRegistering] = useState(false);
  const [staging, setStaging] = useState<AgentVersion | null>(null);

  const registerButton = (
    <CreateButton allowed={admin} onClick={() => setRegistering(true)} testId="register-version">
      Register version
    </CreateButton>
  );

  return (
    <div className="page adm av" data-testid="agent-versions-page">
      <PageHeader
        title="Agent versions"
        sub="Registered agent builds; agents with auto-update move to the latest build of their platform as its rollout reaches them"
        actions={registerButton}
      />
      {adoption ? (
        <p className="av-summary" data-testid="agent-versions-summary">
          <strong>{formatCount(adoption.total)}</strong> devices in your scope
          {adoption.unregistered ? (
            <>
              {' · '}
              <strong>{formatCount(adoption.unregistered)}</strong> on a build not registered here
            </>
          ) : null}
        </p>
      ) : null}
      {!builds ? (
        <LoadState
          of={list}
          loading="Loading agent versions…"
          forbidden={{
            title: 'Agent versions are not available to you',
            text: 'Your role cannot read them.',
          }}
        />
      ) : builds.length === 0 ? (
        <EmptyState
          icon="server"
          title="No agent builds registered"
          testId="agent-versions-empty"
          action={registerButton}
        >
          A platform administrator registers builds, or the server finds them in its agent directory at start.
        </EmptyState>
      ) : (
        <AdminTable
          testId="agent-versions"
          columns={[
            'Version',
            'Platform',
            'Source',
            'Registered',
            'Rollout',
            'Devices on this build',
            'Adoption',
          ]}
        >
          {builds.map((b) => (
            <BuildRow key={b.id} build={b} adoption={adoption} admin={admin} onStage={() => setStaging(b)} />
          ))}
        </AdminTable>
      )}
      {facets.data?.facets.agentBuild?.length ? (
        <section className="av-running" data-testid="agent-builds-running">
          <h2 className="av-running-title">Running in your fleet</h2>
          <BarList
            label="Devices per agent build"
            unit="devices"
            rows={facets.data.facets.agentBuild.map((c) => ({
              key: `${c.value} ${c.osType} ${c.architecture}`,
              label: c.value,
              sub: `${OS_LABEL[c.osType]} ${c.architecture}`,
              value: c.count,
            }))}
          />
        </section>
      ) : null}
      {registering ? <RegisterVersionDialog onClose={() => setRegistering(false)} /> : null}
      {staging ? (
        <RolloutDialog
          version={staging.version}
          current={staging.rolloutPercent}
          onClose={() => setStaging(null)}
        />
      ) : null}
    </div>
  );
}

function BuildRow({
  build: b,
  adoption,
  admin,
  onStage,
}: {
  build: AgentVersion;
  adoption: FleetAdoption | null;
  admin: boolean;
  onStage: () => void;
}) {
  const counts = adoption?.of(b) ?? null;
  const share = counts ? percentOf(counts.devices, counts.platformDevices) : 0;
  return (
    <tr
      data-testid="agent-version-row"
      data-version={b.version}
      data-platform={`${b.platform}/${b.architecture}`}
    >
      <td>
        <span className="mono av-version">{b.version}</span>
        {b.isLatest ? (
          <StatusPill tone="ok" testId="agent-version-latest">
            Latest
          </StatusPill>
        ) : null}
      </td>
      <td>
        {PLATFORM_LABEL[b.platform]} <span className="muted mono">{b.architecture}</span>
      </td>
      <td className="muted">{SOURCE_LABEL[b.source]}</td>
      <td className="muted">{formatDate(b.createdAt)}</td>
      <td className="nowrap">
        <span
          className={b.rolloutPercent <= 0 ? 'tone-warn' : b.rolloutPercent < 100 ? '' : 'muted'}
          data-testid="agent-version-rollout"
        >
          {rolloutLabel(b.rolloutPercent)}
        </span>
        {admin && b.isLatest ? (
          <SmallButton tone="ghost" onClick={onStage} testId="agent-version-stage">
            Change
          </SmallButton>
        ) : null}
      </td>
      <td className="num">
        {counts ? (
          <Link
            to={`/devices?conditions=${encodeURIComponent(runningVersion(b.version))}`}
            data-testid="agent-version-devices"
          >
            {formatCount(counts.devices)}
          </Link>
        ) : (
          <span className="muted">…</span>
        )}
      </td>
      <td>
        {counts && counts.platformDevices > 0 ? (
          <div
            className="av-adoption"
            title={`${formatCount(counts.devices)} of ${formatCount(counts.platformDevices)} ${PLATFORM_LABEL[b.platform]} ${b.architecture} devices`}
            data-testid="agent-version-adoption"
          >
            <span className="av-adoption-track">
              <span className="av-adoption-fill" style={{ width: `${share}%` }} />
            </span>
            <span className="av-adoption-pct">{share} %</span>
          </div>
        ) : (
          <span className="muted">—</span>
        )}
      </td>
    </tr>
  );
}
