import { useState, type FormEvent } from 'react';
import {
  MAX_SIMULATED_AGENTS,
  type SimulatedElevationKind,
  type SimulatorElevationResponse,
  type SimulatorStatus,
} from '../../../../server/contract';
import { simulatorApi, useSimulatorStatus as useStatus } from './api';
import { ActionError } from '../../ui/ActionError';
import { Icon } from '../../ui/Icon';
import { StatusPill } from '../../ui/basics';
import { useAsyncAction } from '../../lib/action';
import { ChoiceSelect, LabelOptions, nameChoices } from '../../ui';
import { ago } from './format';
import { formatCount } from '../../lib/format';
import { useNow } from '../../lib/hooks';
import { SmallButton } from '../../ui/SmallButton';

// Demo mode only: the bundled agent simulator, started and stopped from the console. Hidden entirely when the
// server says the simulator is not available (not a demo server) or the endpoint is missing.

const POLL_MS = 3000;
/** The server's cap on simulated agents (MAX_SIMULATED_AGENTS). */

const RAISE_KINDS: Array<{ value: SimulatedElevationKind; label: string }> = [
  { value: 'signed_installer', label: 'Signed installer (Zoom, Chrome …)' },
  { value: 'unsigned_tool', label: 'Unsigned tool from Downloads' },
  { value: 'admin_console', label: 'Technician admin console' },
  { value: 'ai_tool', label: 'AI tool action' },
  { value: 'ai_tool_critical', label: 'AI tool action (critical)' },
];

const RAISE_STATUS: Record<SimulatorElevationResponse['status'], string> = {
  pending: 'pending — waiting for a technician',
  auto_approved: 'auto-approved by a rule',
  denied: 'denied',
  ignored: 'ignored by a rule (no request recorded)',
};

export function useSimulatorStatus(): { status: SimulatorStatus | null; refresh: () => void } {
  return useStatus(POLL_MS);
}

