import type { AgentVersion } from '../../../../server/contract';
import { formatCount, formatDate } from '../../lib/format';
import { useDocumentTitle } from '../../lib/hooks';
import { Link } from '../../lib/router';
import { AdminTable, EmptyState, LoadState, PageHeader } from '../../ui';
import { StatusPill } from '../../ui/basics';
import { runningVersion, useAgentVersions, useVersionCounts } from './api';
import './agent-versions.css';

// /agent-versions — the registered agent builds (newest first; the latest of each platform and architecture is
// what heartbeats offer as an upgrade) and how many devices in the caller's scope run each version, each count
// opening the device list filtered to it.

const PLATFORM: Record<AgentVersion['platform'], string> = {
  windows: 'Windows',
  darwin: 'macOS',
  linux: 'Linux',
};
const SOURCE: Record<AgentVersion['source'], string> = {
  scan: 'Bundled',
  manual: 'Registered',
  github: 'Release feed',
};

function megabytes(bytes: number | null): string {
  return bytes === null ? '—' : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function AgentVersionsPage() {
  useDocumentTitle('Agent versions');
  const list = useAgentVersions();
  const builds = list.data?.data ?? null;
  const versions = builds ? [...new Set(builds.map((b) => b.version))] : null;
  const counts = useVersionCounts(versions);
  const byVersion = counts.data?.byVersion;
  const onKnown = byVersion ? Object.values(byVersion).reduce((a, b) => a + b, 0) : 0;
  const others = counts.data ? counts.data.all - onKnown : null;

  return (
    <div className="page adm av" data-testid="agent-versions-page">
      <PageHeader
        title="Agent versions"
        sub="Registered agent builds; agents with auto-update move to the latest build of their platform"
      />
      {counts.data ? (
        <p className="av-summary" data-testid="agent-versions-summary">
          <strong>{formatCount(counts.data.all)}</strong> devices in your scope
          {others ? (
            <>
              {' · '}
              <strong>{formatCount(others)}</strong> on a version not registered here
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
        <EmptyState icon="server" title="No agent builds registered" testId="agent-versions-empty">
          A system administrator registers builds, or the server finds them in its agent directory at start.
        </EmptyState>
      ) : (
        <AdminTable
          testId="agent-versions"
          columns={['Version', 'Platform', 'Source', 'Size', 'Registered', 'Devices on this version']}
        >
          {builds.map((b) => (
            <tr key={b.id} data-testid="agent-version-row">
              <td>
                <span className="mono av-version">{b.version}</span>
                {b.isLatest ? (
                  <StatusPill tone="ok" testId="agent-version-latest">
                    Latest
                  </StatusPill>
                ) : null}
              </td>
              <td>
                {PLATFORM[b.platform]} <span className="muted mono">{b.architecture}</span>
              </td>
              <td className="muted">{SOURCE[b.source]}</td>
              <td className="muted">{megabytes(b.sizeBytes)}</td>
              <td className="muted">{formatDate(b.createdAt)}</td>
              <td>
                {byVersion ? (
                  <Link
                    to={`/devices?conditions=${encodeURIComponent(runningVersion(b.version))}`}
                    data-testid="agent-version-devices"
                  >
                    {formatCount(byVersion[b.version] ?? 0)}
                  </Link>
                ) : (
                  <span className="muted">…</span>
                )}
              </td>
              <td />
            </tr>
          ))}
        </AdminTable>
      )}
    </div>
  );
}
