import type { ReactNode } from 'react';
import type { Partner, ServiceManagementMode } from '../../../../server/contract';
import { Alert, Card, Facts, Field, StatusPill } from '../../ui/basics';
import { TextField } from '../../ui/fields';
import { RadioCards, SelectField, TimeZoneOptions } from '../../ui';
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

/** A settings field's input id: `settings-<field in kebab case>`. */
function settingsId(field: string): string {
  return `settings-${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** The partner's own text fields on the General card, saved as top-level partner fields. */
const PARTNER_FIELDS: Array<{ field: 'name' | 'billingEmail'; label: string; type: string; hint?: string }> =
  [
    { field: 'name', label: 'Name', type: 'text' },
    {
      field: 'billingEmail',
      label: 'Billing email',
      type: 'email',
      hint: 'Where invoices and plan notices go',
    },
  ];

/**
 * A regional choice (`settings-<kebab field>`, saved as `settings.<field>`); "Not set" heads it while the partner
 * never made it. `checkedHere`: the form's own check of this field shows its problem once it changed.
 */
function RegionalSelect({
  field,
  label,
  hint,
  section: { draft, baseline, update, errorFor },
  checkedHere = false,
  children,
}: {
  field: 'timezone' | 'dateFormat' | 'timeFormat';
  label: string;
  hint?: string;
  section: SectionProps;
  checkedHere?: boolean;
  children: ReactNode;
}) {
  return (
    <SelectField
      id={settingsId(field)}
      label={label}
      error={errorFor(`settings.${field}`, checkedHere && draft[field] !== baseline[field])}
      hint={hint}
      value={draft[field]}
      onChange={(value) => update({ [field]: value }, [`settings.${field}`])}
    >
      {baseline[field] === '' ? <option value="">Not set</option> : null}
      {children}
    </SelectField>
  );
}

export function GeneralSection({ partner, ...section }: SectionProps & { partner: Partner }) {
  const { draft, baseline, update, errorFor } = section;
  const status = partnerStatusOf(partner.status);
  return (
    <div className="st-columns">
      <Card title="Partner" icon="tenants" testId="settings-general">
        <div className="adm-form-grid">
          {PARTNER_FIELDS.map(({ field, label, type, hint }) => (
            <TextField
              key={field}
              id={settingsId(field)}
              label={label}
              type={type}
              maxLength={255}
              value={draft[field]}
              onChange={(value) => update({ [field]: value }, [field])}
              error={errorFor(field, draft[field] !== baseline[field])}
              hint={hint}
            />
          ))}
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
        <RegionalSelect
          field="timezone"
          label="Time zone"
          hint="Used for business hours and for dates in reports and notifications"
          section={section}
          checkedHere
        >
          <TimeZoneOptions current={draft.timezone} />
        </RegionalSelect>
        <div className="adm-form-grid">
          <RegionalSelect field="dateFormat" label="Date format" section={section}>
            {DATE_FORMATS.map((f) => (
              <option key={f} value={f}>
                {f} · {sampleDate(f)}
              </option>
            ))}
          </RegionalSelect>
          <RegionalSelect field="timeFormat" label="Time format" section={section}>
            <option value="24h">24-hour · {sampleTime('24h')}</option>
            <option value="12h">12-hour · {sampleTime('12h')}</option>
          </RegionalSelect>
        </div>
        <SelectField
          id="settings-language"
          label="Language"
          error={errorFor('settings.language', false)}
          hint="English is the only language available."
          value={draft.language || 'en'}
          onChange={(language) => update({ language }, ['settings.language'])}
        >
          <option value="en">English</option>
        </SelectField>
      </Card>
    </div>
  );
}

// ---- Security: IP allowlist -------------------------------------------------------------------------------------

// ---- Service management -----------------------------------------------------------------------------------------

// Gatehouse has no built-in service desk (the spec's `native` mode), so it is not offered: tickets either live in
// the partner's PSA or nowhere.
const MODES: Array<{ value: ServiceManagementMode; title: string; desc: string }> = [
  {
    value: 'off',
    title: 'None',
    desc: 'Gatehouse keeps no tickets of its own and sends none anywhere.',
  },
  {
    value: 'external',
    title: 'External PSA',
    desc: 'Tickets live in your professional services automation tool.',
  },
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
      {draft.mode !== 'external' && baseline.mode === 'external' ? (
        <Alert tone="info">The PSA connection is unlinked when you save.</Alert>
      ) : null}
    </Card>
  );
}