export function SimulatorPanel({
  status,
  orgs,
  onChanged,
}: {
  status: SimulatorStatus;
  orgs: Array<{ id: string; name: string }>;
  onChanged: () => void;
}) {
  const [orgId, setOrgId] = useState(status.orgId ?? '');
  const [open, setOpen] = useState(() => localStorage.getItem('gatehouse.simPanel') !== 'closed');
  const [count, setCount] = useState(String(status.agents > 0 ? status.agents : 40));
  const action = useAsyncAction();
  const raise = useAsyncAction();
  const [kind, setKind] = useState<SimulatedElevationKind>('signed_installer');
  const [raised, setRaised] = useState<SimulatorElevationResponse | null>(null);
  const now = useNow(5000);

  const toggle = () => {
    setOpen((o) => {
      localStorage.setItem('gatehouse.simPanel', o ? 'closed' : 'open');
      return !o;
    });
  };

  const n = Number(count);
  const countError =
    count.trim() === '' || !Number.isInteger(n) || n < 1 || n > MAX_SIMULATED_AGENTS
      ? `Between 1 and ${formatCount(MAX_SIMULATED_AGENTS)} agents.`
      : null;

  const start = (e: FormEvent) => {
    e.preventDefault();
    if (countError) return;
    void action.run(async () => {
      await simulatorApi.start(orgId ? { count: n, orgId } : { count: n });
      onChanged();
    });
  };
  const stats: Array<[string, string, string?]> = [
    ['Agents', formatCount(status.agents), 'simulator-agents'],
    ['Enrolled', formatCount(status.enrolled)],
    ['Connected', formatCount(status.connected), 'simulator-connected'],
    ['Heartbeats', formatCount(status.heartbeats), 'simulator-heartbeats'],
    ['Started', status.startedAt ? ago(status.startedAt, now) : '—'],
  ];
  const raiseRequest = (e: FormEvent) => {
    e.preventDefault();
    void raise.run(async () => {
      setRaised(null);
      const body = status.orgId ? { kind, orgId: status.orgId } : { kind };
      setRaised(await simulatorApi.raiseElevation(body));
      onChanged();
    });
  };
  const elevation = status.elevation;
  if (elevation && elevation.raised > 0) {
    stats.push(
      ['Elevation requests', formatCount(elevation.raised), 'simulator-elevations'],
      ['Grants active', formatCount(elevation.grantsActive), 'simulator-grants'],
    );
  }
  const stop = () =>
    void action.run(async () => {
      await simulatorApi.stop();
      onChanged();
    });

  return (
    <section className={`dv-sim${open ? ' open' : ''}`} data-testid="simulator-panel">
      <button
        type="button"
        className="dv-sim-head"
        onClick={toggle}
        aria-expanded={open}
        data-testid="simulator-toggle"
      >
        <Icon name="activity" size={15} />
        <span className="dv-sim-title">Agent simulator</span>
        <span className="badge adm-badge-muted">demo</span>
        {status.running ? (
          <StatusPill tone="ok" testId="simulator-state">
            Running · {formatCount(status.connected)}/{formatCount(status.agents)} connected
          </StatusPill>
        ) : (
          <StatusPill tone="muted" testId="simulator-state">
            Stopped
          </StatusPill>
        )}
        <span className="fb-grow" />
        <Icon name="chevron" size={14} className={open ? 'dv-chev open' : 'dv-chev'} />
      </button>
      {open ? (
        <div className="dv-sim-body">
          <dl className="dv-sim-stats">
            {stats.map(([label, value, testId]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd data-testid={testId}>{value}</dd>
              </div>
            ))}
            {status.running && status.orgId ? (
              <div>
                <dt>Organization</dt>
                <dd className="dv-sim-org">{orgs.find((o) => o.id === status.orgId)?.name ?? '—'}</dd>
              </div>
            ) : null}
          </dl>
          <form className="dv-sim-actions" onSubmit={start}>
            <ChoiceSelect
              value={orgId}
              onChange={setOrgId}
              ariaLabel="Organization the agents enroll into"
              emptyLabel="Default organization"
              options={nameChoices(orgs)}
              testId="simulator-org"
            />
            <label htmlFor="simulator-count" className="muted small">
              Agents
            </label>
            <input
              id="simulator-count"
              type="text"
              inputMode="numeric"
              className={`dv-sim-count${countError ? ' invalid' : ''}`}
              value={count}
              onChange={(e) => setCount(e.target.value.replace(/[^\d]/g, ''))}
              aria-invalid={countError !== null}
              title={countError ?? undefined}
              data-testid="simulator-count"
            />
            <SmallButton
              tone="primary"
              submit
              disabled={action.busy || countError !== null}
              title={status.running ? 'Replaces the running fleet' : undefined}
              testId="simulator-start"
            >
              {status.running ? 'Restart' : 'Start'}
            </SmallButton>
            <SmallButton
              tone="secondary"
              disabled={action.busy || !status.running}
              onClick={stop}
              testId="simulator-stop"
            >
              Stop
            </SmallButton>
          </form>
          <form className="dv-sim-actions" onSubmit={raiseRequest} aria-label="Raise elevation request">
            <select
              value={kind}
              onChange={(e) => setKind(e.target.value as SimulatedElevationKind)}
              aria-label="Kind of elevation request"
              data-testid="sim-raise-kind"
            >
              <LabelOptions options={RAISE_KINDS} />
            </select>
            <SmallButton
              tone="secondary"
              submit
              disabled={raise.busy || !status.running}
              title={
                status.running ? 'A connected simulated agent reports this request' : 'Start the fleet first'
              }
              testId="sim-raise"
            >
              Raise elevation request
            </SmallButton>
            {raised ? (
              <span className="muted small" role="status" data-testid="sim-raise-result">
                {raised.hostname}: {RAISE_STATUS[raised.status]}
              </span>
            ) : null}
          </form>
          <ActionError error={raise.error} />
          {status.lastError ? (
            <div className="fb-problem small" data-testid="simulator-error">
              Last error: {status.lastError}
            </div>
          ) : null}
          <ActionError error={action.error} />
        </div>
      ) : null}
    </section>
  );
}
