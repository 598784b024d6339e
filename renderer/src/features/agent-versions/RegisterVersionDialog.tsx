import { useState, type FormEvent } from 'react';
import type { AgentArch, AgentPlatform } from '../../../../server/contract';
import { useAsyncAction } from '../../lib/action';
import { CodeField, FormDialog, LabelOptions, SelectField, TextField, type DialogProps } from '../../ui';
import { agentVersionsApi, refreshAgentVersions } from './api';
import { PLATFORM_LABEL } from './labels';

// Register a build by hand (spec 3 POST /agent-versions): version, platform, architecture, the HTTPS address it
// is downloaded from and its SHA-256 checksum, which every agent verifies before installing. The server's
// validation messages ("checksum must be a SHA-256 checksum (64 hexadecimal characters)") are shown as they come.

/** The fields a machine reads (monospace, no autofill or spell check), by the name the server takes them under. */
const CODE_FIELDS = {
  version: {
    id: 'register-version-number',
    label: 'Version',
    placeholder: '1.4.0',
    maxLength: 50,
    autoFocus: true,
  },
  downloadUrl: {
    id: 'register-url',
    label: 'Download URL',
    placeholder: 'https://downloads.example.com/gatehouse-agent-1.4.0-windows-amd64.exe',
    maxLength: 2048,
    hint: 'HTTPS only. Agents download the binary from here.',
  },
  checksum: {
    id: 'register-checksum',
    label: 'SHA-256 checksum',
    placeholder: '64 hexadecimal characters',
    maxLength: 64,
    hint: 'Each agent verifies the download against it and refuses a binary that does not match.',
  },
} as const;

/** The build's target, each picked from its label list. */
const TARGET_FIELDS = {
  platform: { id: 'register-platform', label: 'Platform', options: PLATFORM_LABEL },
  architecture: {
    id: 'register-architecture',
    label: 'Architecture',
    options: { amd64: 'amd64', arm64: 'arm64' },
  },
} as const;
type Target = { platform: AgentPlatform; architecture: AgentArch };

export function RegisterVersionDialog({ onClose }: Pick<DialogProps, 'onClose'>) {
  const [codes, setCodes] = useState<Record<keyof typeof CODE_FIELDS, string>>({
    version: '',
    downloadUrl: '',
    checksum: '',
  });
  const [target, setTarget] = useState<Target>({ platform: 'windows', architecture: 'amd64' });
  const [releaseNotes, setReleaseNotes] = useState('');
  const save = useAsyncAction();
  const targetField = (name: keyof Target) => (
    <SelectField
      id={TARGET_FIELDS[name].id}
      label={TARGET_FIELDS[name].label}
      value={target[name]}
      // The select offers only the listed values, so what it reports is one of them.
      onChange={(value) => setTarget((t) => ({ ...t, [name]: value }))}
    >
      <LabelOptions<string> options={TARGET_FIELDS[name].options} />
    </SelectField>
  );
  const codeField = (name: keyof typeof CODE_FIELDS) => (
    <CodeField
      {...CODE_FIELDS[name]}
      value={codes[name]}
      onChange={(value) => setCodes((c) => ({ ...c, [name]: value }))}
    />
  );

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (save.busy) return;
    void save.run(async () => {
      await agentVersionsApi.register({
        ...codes,
        ...target,
        ...(releaseNotes.trim() ? { releaseNotes: releaseNotes.trim() } : {}),
      });
      await refreshAgentVersions();
      onClose();
    });
  };

  return (
    <FormDialog
      title="Register an agent version"
      onClose={onClose}
      testId="register-version-dialog"
      onSubmit={onSubmit}
      errorTestId="register-version-error"
      action={save}
      submit={{ label: 'Register version', busyLabel: 'Registering…', testId: 'register-version-submit' }}
    >
      <div className="form-row">
        {codeField('version')}
        {targetField('platform')}
        {targetField('architecture')}
      </div>
      {codeField('downloadUrl')}
      {codeField('checksum')}
      <TextField
        id="register-notes"
        label="Release notes (optional)"
        value={releaseNotes}
        onChange={setReleaseNotes}
        maxLength={10_000}
      />
      <p className="muted small">
        The highest version of a platform becomes its latest build. New versions reach every eligible device
        unless you stage a rollout.
      </p>
    </FormDialog>
  );
}
