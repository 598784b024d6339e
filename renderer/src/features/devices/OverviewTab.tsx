import { useState, type FormEvent, type ReactNode } from 'react';
import type { DeviceDetail } from '../../../../server/contract';
import { devicesApi } from './api';
import { ActionError } from '../../ui/ActionError';
import { Card, Facts } from '../../ui/basics';
import { FactsCard, type FactRow } from '../../ui/FactsCard';
import { useAsyncAction } from '../../lib/action';
import { formatDateTime } from '../../lib/format';
import { useNow } from '../../lib/hooks';
import { ChipInput } from '../filters';
import { ROLE_OPTIONS } from '../filters';
import { OS_LABEL, STATUS_LABEL, ago, gigabytes, megabytes, uptime } from './format';
import { MetricBar } from './parts';
import { SmallButton } from '../../ui/SmallButton';

// Inventory and state as the agent last reported them; display name and tags are the technician's to edit.

const TAG_MAX = 100;

function yesNo(value: boolean | null, yes = 'Yes', no = 'No'): ReactNode {
  if (value === null) return <span className="muted">—</span>;
  return value ? yes : no;
}

function text(value: string | number | null | undefined): ReactNode {
  if (value === null || value === undefined || value === '') return <span className="muted">—</span>;
  return value;
}

function mono(value: string | null | undefined): ReactNode {
  if (!value) return <span className="muted">—</span>;
  return <span className="mono">{value}</span>;
}

// The inventory cards' rows, as the agent last reported them.

function systemFacts(d: DeviceDetail): FactRow[] {
  const role = ROLE_OPTIONS.find((r) => r.value === d.deviceRole)?.label ?? d.deviceRole;
  return [
    ['Hostname', mono(d.hostname)],
    ['Operating system', `${OS_LABEL[d.osType]} · ${d.osVersion}`],
    ['Build', text(d.osBuild)],
    ['Architecture', d.architecture],
    ['Role', role],
    ['Headless', yesNo(d.isHeadless)],
    [
      'Agent',
      <span key="a" className="mono">
        {d.agentVersion}
      </span>,
    ],
    ['Auto-update', d.autoUpdate ? 'On' : 'Off (developer build)'],
    ['Enrolled', formatDateTime(d.enrolledAt)],
    ['Agent id', mono(d.agentId)],
  ];
}

const hardwareFacts = (hw: DeviceDetail['hardware']): FactRow[] => [
  ['Manufacturer', text(hw.manufacturer)],
  ['Model', text(hw.model)],
  ['Serial', mono(hw.serialNumber)],
  ['CPU', text(hw.cpuModel)],
  ['Cores', text(hw.cpuCores)],
  ['RAM', megabytes(hw.ramTotalMb)],
  ['Disk', gigabytes(hw.diskTotalGb)],
  ['GPU', text(hw.gpuModel)],
];

const networkFacts = (d: DeviceDetail): FactRow[] => [
  ['IP address', mono(d.network.ipAddress)],
  ['Public IP', mono(d.network.publicIp)],
  ['MAC address', mono(d.network.macAddress)],
  ['Last seen from', mono(d.lastSeenIp)],
];

