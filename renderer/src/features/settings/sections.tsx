import { useState } from 'react';
import type { Partner, ServiceManagementMode } from '../../../../server/contract';
import { Alert, Card, Facts, Field, StatusPill } from '../../ui/basics';
import { TextField } from '../../ui/fields';
import { RadioCards } from '../../ui';
import { timeZones } from '../../lib/dates';
import { PARTNER_PLANS, PARTNER_TYPES, labelOf, partnerStatusOf } from '../tenants';
import { type Draft } from './model';

export interface SectionProps {
  draft: Draft;
  baseline: Draft;
  update: (patch: Partial<Draft>, fields?: string[]) => void;
  errorFor: (field: string, changedHere: boolean) => string | undefined;
}

// ---- General ----------------------------------------------------------------------------------------------------

const DATE_FORMATS = ['MM/DD/YYYY', 'DD/MM/YYYY', 'YYYY-MM-DD'] as const;

function sampleDate(format: string): string {
  const d = new Date();
  const dd = String(d.getDate()).padStart(2, '0');
  const mm = String(d.getMonth() + 1).padStart(2, '0');
  const yyyy = String(d.getFullYear());
  return format.replace('DD', dd).replace('MM', mm).replace('YYYY', yyyy);
}

function sampleTime(format: string): string {
  return new Date().toLocaleTimeString('en-US', {
    hour: 'numeric',
    minute: '2-digit',
    hour12: format === '12h',
  });
}

export function GeneralSection({
  draft,
  baseline,
  update,
  errorFor,
  partner,
}: SectionProps & { partner: Partner }) {
  const [zones] = useState(timeZones);
  const status = partnerStatusOf(partner.status);
  const zoneOptions = draft.timezone && !zones.includes(draft.timezone) ? [draft.timezone, ...zones] : zones;
  return (
    <div className="st-columns">
      <Card title="Partner" icon="tenants" testId="settings-general">
        <div className="adm-form-grid">
          <TextField
            id="settings-name"
            label="Name"
            type="text"
            maxLength={255}
            value={draft.name}
            onChange={(name) => update({ name }, ['name'])}
            error={errorFor('name', draft.name !== baseline.name)}
          />
          <TextField
            id="settings-billing-email"
            label="Billing email"
            type="email"
            maxLength={255}
            value={draft.billingEmail}
            onChange={(billingEmail) => update({ billingEmail }, ['billingEmail'])}
            error={errorFor('billingEmail', draft.billingEmail !== baseline.billingEmail)}
            hint="Where invoices and plan notices go"
          />
        </div>
        <div className="adm-facts st-facts">
          <Facts
            rows={[
              ['Slug', <span className="mono">{partner.slug}</span>],
              ['Type', labelOf(PARTNER_TYPES, partner.type)],
              ['Plan', labelOf(PARTNER_PLANS, partner.plan)],
              ['Status', <StatusPill tone={status.tone}>{status.label}</StatusPill>],
            ]}
          />
          <p className="muted small">Slug, type, plan and status are changed by the platform operator.</p>
        </div>
      </Card>

      <Card title="Regional" icon="clock" testId="settings-regional">
        <Field
          label="Time zone"
          htmlFor="settings-timezone"
          error={errorFor('settings.timezone', draft.timezone !== baseline.timezone)}
          hint="Used for business hours and for dates in reports and notifications"
        >
          <select
            id="settings-timezone"
            value={draft.timezone}
            onChange={(e) => update({ timezone: e.target.value }, ['settings.timezone'])}
            data-testid="settings-timezone"
          >
            {baseline.timezone === '' ? <option value="">Not set</option> : null}
            {zoneOptions.map((z) => (
              <option key={z} value={z}>
                {z.replaceAll('_', ' ')}
              </option>
            ))}
          </select>
        </Field>
        <div className="adm-form-grid">
          <Field
            label="Date format"
            htmlFor="settings-date-format"
            error={errorFor('settings.dateFormat', false)}
          >
            <select
              id="settings-date-format"
              value={draft.dateFormat}
              onChange={(e) => update({ dateFormat: e.target.value }, ['settings.dateFormat'])}
              data-testid="settings-date-format"
            >
              {baseline.dateFormat === '' ? <option value="">Not set</option> : null}
              {DATE_FORMATS.map((f) => (
                <option key={f} value={f}>
                  {f} · {sampleDate(f)}
                </option>
              ))}
            </select>
          </Field>
          <Field
            label="Time format"
            htmlFor="settings-time-format"
            error={errorFor('settings.timeFormat', false)}
          >
            <select
              id="settings-time-format"
              value={draft.timeFormat}
              onChange={(e) => update({ timeFormat: e.target.value }, ['settings.timeFormat'])}
              data-testid="settings-time-format"
            >
              {baseline.timeFormat === '' ? <option value="">Not set</option> : null}
              <option value="24h">24-hour · {sampleTime('24h')}</option>
              <option value="12h">12-hour · {sampleTime('12h')}</option>
            </select>
          </Field>
        </div>
        <Field
          label="Language"
          htmlFor="settings-language"
          error={errorFor('settings.language', false)}
          hint="English is the only language available."
        >
          <select
            id="settings-language"
            value={draft.language || 'en'}
            onChange={(e) => update({ language: e.target.value }, ['settings.language'])}
            data-testid="settings-language"
          >
            <option value="en">English</option>
          </select>
        </Field>
      </Card>
    </div>
  );
}

