import { useState, type FormEvent, type ReactNode } from 'react';
import type { CommandStatus, DeviceDetail } from '../../../../server/contract';
import { devicesApi, useAgentVersions, useDeviceCommands, type DeviceCommandBody } from './api';
import { FormDialog } from '../../ui/FormDialog';
import { SmallButton } from '../../ui/SmallButton';
import { Field, StatusPill } from '../../ui/basics';
import { CodeField } from '../../ui/fields';
import { useAsyncAction } from '../../lib/action';
import { useDialog } from '../../lib/hooks';
import { Check, ChoiceSelect, type DialogProps } from '../../ui';
import { deviceName } from './format';
import { LogTab, type LogKind } from './LogTable';
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

/**
 * The commands queued from this tab, each through its dialog (`command-<kind>` opens `command-<kind>-dialog`,
 * whose submit is `command-<kind>-confirm`), in the order of their buttons.
 */
const COMMANDS = {
  update: {
    label: 'Push agent build…',
    icon: 'download',
    tone: 'secondary',
    title: 'Push an agent build',
    submit: 'Queue update',
  },
  uninstall: {
    label: 'Uninstall agent…',
    icon: 'trash',
    tone: 'danger',
    title: 'Uninstall the agent',
    submit: 'Queue uninstall',
  },
} as const;
type CommandKind = keyof typeof COMMANDS;
const QUEUEABLE: CommandKind[] = ['update', 'uninstall'];
const COMMAND_LOG: LogKind = {
  testId: 'device-commands',
  subject: { name: 'commands' },
  variant: 'dv-cmd',
  columns: ['Queued', 'Type', 'Status', 'Sent', 'Completed', 'Result'],
  rowTestId: 'command-row',
  empty: {
    title: 'No commands yet',
    text: 'Commands sent to this device (updates, uninstall, live queries) are listed here with their results.',
    testId: 'commands-empty',
    icon: 'activity',
  },
};

interface CommandDialogProps extends DialogProps {
  device: DeviceDetail;
}

/** Queues one command for the device, then tells the tab; `action` carries busy and the error. */
function useQueueCommand({ device, onDone }: CommandDialogProps) {
  const action = useAsyncAction();
  const queue = (command: DeviceCommandBody) =>
    void action.run(async () => {
      await devicesApi.command(device.id, command);
      onDone();
    });
  return { action, queue };
}

/** The frame both command dialogs share: titled and labelled from QUEUEABLE, the queueing action's state. */
function CommandDialog({
  kind,
  wide,
  onClose,
  onSubmit,
  action,
  children,
}: {
  kind: CommandKind;
  wide?: boolean;
  onClose: () => void;
  onSubmit: (e: FormEvent) => void;
  action: { busy: boolean; error: unknown };
  children: ReactNode;
}) {
  const command = COMMANDS[kind];
  return (
    <FormDialog
      wide={wide}
      title={command.title}
      onClose={onClose}
      testId={`command-${kind}-dialog`}
      formClassName="form adm"
      onSubmit={onSubmit}
      action={action}
      submit={{ label: command.submit, busyLabel: 'Queueing…', testId: `command-${kind}-confirm` }}
    >
      {children}
    </FormDialog>
  );
}

function UninstallDialog(props: CommandDialogProps) {
  const { device, onClose } = props;
  const [removeConfig, setRemoveConfig] = useState(false);
  const { action, queue } = useQueueCommand(props);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    queue({ type: 'self_uninstall', payload: { removeConfig } });
  };
  return (
    <CommandDialog kind="uninstall" onClose={onClose} onSubmit={submit} action={action}>
      <p>
        The agent on <strong>{deviceName(device)}</strong> removes itself the next time it checks in. The
        device stops reporting; its record stays here until you decommission it.
      </p>
      <Check checked={removeConfig} onChange={setRemoveConfig} testId="command-remove-config">
        Also delete the agent’s configuration (it cannot re-enroll without a new key)
      </Check>
    </CommandDialog>
  );
}

