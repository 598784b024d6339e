// Over 400 lines: one form (organization default verdict and the partner's step-up policy) with one save and one set of errors.
import { useState, type FormEvent } from 'react';
import type { Partner, PamConfig } from '../../../../server/contract';
import { ActionError } from '../../ui/ActionError';
import { LoadState, TextField } from '../../ui';
import { Alert } from '../../ui/basics';
import { useAsyncAction, type AsyncAction } from '../../lib/action';
import { LabelOptions, Toggle } from '../../ui';
import { minutesText } from '../approvals';
import { pamPolicyApi, usePamConfig, usePolicyPartner, type StepUpPolicy } from './api';
import { DURATION_MAX } from './model';
import type { PolicyOrg } from './org';
import { CardHead, SelectField } from '../../ui';

// /pam/defaults: what decides a request no rule matches, how long approvals last when nobody says, the actuator
// kill switch (PUT /pam/config), and for partner and system callers the partner's approval step-up policy
// (partner settings `security.approvalStepUp`, DESIGN §5).

const CONFIG_FORBIDDEN = {
  title: "The organization's configuration is not available to you",
  text: 'Your account cannot read it.',
};
const PARTNER_FORBIDDEN = {
  title: "The partner's policy is not available to you",
  text: 'Reading it needs permission to view the partner.',
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
      {saved && !dirty ? (
        <Alert tone="success" testId="pam-config-saved">
          Saved. New requests follow these defaults from now on.
        </Alert>
      ) : null}
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
      <div className={`ep-killswitch${actuator ? '' : ' off'}`}>
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

/**
 * The foot of a settings form: the save's error, Discard while there are changes, and the submit button
 * (`<testId>-save`, its error `<testId>-error`).
 */
function SaveBar({
  save,
  testId,
  dirty,
  invalid,
  onDiscard,
  danger,
  label,
}: {
  save: AsyncAction;
  testId: string;
  dirty: boolean;
  invalid?: boolean;
  onDiscard: () => void;
  danger?: boolean;
  label: string;
}) {
  return (
    <div className="ep-card-foot">
      <ActionError error={save.error} testId={`${testId}-error`} />
      <span className="grow" />
      {dirty ? (
        <button type="button" className="btn btn-ghost" onClick={onDiscard} disabled={save.busy}>
          Discard
        </button>
      ) : null}
      <button
        type="submit"
        className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`}
        disabled={!dirty || save.busy || invalid}
        data-testid={`${testId}-save`}
      >
        {save.busy ? 'Saving…' : label}
      </button>
    </div>
  );
}

// ---- Step-up policy ----------------------------------------------------------------------------------------------

type StepUp = StepUpPolicy;
type Mode = StepUp['mode'];
type Risk = keyof StepUp['floors'];
type Level = StepUp['floors'][Risk];

const DEFAULT_STEP_UP: StepUp = { mode: 'grace', floors: { low: 1, medium: 2, high: 2, critical: 3 } };

const MODES: Array<{ value: Mode; label: string; desc: string }> = [
  {
    value: 'off',
    label: 'Off',
    desc: 'Any signed-in technician with the permission can approve. Floors are not checked.',
  },
  {
    value: 'grace',
    label: 'Grace',
    desc: 'An approval below the floor goes through but is flagged on the request and in the audit log.',
  },
  {
    value: 'enforce',
    label: 'Enforce',
    desc: 'An approval below the floor is refused; the technician must step up. Denying is never blocked.',
  },
];

const LEVELS: Array<{ value: Level; label: string; desc: string }> = [
  { value: 1, label: 'L1 · Session', desc: 'The signed-in console session is enough.' },
  {
    value: 2,
    label: 'L2 · Platform authenticator',
    desc: 'Windows Hello or Touch ID on a registered approver device, bound to the request.',
  },
  { value: 3, label: 'L3 · Authenticator + re-auth', desc: 'L2 plus entering the password again.' },
];

const RISKS: Array<{ value: Risk; label: string; desc: string }> = [
  { value: 'low', label: 'Low', desc: 'AI tool actions at tier 0-1' },
  { value: 'medium', label: 'Medium', desc: 'Signed UAC prompts; AI tool actions at tier 2' },
  { value: 'high', label: 'High', desc: 'Unsigned UAC prompts, technician admin sessions; tier 3' },
  {
    value: 'critical',
    label: 'Critical',
    desc: 'AI tool actions at tier 4; always asks for re-authentication',
  },
];

function stepUpOf(partner: Partner): StepUp {
  const raw = (partner.settings.security as Record<string, unknown> | undefined)?.approvalStepUp as
    Partial<{ mode: unknown; floors: Partial<Record<Risk, unknown>> }> | undefined;
  const mode =
    raw?.mode === 'off' || raw?.mode === 'grace' || raw?.mode === 'enforce' ? raw.mode : DEFAULT_STEP_UP.mode;
  const floor = (r: Risk): Level => {
    const v = raw?.floors?.[r];
    return v === 1 || v === 2 || v === 3 ? v : DEFAULT_STEP_UP.floors[r];
  };
  return {
    mode,
    floors: { low: floor('low'), medium: floor('medium'), high: floor('high'), critical: floor('critical') },
  };
}

function StepUpCard({ org }: { org: PolicyOrg }) {
  // Partner callers edit their own partner; platform administrators edit the partner of the organization shown.
  const partnerPath =
    org.scope === 'partner' ? '/orgs/partners/me' : org.org ? `/orgs/partners/${org.org.partnerId}` : null;
  const partner = usePolicyPartner(partnerPath);
  const [savedFor, setSavedFor] = useState<string | null>(null);
  if (!partnerPath) return null;
  return (
    <section className="card ep-card" data-testid="step-up-card">
      <CardHead title="Approval step-up">
        {partner.data ? <span className="muted small">Partner policy · {partner.data.name}</span> : null}
      </CardHead>
      {!partner.data ? (
        <LoadState of={partner} loading="Loading the partner policy…" forbidden={PARTNER_FORBIDDEN} />
      ) : (
        <StepUpForm
          key={partner.data.updatedAt}
          partner={partner.data}
          savePath={org.scope === 'partner' ? '/orgs/partners/me' : `/orgs/partners/${partner.data.id}`}
          saved={savedFor === partner.data.id}
          onSaved={() => {
            setSavedFor(partner.data?.id ?? null);
            partner.reload();
          }}
        />
      )}
    </section>
  );
}

function StepUpForm({
  partner,
  savePath,
  saved,
  onSaved,
}: {
  partner: Partner;
  savePath: string;
  saved: boolean;
  onSaved: () => void;
}) {
  const stored = stepUpOf(partner);
  const [policy, setPolicy] = useState<StepUp>(stored);
  const save = useAsyncAction();
  const dirty = JSON.stringify(policy) !== JSON.stringify(stored);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save.run(async () => {
      await pamPolicyApi.saveStepUp(savePath, policy);
      onSaved();
    });
  };

  return (
    <form onSubmit={submit} noValidate className="ep-stepup">
      <p className="muted small ep-card-lead">
        How strongly a technician proves presence before an approval counts, by the risk of the request.
        Applies to every organization of {partner.name}.
      </p>
      {saved && !dirty ? (
        <Alert tone="success" testId="step-up-saved">
          Saved. The next approval is checked against this policy.
        </Alert>
      ) : null}
      <div className="adm-form-grid">
        <SelectField
          id="step-up-mode"
          label="Mode"
          value={policy.mode}
          onChange={(mode) => setPolicy({ ...policy, mode: mode as Mode })}
          hint={MODES.find((m) => m.value === policy.mode)?.desc}
        >
          <LabelOptions options={MODES} />
        </SelectField>
        <dl className="ep-levels">
          {LEVELS.map((l) => (
            <div key={l.value}>
              <dt>{l.label}</dt>
              <dd>{l.desc}</dd>
            </div>
          ))}
        </dl>
      </div>
      <table className={`ep-floors${policy.mode === 'off' ? ' ep-dim' : ''}`} data-testid="step-up-floors">
        <thead>
          <tr>
            <th>Risk</th>
            <th>Requests</th>
            <th>Floor</th>
          </tr>
        </thead>
        <tbody>
          {RISKS.map((r) => (
            <tr key={r.value}>
              <td className={`ep-risk ep-risk-${r.value}`}>{r.label}</td>
              <td className="muted small">{r.desc}</td>
              <td>
                <select
                  value={policy.floors[r.value]}
                  disabled={policy.mode === 'off'}
                  aria-label={`Floor for ${r.label.toLowerCase()} risk`}
                  onChange={(e) =>
                    setPolicy({
                      ...policy,
                      floors: { ...policy.floors, [r.value]: Number(e.target.value) as Level },
                    })
                  }
                  data-testid={`step-up-floor-${r.value}`}
                >
                  {LEVELS.map((l) => (
                    <option key={l.value} value={l.value}>
                      {l.label}
                    </option>
                  ))}
                </select>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {policy.mode === 'off' ? (
        <p className="muted small">Floors are kept, and apply again when you choose Grace or Enforce.</p>
      ) : null}
      <SaveBar
        save={save}
        testId="step-up"
        dirty={dirty}
        onDiscard={() => setPolicy(stored)}
        label="Save policy"
      />
    </form>
  );
}
