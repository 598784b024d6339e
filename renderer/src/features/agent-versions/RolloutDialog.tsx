import { useState, type FormEvent } from 'react';
import { useAsyncAction } from '../../lib/action';
import { FormDialog, SmallButton, TextField, type DialogProps } from '../../ui';
import { agentVersionsApi, refreshAgentVersions } from './api';

// Stage a version: the share of eligible devices (auto-update on, on an older version of the platform) whose
// heartbeat is offered it. Devices are chosen stably, so widening the share only adds devices; 0 pauses it.

const PRESETS = [0, 10, 25, 50, 100];

export function RolloutDialog({
  version,
  current,
  onClose,
}: { version: string; current: number } & Pick<DialogProps, 'onClose'>) {
  const [text, setText] = useState(String(current));
  const save = useAsyncAction();
  const percent = Number(text);
  const valid = text.trim() !== '' && Number.isInteger(percent) && percent >= 0 && percent <= 100;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (save.busy || !valid) return;
    void save.run(async () => {
      await agentVersionsApi.setRollout(version, percent);
      await refreshAgentVersions();
      onClose();
    });
  };

  return (
    <FormDialog
      title={`Roll out ${version}`}
      onClose={onClose}
      testId="rollout-dialog"
      onSubmit={onSubmit}
      action={save}
      submit={{
        label: valid && percent === 0 ? 'Pause rollout' : 'Save rollout',
        busyLabel: 'Saving…',
        testId: 'rollout-submit',
        disabled: !valid,
      }}
    >
      <TextField
        id="rollout-percent"
        label="Share of eligible devices (%)"
        type="number"
        inputMode="numeric"
        min={0}
        max={100}
        step={1}
        value={text}
        onChange={setText}
        autoFocus
        error={valid ? null : 'Enter a whole number from 0 to 100'}
      />
      <div className="av-presets" role="group" aria-label="Presets">
        {PRESETS.map((p) => (
          <SmallButton
            key={p}
            tone={percent === p ? 'primary' : 'secondary'}
            onClick={() => setText(String(p))}
            testId={`rollout-preset-${p}`}
          >
            {p === 0 ? 'Pause' : `${p} %`}
          </SmallButton>
        ))}
      </div>
      <p className="muted small">
        Heartbeats offer {version} to this share of the devices that would update, chosen the same way at
        every heartbeat; widening it keeps the devices already offered. 100 % offers it to all, 0 % pauses it.
      </p>
    </FormDialog>
  );
}