// ---- Security: IP allowlist -------------------------------------------------------------------------------------

// ---- Service management -----------------------------------------------------------------------------------------

const MODES: Array<{ value: ServiceManagementMode; title: string; desc: string }> = [
  { value: 'native', title: 'Built-in', desc: 'Tickets and billing live in Gatehouse’s own service desk.' },
  {
    value: 'external',
    title: 'External PSA',
    desc: 'Tickets live in your professional services automation tool.',
  },
  { value: 'off', title: 'Off', desc: 'No service desk or billing surfaces; new tickets are refused.' },
];

export function ServiceSection({ draft, baseline, update, errorFor }: SectionProps) {
  const psaField = 'serviceManagementPsaConnectionId';
  return (
    <Card title="Service management" icon="settings" testId="settings-service">
      <div className="adm-radio-row" role="radiogroup" aria-label="Service management mode">
        <RadioCards
          name="service-mode"
          options={MODES}
          value={draft.mode}
          current={baseline.mode}
          onChange={(value) => update({ mode: value }, [psaField])}
          testId={(value) => `service-mode-${value}`}
        />
      </div>
      {draft.mode === 'external' ? (
        <div className="st-psa">
          <Field
            label="PSA connection id"
            htmlFor="settings-psa"
            error={errorFor(psaField, draft.psa !== baseline.psa || baseline.mode !== 'external')}
            hint="The id of the PSA connection that receives tickets. Required for this mode."
          >
            <input
              id="settings-psa"
              type="text"
              className="mono"
              placeholder="00000000-0000-0000-0000-000000000000"
              spellCheck={false}
              value={draft.psa}
              onChange={(e) => update({ psa: e.target.value }, [psaField])}
              data-testid="settings-psa"
            />
          </Field>
        </div>
      ) : errorFor(psaField, false) ? (
        <div className="field-error">{errorFor(psaField, false)}</div>
      ) : null}
      {draft.mode === 'off' && baseline.mode !== 'off' ? (
        <Alert tone="warning" testId="service-off-warning">
          Turning service management off refuses new tickets everywhere: the console, the customer portal,
          inbound email, the AI assistant and vulnerability-driven creation. Existing tickets stay readable.
        </Alert>
      ) : null}
      {draft.mode !== 'external' && baseline.mode === 'external' ? (
        <Alert tone="info">The PSA connection is unlinked when you save.</Alert>
      ) : null}
    </Card>
  );
}
