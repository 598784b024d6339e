import { useState, type FormEvent } from 'react';
import type { AgentVersion, CommandStatus, DeviceCommand, DeviceDetail } from '../../../../server/contract';
import { api } from '../../api/client';
import { ActionError } from '../../components/ActionError';
import { Dialog } from '../../components/Dialog';
import { FormButtons } from '../../components/DialogActions';
import { Icon } from '../../components/Icon';
import { Field, StatusPill } from '../../components/ui';
import { useAsyncAction } from '../../lib/action';
import { EmptyState, LoadFailure, LoadingBlock, asList, useResource } from '../tenants/admin-kit';
import { deviceName } from './format';
import { JsonBlock, Stamp } from './parts';

// Command history and the two commands a technician queues from here: uninstall the agent, and push a specific
// agent build (dev_update, which also turns auto-update off on the device). Both ask first.

const TONE: Record<CommandStatus, 'ok' | 'warn' | 'bad' | 'muted'> = {
  pending: 'muted',
  sent: 'warn',
  completed: 'ok',
  failed: 'bad',
  timeout: 'bad',
  cancelled: 'muted',
};

const PLATFORM: Record<string, string> = { windows: 'windows', macos: 'darwin', linux: 'linux' };
const ARCH: Record<string, string> = { x64: 'amd64', arm64: 'arm64' };
const CHECKSUM = /^[a-f0-9]{64}$/i;

function UninstallDialog({
  device,
  onClose,
  onQueued,
}: {
  device: DeviceDetail;
  onClose: () => void;
  onQueued: () => void;
}) {
  const [removeConfig, setRemoveConfig] = useState(false);
  const action = useAsyncAction();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void action.run(async () => {
      await api(`/devices/${device.id}/commands`, {
        method: 'POST',
        body: { type: 'self_uninstall', payload: { removeConfig } },
      });
      onQueued();
    });
  };
  return (
    <Dialog
      open
      title="Uninstall the agent"
      onClose={onClose}
      testId="command-uninstall-dialog"
      footer={
        <FormButtons
          onCancel={onClose}
          busy={action.busy}
          label="Queue uninstall"
          busyLabel="Queueing…"
          testId="command-uninstall-confirm"
          form="cmd-uninstall"
        />
      }
    >
      <form id="cmd-uninstall" className="form" onSubmit={submit}>
        <p>
          The agent on <strong>{deviceName(device)}</strong> removes itself the next time it checks in. The
          device stops reporting; its record stays here until you decommission it.
        </p>
        <label className="check">
          <input
            type="checkbox"
            checked={removeConfig}
            onChange={(e) => setRemoveConfig(e.target.checked)}
            data-testid="command-remove-config"
          />
          <span>Also delete the agent’s configuration (it cannot re-enroll without a new key)</span>
        </label>
        <ActionError error={action.error} />
      </form>
    </Dialog>
  );
}

function UpdateDialog({
  device,
  onClose,
  onQueued,
}: {
  device: DeviceDetail;
  onClose: () => void;
  onQueued: () => void;
}) {
  const versions = useResource<AgentVersion[] | { data: AgentVersion[] }>('/agent-versions');
  const platform = PLATFORM[device.osType];
  const arch = ARCH[device.architecture];
  const matching = asList(versions.data).filter((v) => v.platform === platform && v.architecture === arch);
  const [versionId, setVersionId] = useState('');
  const [url, setUrl] = useState('');
  const [checksum, setChecksum] = useState('');
  const [tried, setTried] = useState(false);
  const action = useAsyncAction();

  const pick = (id: string) => {
    setVersionId(id);
    const v = matching.find((m) => m.id === id);
    if (v) {
      setUrl(v.downloadUrl);
      setChecksum(v.checksum);
    }
  };

  const urlError =
    tried && !/^https?:\/\/\S+$/.test(url.trim()) ? 'Enter the http(s) address of the agent build.' : null;
  const sumError =
    tried && !CHECKSUM.test(checksum.trim()) ? 'The SHA-256 checksum is 64 hexadecimal characters.' : null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!/^https?:\/\/\S+$/.test(url.trim()) || !CHECKSUM.test(checksum.trim())) return;
    void action.run(async () => {
      await api(`/devices/${device.id}/commands`, {
        method: 'POST',
        body: {
          type: 'dev_update',
          payload: { downloadUrl: url.trim(), checksum: checksum.trim().toLowerCase() },
        },
      });
      onQueued();
    });
  };

  return (
    <Dialog
      open
      wide
      title="Push an agent build"
      onClose={onClose}
      testId="command-update-dialog"
      footer={
        <FormButtons
          onCancel={onClose}
          busy={action.busy}
          label="Queue update"
          busyLabel="Queueing…"
          testId="command-update-confirm"
          form="cmd-update"
        />
      }
    >
      <form id="cmd-update" className="form adm" onSubmit={submit} noValidate>
        <p className="muted">
          The agent downloads the build, verifies its checksum and restarts on it; it refuses a build whose
          checksum does not match. Auto-update is turned off on this device until you turn it back on.
        </p>
        {matching.length > 0 ? (
          <Field
            label="Registered version"
            htmlFor="command-version"
            hint={`Builds for ${platform}/${arch}.`}
          >
            <select
              id="command-version"
              value={versionId}
              onChange={(e) => pick(e.target.value)}
              data-testid="command-version"
            >
              <option value="">Enter a build by hand…</option>
              {matching.map((v) => (
                <option key={v.id} value={v.id}>
                  {v.version}
                  {v.isLatest ? ' (latest)' : ''}
                </option>
              ))}
            </select>
          </Field>
        ) : null}
        <Field label="Download URL" htmlFor="command-url" error={urlError}>
          <input
            id="command-url"
            type="url"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            className="mono"
            data-testid="command-url"
          />
        </Field>
        <Field label="SHA-256 checksum" htmlFor="command-checksum" error={sumError}>
          <input
            id="command-checksum"
            type="text"
            value={checksum}
            onChange={(e) => setChecksum(e.target.value)}
            className="mono"
            spellCheck={false}
            data-testid="command-checksum"
          />
        </Field>
        <ActionError error={action.error} />
      </form>
    </Dialog>
  );
}

