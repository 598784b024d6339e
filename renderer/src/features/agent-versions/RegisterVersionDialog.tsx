import { useState, type FormEvent } from 'react';
import type { AgentArch, AgentPlatform } from '../../../../server/contract';
import { useAsyncAction } from '../../lib/action';
import { FormDialog, SelectField, TextField } from '../../ui';
import { agentVersionsApi, refreshAgentVersions } from './api';
import { PLATFORM_LABEL } from './labels';

// Register a build by hand (spec 3 POST /agent-versions): version, platform, architecture, the HTTPS address it
// is downloaded from and its SHA-256 checksum, which every agent verifies before installing. The server's
// validation messages ("checksum must be a SHA-256 checksum (64 hexadecimal characters)") are shown as they come.

export function RegisterVersionDialog({ onClose }: { onClose: () => void }) {
  const [version, setVersion] = useState('');
  const [platform, setPlatform] = useState<AgentPlatform>('windows');
  const [architecture, setArchitecture] = useState<AgentArch>('amd64');
  const [downloadUrl, setDownloadUrl] = useState('');
  const [checksum, setChecksum] = useState('');
  const [releaseNotes, setReleaseNotes] = useState('');
  const save = useAsyncAction();

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (save.busy) return;
    void save.run(async () => {
      await agentVersionsApi.register({
        version,
        platform,
        architecture,
        downloadUrl,
        checksum,
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
        <TextField
          id="register-version-number"
          label="Version"
          className="mono"
          value={version}
          onChange={setVersion}
          placeholder="1.4.0"
          maxLength={50}
          autoFocus
          spellCheck={false}
        />
        <SelectField
          id="register-platform"
          label="Platform"
          value={platform}
          onChange={(v) => setPlatform(v as AgentPlatform)}
        >
          {(Object.keys(PLATFORM_LABEL) as AgentPlatform[]).map((p) => (
            <option key={p} value={p}>
              {PLATFORM_LABEL[p]}
            </option>
          ))}
        </SelectField>
        <SelectField
          id="register-architecture"
          label="Architecture"
          value={architecture}
          onChange={(v) => setArchitecture(v as AgentArch)}
        >
          <option value="amd64">amd64</option>
          <option value="arm64">arm64</option>
        </SelectField>
      </div>
      <TextField
        id="register-url"
        label="Download URL"
        className="mono"
        value={downloadUrl}
        onChange={setDownloadUrl}
        placeholder="https://downloads.example.com/gatehouse-agent-1.4.0-windows-amd64.exe"
        maxLength={2048}
        spellCheck={false}
        autoComplete="off"
        hint="HTTPS only. Agents download the binary from here."
      />
      <TextField
        id="register-checksum"
        label="SHA-256 checksum"
        className="mono"
        value={checksum}
        onChange={setChecksum}
        placeholder="64 hexadecimal characters"
        maxLength={64}
        spellCheck={false}
        autoComplete="off"
        hint="Each agent verifies the download against it and refuses a binary that does not match."
      />
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