function LabelsCard({ device, onSaved }: { device: DeviceDetail; onSaved: () => void }) {
  const [displayName, setDisplayName] = useState(device.displayName ?? '');
  const [tags, setTags] = useState<string[]>(device.tags);
  const [done, setDone] = useState(false);
  const action = useAsyncAction();
  const dirty =
    (displayName.trim() || null) !== (device.displayName ?? null) ||
    JSON.stringify([...tags].sort()) !== JSON.stringify([...device.tags].sort());
  const tooLong = tags.find((t) => t.length > TAG_MAX);
  const nameTooLong = displayName.trim().length > 255;

  const save = (e: FormEvent) => {
    e.preventDefault();
    if (!dirty || tooLong || nameTooLong) return;
    setDone(false);
    void action.run(async () => {
      await devicesApi.update(device.id, {
        displayName: displayName.trim() ? displayName.trim() : null,
        tags,
      });
      setDone(true);
      onSaved();
    });
  };

  return (
    <Card title="Name and tags" icon="edit" testId="device-labels">
      <form className="form" onSubmit={save}>
        <div className={`field${nameTooLong ? ' has-error' : ''}`}>
          <label htmlFor="device-display-name">Display name</label>
          <input
            id="device-display-name"
            type="text"
            value={displayName}
            placeholder={device.hostname}
            onChange={(e) => {
              setDisplayName(e.target.value);
              setDone(false);
            }}
            data-testid="device-display-name"
          />
          {nameTooLong ? (
            <div className="field-error">At most 255 characters.</div>
          ) : (
            <div className="field-hint">Shown instead of the hostname in lists. Empty: use the hostname.</div>
          )}
        </div>
        <div className={`field${tooLong ? ' has-error' : ''}`}>
          <label htmlFor="device-tags-input">Tags</label>
          <div className="dv-tags-edit">
            <ChipInput
              values={tags}
              onChange={(v) => {
                setTags(v);
                setDone(false);
              }}
              placeholder="Type a tag, press Enter"
              testId="device-tags"
              ariaLabel="Tags"
              invalid={Boolean(tooLong)}
            />
          </div>
          {tooLong ? <div className="field-error">A tag has at most {TAG_MAX} characters.</div> : null}
        </div>
        <div className="row gap-sm">
          <SmallButton
            tone="primary"
            submit
            disabled={!dirty || action.busy || Boolean(tooLong) || nameTooLong}
            testId="device-save"
          >
            {action.busy ? 'Saving…' : 'Save'}
          </SmallButton>
          {dirty ? (
            <SmallButton
              tone="ghost"
              onClick={() => {
                setDisplayName(device.displayName ?? '');
                setTags(device.tags);
              }}
            >
              Undo changes
            </SmallButton>
          ) : done ? (
            <span className="tone-ok small" data-testid="device-saved">
              Saved.
            </span>
          ) : null}
        </div>
        <ActionError error={action.error} />
      </form>
    </Card>
  );
}

export function OverviewTab({ device: d, onSaved }: { device: DeviceDetail; onSaved: () => void }) {
  const now = useNow(10_000);
  const posture = d.managementPosture ?? [];
  const custom = Object.entries(d.customFields);

  // Cards flow in columns (as many as fit), most-used first: state, then labels, then inventory.
  return (
    <div className="dv-overview" data-testid="device-overview">
      <Card title="State" icon="activity" testId="device-state">
        <div className="dv-meters">
          <MetricBar label="CPU" value={d.metrics.cpuPercent} testId="device-cpu" />
          <MetricBar label="RAM" value={d.metrics.ramPercent} testId="device-ram" />
          <MetricBar label="Disk" value={d.metrics.diskPercent} testId="device-disk" />
        </div>
        <Facts
          rows={[
            ['Status', STATUS_LABEL[d.status]],
            [
              'Health',
              <span
                key="h"
                className={d.health === 'ok' ? 'tone-ok' : d.health === 'warning' ? 'tone-warn' : 'tone-bad'}
              >
                {d.health}
              </span>,
            ],
            [
              'Last seen',
              d.lastSeenAt ? `${ago(d.lastSeenAt, now)} · ${formatDateTime(d.lastSeenAt)}` : 'Never',
            ],
            ['Uptime', uptime(d.uptimeSeconds)],
            [
              'Reboot required',
              d.rebootRequired ? (
                <span key="r" className="tone-warn">
                  Yes
                </span>
              ) : (
                yesNo(d.rebootRequired)
              ),
              'device-reboot',
            ],
            ['Last user', text(d.lastUser)],
            ['Watchdog', text(d.watchdogStatus)],
          ]}
        />
      </Card>
      <LabelsCard device={d} onSaved={onSaved} />
      <FactsCard title="System" icon="server" testId="device-system" rows={systemFacts(d)} />
      <FactsCard title="Hardware" icon="devices" testId="device-hardware" rows={hardwareFacts(d.hardware)} />
      <FactsCard title="Network" icon="activity" testId="device-network" rows={networkFacts(d)} />
      <Card title="Management posture" icon="lock" testId="device-posture">
        {posture.length === 0 ? (
          <div className="muted small">
            {d.postureReportedAt
              ? 'No remote-management products found on the last scan.'
              : 'No posture reported yet.'}
          </div>
        ) : (
          <ul className="dv-posture">
            {posture.map((p) => (
              <li key={p.product}>
                <span>{p.product}</span>
                <span className="muted">{p.status}</span>
              </li>
            ))}
          </ul>
        )}
        {d.postureReportedAt ? (
          <div className="muted small">Reported {ago(d.postureReportedAt, now)}</div>
        ) : null}
      </Card>
      {custom.length > 0 ? (
        <FactsCard
          title="Custom fields"
          icon="settings"
          testId="device-custom"
          rows={custom.map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])}
        />
      ) : null}
    </div>
  );
}
