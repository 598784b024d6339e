import { useState, type FormEvent } from 'react';
import type { Partner } from '../../../../server/contract';
import { useAsyncAction } from '../../lib/action';
import { CardHead, LabelOptions, LoadState, SelectField } from '../../ui';
import { pamPolicyApi, usePolicyPartner, type PolicyPartner, type StepUpPolicy } from './api';
import type { PolicyOrg } from './org';
import { SaveBar, SavedNotice } from './parts';

// The partner's approval step-up policy (partner settings `security.approvalStepUp`, DESIGN §5): how strongly a
// technician proves presence before an approval counts, by the risk of the request. Shown to partner and system
// callers under /pam/defaults.

const PARTNER_FORBIDDEN = {
  title: "The partner's policy is not available to you",
  text: 'Reading it needs permission to view the partner.',
};

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

/** The risk levels, each with its colour (a kit tone class). */
const RISKS: Array<{ value: Risk; label: string; desc: string; tone: 'ok' | 'info' | 'warn' | 'bad' }> = [
  { value: 'low', label: 'Low', desc: 'AI tool actions at tier 0-1', tone: 'ok' },
  { value: 'medium', label: 'Medium', desc: 'Signed UAC prompts; AI tool actions at tier 2', tone: 'info' },
  {
    value: 'high',
    label: 'High',
    desc: 'Unsigned UAC prompts, technician admin sessions; tier 3',
    tone: 'warn',
  },
  {
    value: 'critical',
    label: 'Critical',
    desc: 'AI tool actions at tier 4; always asks for re-authentication',
    tone: 'bad',
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

export function StepUpCard({ org }: { org: PolicyOrg }) {
  // Partner callers edit their own partner; platform administrators edit the partner of the organization shown.
  const shown: PolicyPartner | null =
    org.scope === 'partner' ? 'me' : org.org ? { id: org.org.partnerId } : null;
  const partner = usePolicyPartner(shown);
  const [savedFor, setSavedFor] = useState<string | null>(null);
  if (!shown) return null;
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
          savedTo={org.scope === 'partner' ? 'me' : { id: partner.data.id }}
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
  savedTo,
  saved,
  onSaved,
}: {
  partner: Partner;
  savedTo: PolicyPartner;
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
      await pamPolicyApi.saveStepUp(savedTo, policy);
      onSaved();
    });
  };

  return (
    <form onSubmit={submit} noValidate className="ep-stepup">
      <p className="muted small ep-card-lead">
        How strongly a technician proves presence before an approval counts, by the risk of the request.
        Applies to every organization of {partner.name}.
      </p>
      <SavedNotice shown={saved && !dirty} testId="step-up-saved">
        The next approval is checked against this policy.
      </SavedNotice>
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
              <td className={`ep-risk tone-${r.tone}`}>{r.label}</td>
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
                  <LabelOptions options={LEVELS} />
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
