import { useState, type FormEvent } from 'react';
import type { PamConfig } from '../../../../server/contract';
import { useAsyncAction } from '../../lib/action';
import { Alert, CardHead, LoadState, SelectField, TextField, Toggle } from '../../ui';
import { minutesText } from '../approvals';
import { pamPolicyApi, usePamConfig } from './api';
import { DURATION_MAX } from './model';
import type { PolicyOrg } from './org';
import { SaveBar, SavedNotice } from './parts';
import { StepUpCard } from './StepUpCard';

// /pam/defaults: what decides a request no rule matches, how long approvals last when nobody says, the actuator
// kill switch (PUT /pam/config), and for partner and system callers the partner's approval step-up policy
// (partner settings `security.approvalStepUp`, DESIGN §5).

const CONFIG_FORBIDDEN = {
  title: "The organization's configuration is not available to you",
  text: 'Your account cannot read it.',
};

export function DefaultsView({ org }: { org: PolicyOrg }) {
  const config = usePamConfig(org);
  // Kept here: a save reloads the configuration, which remounts the form with the stored values.
  const [savedFor, setSavedFor] = useState<string | null>(null);
  return (
    <div className="ep-stack ep-defaults">
      {!config.data ? (
        <LoadState of={config} loading="Loading configuration…" forbidden={CONFIG_FORBIDDEN} />
      ) : (
        <ConfigCard
          key={`${config.data.config.orgId}:${JSON.stringify(config.data.config)}`}
          config={config.data.config}
          org={org}
          saved={savedFor === config.data.config.orgId}
          onSaved={() => {
            setSavedFor(config.data?.config.orgId ?? null);
            config.reload();
          }}
        />
      )}
      {org.scope !== 'organization' ? <StepUpCard org={org} /> : null}
    </div>
  );
}

function ConfigCard({
  config,
  org,
  saved,
  onSaved,
}: {
  config: PamConfig;
  org: PolicyOrg;
  saved: boolean;
  onSaved: () => void;
}) {
  const [verdict, setVerdict] = useState(config.defaultUnmatchedVerdict);
  const [duration, setDuration] = useState(String(config.defaultApprovalDurationMinutes));
  const [actuator, setActuator] = useState(config.actuatorEnabled);
  const save = useAsyncAction();

  const minutes = Number(duration.trim());
  const durationError =
    !/^\d+$/.test(duration.trim()) || minutes < 1 || minutes > DURATION_MAX
      ? `Between 1 and ${DURATION_MAX} minutes.`
      : null;
  // Turning the actuator off is the kill switch: the save button says so.
  const stopping = !actuator && config.actuatorEnabled;
  const dirty =
    verdict !== config.defaultUnmatchedVerdict ||
    minutes !== config.defaultApprovalDurationMinutes ||
    actuator !== config.actuatorEnabled;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (durationError) return;
    void save.run(async () => {
      await pamPolicyApi.saveConfig(
        org.withOrg({
          defaultUnmatchedVerdict: verdict,
          defaultApprovalDurationMinutes: minutes,
          actuatorEnabled: actuator,
        }),
      );
      onSaved();
    });
  };

  return (
    <form className="card ep-card" onSubmit={submit} noValidate data-testid="pam-config">
      <CardHead title="Organization defaults">
        <span className="muted small">{org.org?.name}</span>
      </CardHead>
      <SavedNotice shown={saved && !dirty} testId="pam-config-saved">
        New requests follow these defaults from now on.
      </SavedNotice>
      {!config.actuatorEnabled ? (
        <Alert tone="warning" testId="pam-actuator-off">
          The actuator is off: approvals are recorded, but no device is told to elevate.
        </Alert>
      ) : null}
      <div className="adm-form-grid">
        <SelectField
          id="pam-default-verdict"
          label="When no rule matches"
          value={verdict}
          onChange={(value) => setVerdict(value as PamConfig['defaultUnmatchedVerdict'])}
          hint={
            verdict === 'require_approval'
              ? 'The request waits in Approvals for a technician.'
              : 'The request is denied at once; nobody is asked. Only rules can approve.'
          }
        >
          <option value="require_approval">Require approval</option>
          <option value="auto_deny">Auto-deny</option>
        </SelectField>
        <TextField
          id="pam-default-duration"
          label="Default approval duration (minutes)"
          error={durationError}
          hint={`How long an elevation lasts when neither the rule nor the approver says. Now ${minutesText(config.defaultApprovalDurationMinutes)}.`}
          type="number"
          min={1}
          max={DURATION_MAX}
          inputMode="numeric"
          value={duration}
          onChange={setDuration}
        />
      </div>
      <div className={`ui-panel ep-killswitch${actuator ? '' : ' off'}`}>
        <Toggle
          id="pam-actuator-enabled"
          checked={actuator}
          onChange={setActuator}
          label="Actuator enabled"
          hint="Devices receive elevations that were approved, by a technician or by a rule."
        />
        {!actuator ? (
          <div className="ep-killswitch-warn" data-testid="pam-actuator-warning">
            <strong>Kill switch.</strong> While the actuator is off, no device in{' '}
            {org.org?.name ?? 'this organization'} receives an elevation: approvals and auto-approvals are
            still recorded and audited, but never carried out. Users waiting on a prompt stay waiting. Use it
            to stop all elevation at once during an incident.
          </div>
        ) : null}
      </div>
      <SaveBar
        save={save}
        testId="pam-config"
        dirty={dirty}
        invalid={durationError !== null}
        onDiscard={() => {
          setVerdict(config.defaultUnmatchedVerdict);
          setDuration(String(config.defaultApprovalDurationMinutes));
          setActuator(config.actuatorEnabled);
        }}
        danger={stopping}
        label={stopping ? 'Save and stop elevations' : 'Save'}
      />
    </form>
  );
}
