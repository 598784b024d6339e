import { useState } from 'react';
import type { SsoPreset, SsoProvider } from '../../../../server/contract';
import { useAsyncAction } from '../../lib/action';
import { copyText } from '../../lib/clipboard';
import { queryClient } from '../../lib/query';
import { ActionError, Alert, Button, CopyButton, Dialog, Icon, type DialogProps } from '../../ui';
import { ssoApi, ssoKeys, useOwnerRoles } from './api';
import { createBody, draftFromPreset, validateDraft, type ProviderDraft } from './model';
import type { OwnerChoice } from './owner';
import { ConnectionFields, RulesFields, type FieldsProps } from './ProviderFields';
import { ProviderChecks } from './ProviderChecks';

// The guided setup: choose the IdP product, paste Gatehouse's redirect URI into it, bring back issuer, client ID
// and secret, decide who may sign in; the provider is then created (inactive, spec 1) and the last step tests the
// connection and switches it on.

/**
 * The callback address to paste into the IdP before the provider exists: this console's origin, which is the
 * server's (the provider's card shows the server's own `redirectUri` afterwards).
 */
const redirectUriHere = (): string => `${window.location.origin}/api/v1/sso/callback`;

const STEPS = [
  'Identity provider',
  'Redirect URI',
  'Connection',
  'Who signs in',
  'Test and switch on',
] as const;
/** The "another provider" card: an OIDC IdP without a preset (the server's defaults apply). */
const OTHER = 'other';

export function SetupWizard({
  owner,
  presets,
  onClose,
}: { owner: OwnerChoice; presets: SsoPreset[] } & Pick<DialogProps, 'onClose'>) {
  const [step, setStep] = useState(0);
  const [presetId, setPresetId] = useState<string>(presets.find((p) => p.loginSupported)?.id ?? OTHER);
  const [draft, setDraft] = useState<ProviderDraft | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const [created, setCreated] = useState<SsoProvider | null>(null);
  const [warning, setWarning] = useState<string | null>(null);
  const roles = useOwnerRoles(owner);
  const create = useAsyncAction();
  const preset = presets.find((p) => p.id === presetId) ?? null;
  const current = draft ?? draftFromPreset(preset, owner);
  const errors = submitted ? validateDraft(current, false) : {};
  // What both field groups edit, passed to each as one.
  const fields: FieldsProps = { draft: current, onChange: setDraft, errors };

  const next = () => {
    if (step === 0) setDraft(draftFromPreset(preset, owner));
    if (step === 2 || step === 3) {
      setSubmitted(true);
      const problems = validateDraft(current, false);
      const fieldsOfStep = step === 2 ? ['name', 'issuer', 'clientId', 'clientSecret'] : ['defaultRoleId'];
      if (fieldsOfStep.some((f) => f in problems)) return;
      setSubmitted(false);
    }
    if (step === 3) {
      void create.run(async () => {
        const res = await ssoApi.create(createBody(current, owner));
        setWarning(res.warning ?? null);
        setCreated(res);
        setStep(4);
        await queryClient.invalidateQueries({ queryKey: ssoKeys.all });
      });
      return;
    }
    setStep(step + 1);
  };

  const footer =
    step === 4 ? (
      <Button tone="primary" onClick={onClose} testId="sso-wizard-done">
        Done
      </Button>
    ) : (
      <>
        <Button
          tone="secondary"
          onClick={() => (step === 0 ? onClose() : setStep(step - 1))}
          disabled={create.busy}
        >
          {step === 0 ? 'Cancel' : 'Back'}
        </Button>
        <Button
          tone="primary"
          onClick={next}
          busy={create.busy}
          busyLabel="Creating…"
          testId="sso-wizard-next"
        >
          {step === 3 ? 'Create provider' : 'Continue'}
        </Button>
      </>
    );

  return (
    <Dialog
      open
      title={`Set up single sign-on · ${owner.label}`}
      onClose={onClose}
      wide
      testId="sso-wizard"
      footer={footer}
    >
      <div className="steps sso-steps" aria-label="Setup steps">
        {STEPS.map((label, i) => (
          <span key={label} className={i < step ? 'step done' : i === step ? 'step current' : 'step'}>
            {`${i + 1} · ${label}`}
          </span>
        ))}
      </div>
      {step === 0 ? (
        <PresetChoice presets={presets} value={presetId} onChange={setPresetId} />
      ) : step === 1 ? (
        <RedirectStep productName={preset?.name ?? 'your identity provider'} />
      ) : step === 2 ? (
        <div className="form">
          <ConnectionFields {...fields} hasSecret={false} issuerTemplate={preset?.issuerTemplate ?? null} />
        </div>
      ) : step === 3 ? (
        <div className="form">
          <RulesFields {...fields} owner={owner} roles={roles.data?.data ?? []} />
          <ActionError error={create.error} testId="sso-create-error" />
        </div>
      ) : created ? (
        <div className="form">
          <Alert tone="success" testId="sso-created">
            “{created.name}” is saved. New providers start switched off: test the connection, then switch it
            on.
          </Alert>
          {warning ? (
            <Alert tone="warning" testId="sso-discovery-warning">
              The issuer could not be reached when the provider was saved: {warning}
            </Alert>
          ) : null}
          <ProviderChecks provider={created} onChanged={setCreated} />
        </div>
      ) : null}
    </Dialog>
  );
}

function PresetChoice({
  presets,
  value,
  onChange,
}: {
  presets: SsoPreset[];
  value: string;
  onChange: (id: string) => void;
}) {
  const oidc = presets.filter((p) => p.loginSupported);
  const saml = presets.filter((p) => !p.loginSupported);
  const card = (id: string, title: string, desc: string) => (
    <label key={id} className="adm-radio-card sso-preset">
      <input
        type="radio"
        name="sso-preset"
        value={id}
        checked={value === id}
        onChange={() => onChange(id)}
        data-testid={`sso-preset-${id}`}
      />
      <span>
        <span className="adm-radio-title">{title}</span>
        <span className="adm-radio-desc">{desc}</span>
      </span>
    </label>
  );
  return (
    <>
      <p className="muted">
        Which product signs your people in? Gatehouse connects to it with OpenID Connect.
      </p>
      <div className="sso-presets">
        {oidc.map((p) => card(p.id, p.name, `OpenID Connect · scopes ${p.scopes ?? ''}`))}
        {card(OTHER, 'Another OpenID Connect provider', 'Any IdP with a discovery document')}
      </div>
      <h3 className="sso-subhead">Not offered</h3>
      <div className="sso-presets" data-testid="sso-saml-presets">
        {saml.map((p) => (
          <div key={p.id} className="adm-radio-card sso-preset disabled" aria-disabled="true">
            <Icon name="lock" />
            <span>
              <span className="adm-radio-title">{p.name}</span>
              <span className="adm-radio-desc">
                SAML sign-in is not offered; connect this product with OIDC.
              </span>
            </span>
          </div>
        ))}
      </div>
    </>
  );
}

function RedirectStep({ productName }: { productName: string }) {
  const uri = redirectUriHere();
  return (
    <>
      <p>
        In {productName}, register Gatehouse as a web application (a confidential client using the
        authorization code flow) and paste this address as its redirect URI (also called reply URL or callback
        URL):
      </p>
      <div className="sso-copy-line">
        <code className="mono" data-testid="sso-redirect-uri">
          {uri}
        </code>
        <CopyButton onCopy={() => copyText(uri)} testId="sso-redirect-copy" />
      </div>
      <p className="muted small">
        The IdP then shows an issuer URL, a client ID and a client secret: keep that page open for the next
        step.
      </p>
    </>
  );
}