function UpdateDialog(props: CommandDialogProps) {
  const { device, onClose } = props;
  const versions = useAgentVersions();
  const platform = PLATFORM[device.osType];
  const arch = ARCH[device.architecture];
  const matching = (versions.data ?? []).filter((v) => v.platform === platform && v.architecture === arch);
  const [versionId, setVersionId] = useState('');
  const [url, setUrl] = useState('');
  const [checksum, setChecksum] = useState('');
  const [tried, setTried] = useState(false);
  const { action, queue } = useQueueCommand(props);

  const pick = (id: string) => {
    setVersionId(id);
    const v = matching.find((m) => m.id === id);
    if (v) {
      setUrl(v.downloadUrl);
      setChecksum(v.checksum);
    }
  };

  const urlOk = /^https?:\/\/\S+$/.test(url.trim());
  const sumOk = CHECKSUM.test(checksum.trim());
  const urlError = tried && !urlOk ? 'Enter the http(s) address of the agent build.' : null;
  const sumError = tried && !sumOk ? 'The SHA-256 checksum is 64 hexadecimal characters.' : null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!urlOk || !sumOk) return;
    queue({
      type: 'dev_update',
      payload: { downloadUrl: url.trim(), checksum: checksum.trim().toLowerCase() },
    });
  };

  return (
    <CommandDialog kind="update" wide onClose={onClose} onSubmit={submit} action={action}>
      <p className="muted">
        The agent downloads the build, verifies its checksum and restarts on it; it refuses a build whose
        checksum does not match. Auto-update is turned off on this device until you turn it back on.
      </p>
      {matching.length > 0 ? (
        <Field label="Registered version" htmlFor="command-version" hint={`Builds for ${platform}/${arch}.`}>
          <ChoiceSelect
            id="command-version"
            value={versionId}
            onChange={pick}
            emptyLabel="Enter a build by hand…"
            options={matching.map((v) => ({
              value: v.id,
              label: `${v.version}${v.isLatest ? ' (latest)' : ''}`,
            }))}
            testId="command-version"
          />
        </Field>
      ) : null}
      {/* Both are strings a machine reads: monospace, no autofill or spell check. */}
      {[
        {
          id: 'command-url',
          label: 'Download URL',
          type: 'url',
          value: url,
          onChange: setUrl,
          error: urlError,
        },
        {
          id: 'command-checksum',
          label: 'SHA-256 checksum',
          value: checksum,
          onChange: setChecksum,
          error: sumError,
        },
      ].map((field) => (
        <CodeField key={field.id} {...field} />
      ))}
    </CommandDialog>
  );
}

export function CommandsTab({ device }: { device: DeviceDetail }) {
  const commands = useDeviceCommands(device.id);
  const dialog = useDialog<CommandKind>();
  const rows = commands.data ?? [];
  const retired = device.status === 'decommissioned';

  // The dialogs are modal <dialog>s in the top layer: where they sit in the tree does not move them.
  return (
    <>
      <LogTab
        kind={COMMAND_LOG}
        filters={
          <>
            <span className="muted small">
              Commands are delivered on the agent’s live connection, or with its next heartbeat.
            </span>
            <span className="fb-grow" />
            <SmallButton tone="ghost" icon="refresh" onClick={commands.reload}>
              Refresh
            </SmallButton>
            {QUEUEABLE.map((kind) => (
              <SmallButton
                key={kind}
                tone={COMMANDS[kind].tone}
                icon={COMMANDS[kind].icon}
                disabled={retired}
                onClick={() => dialog.open(kind)}
                testId={`command-${kind}`}
              >
                {COMMANDS[kind].label}
              </SmallButton>
            ))}
          </>
        }
        of={commands}
        rows={rows}
        row={(c) => {
          const hasResult = c.result !== null && c.result !== undefined;
          return {
            detail: (
              <>
                <div className="dv-live-section">Payload</div>
                <JsonBlock value={c.payload} />
                {hasResult ? (
                  <>
                    <div className="dv-live-section">Result</div>
                    <JsonBlock value={c.result} />
                  </>
                ) : null}
                {c.error ? <div className="tone-bad">{c.error}</div> : null}
              </>
            ),
            cells: (
              <>
                <Stamp iso={c.createdAt} />
                <span className="mono">{c.type}</span>
                <span>
                  <StatusPill tone={TONE[c.status]}>{c.status}</StatusPill>
                </span>
                <Stamp iso={c.sentAt} />
                <Stamp iso={c.completedAt} />
                <span className={`dv-ellipsis${c.error ? ' tone-bad' : ''}`}>
                  {c.error ?? (hasResult ? JSON.stringify(c.result) : '—')}
                </span>
              </>
            ),
          };
        }}
      />
      {dialog.value === 'uninstall' ? (
        <UninstallDialog device={device} {...dialog.props(commands.reload)} />
      ) : null}
      {dialog.value === 'update' ? <UpdateDialog device={device} {...dialog.props(commands.reload)} /> : null}
    </>
  );
}