export function CommandsTab({ device }: { device: DeviceDetail }) {
  const commands = useResource<DeviceCommand[] | { data: DeviceCommand[] }>(`/devices/${device.id}/commands`);
  const [dialog, setDialog] = useState<'uninstall' | 'update' | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const rows = asList(commands.data);
  const queued = () => {
    setDialog(null);
    commands.reload();
  };
  const retired = device.status === 'decommissioned';

  return (
    <div className="dv-tab" data-testid="device-commands">
      <div className="dv-filters">
        <span className="muted small">
          Commands are delivered on the agent’s live connection, or with its next heartbeat.
        </span>
        <span className="fb-grow" />
        <button type="button" className="btn btn-ghost btn-sm" onClick={commands.reload}>
          <Icon name="refresh" size={14} />
          Refresh
        </button>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          disabled={retired}
          onClick={() => setDialog('update')}
          data-testid="command-update"
        >
          <Icon name="download" size={14} />
          Push agent build…
        </button>
        <button
          type="button"
          className="btn btn-danger btn-sm"
          disabled={retired}
          onClick={() => setDialog('uninstall')}
          data-testid="command-uninstall"
        >
          <Icon name="trash" size={14} />
          Uninstall agent…
        </button>
      </div>
      {commands.error && !commands.data ? (
        <LoadFailure
          error={commands.error}
          onRetry={commands.reload}
          forbiddenTitle="Commands are not available to you"
          forbiddenText="Your account cannot read this device's commands."
        />
      ) : !commands.data ? (
        <LoadingBlock label="Loading commands…" />
      ) : rows.length === 0 ? (
        <EmptyState icon="activity" title="No commands yet" compact testId="commands-empty">
          Commands sent to this device (updates, uninstall, live queries) are listed here with their results.
        </EmptyState>
      ) : (
        <div className="adm-table-card">
          <div className="dv-log">
            <div className="dv-log-row dv-log-head dv-cmd">
              <span>Queued</span>
              <span>Type</span>
              <span>Status</span>
              <span>Sent</span>
              <span>Completed</span>
              <span>Result</span>
            </div>
            {rows.map((c) => (
              <div key={c.id} className={`dv-log-entry${open === c.id ? ' open' : ''}`}>
                <button
                  type="button"
                  className="dv-log-row dv-cmd"
                  onClick={() => setOpen(open === c.id ? null : c.id)}
                  data-testid="command-row"
                >
                  <Stamp iso={c.createdAt} />
                  <span className="mono">{c.type}</span>
                  <span>
                    <StatusPill tone={TONE[c.status]}>{c.status}</StatusPill>
                  </span>
                  <Stamp iso={c.sentAt} />
                  <Stamp iso={c.completedAt} />
                  <span className={`dv-ellipsis${c.error ? ' tone-bad' : ''}`}>
                    {c.error ??
                      (c.result === null || c.result === undefined ? '—' : JSON.stringify(c.result))}
                  </span>
                </button>
                {open === c.id ? (
                  <div className="dv-log-detail">
                    <div className="dv-live-section">Payload</div>
                    <JsonBlock value={c.payload} />
                    {c.result !== null && c.result !== undefined ? (
                      <>
                        <div className="dv-live-section">Result</div>
                        <JsonBlock value={c.result} />
                      </>
                    ) : null}
                    {c.error ? <div className="tone-bad">{c.error}</div> : null}
                  </div>
                ) : null}
              </div>
            ))}
          </div>
        </div>
      )}
      {dialog === 'uninstall' ? (
        <UninstallDialog device={device} onClose={() => setDialog(null)} onQueued={queued} />
      ) : null}
      {dialog === 'update' ? (
        <UpdateDialog device={device} onClose={() => setDialog(null)} onQueued={queued} />
      ) : null}
    </div>
  );
}
