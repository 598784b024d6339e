import { useState, type ClipboardEvent } from 'react';
import type { Partner, ServiceManagementMode } from '../../../../server/contract';
import { Icon } from '../../ui/Icon';
import { Alert, Card, Facts, Field, StatusPill } from '../../ui/basics';
import { RadioCards } from '../../ui';
import { timeZones } from '../../lib/dates';
import { PARTNER_PLANS, PARTNER_TYPES, labelOf, partnerStatusOf } from '../tenants';
import { checkEntry } from './ip-allowlist';
import { DAYS, cleanAllowlist, type Day, type DayDraft, type Draft, type Preset } from './model';

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
          <Field label="Name" htmlFor="settings-name" error={errorFor('name', draft.name !== baseline.name)}>
            <input
              id="settings-name"
              type="text"
              maxLength={255}
              value={draft.name}
              onChange={(e) => update({ name: e.target.value }, ['name'])}
              data-testid="settings-name"
            />
          </Field>
          <Field
            label="Billing email"
            htmlFor="settings-billing-email"
            error={errorFor('billingEmail', draft.billingEmail !== baseline.billingEmail)}
            hint="Where invoices and plan notices go"
          >
            <input
              id="settings-billing-email"
              type="email"
              maxLength={255}
              value={draft.billingEmail}
              onChange={(e) => update({ billingEmail: e.target.value }, ['billingEmail'])}
              data-testid="settings-billing-email"
            />
          </Field>
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

// ---- Business hours ---------------------------------------------------------------------------------------------

const PRESETS: Array<{ value: Preset; title: string; desc: string }> = [
  { value: '24/7', title: '24/7', desc: 'Always within business hours' },
  { value: 'business', title: 'Business hours', desc: 'The standard weekday office-hours schedule' },
  { value: 'extended', title: 'Extended hours', desc: 'The extended-coverage schedule beyond office hours' },
  { value: 'custom', title: 'Custom', desc: 'Your own start and end time for each day' },
];

const DAY_LABEL: Record<Day, string> = {
  monday: 'Monday',
  tuesday: 'Tuesday',
  wednesday: 'Wednesday',
  thursday: 'Thursday',
  friday: 'Friday',
  saturday: 'Saturday',
  sunday: 'Sunday',
};

function duration(day: DayDraft): string {
  if (day.closed) return 'Closed';
  const [sh = 0, sm = 0] = day.start.split(':').map(Number);
  const [eh = 0, em = 0] = day.end.split(':').map(Number);
  const minutes = eh * 60 + em - (sh * 60 + sm);
  if (!Number.isFinite(minutes) || minutes <= 0) return '—';
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m ? `${h}h ${m}m` : `${h}h`;
}

export function HoursSection({ draft, baseline, update, errorFor }: SectionProps) {
  const setDay = (day: Day, patch: Partial<DayDraft>) =>
    update({ custom: { ...draft.custom, [day]: { ...draft.custom[day], ...patch } } }, [
      `settings.businessHours.custom.${day}`,
    ]);
  const copyMondayToWeekdays = () => {
    const monday = draft.custom.monday;
    update(
      {
        custom: {
          ...draft.custom,
          tuesday: { ...monday },
          wednesday: { ...monday },
          thursday: { ...monday },
          friday: { ...monday },
        },
      },
      ['settings.businessHours.custom'],
    );
  };
  const weekly = DAYS.reduce((sum, d) => {
    const day = draft.custom[d];
    if (day.closed) return sum;
    const [sh = 0, sm = 0] = day.start.split(':').map(Number);
    const [eh = 0, em = 0] = day.end.split(':').map(Number);
    return sum + Math.max(0, eh * 60 + em - (sh * 60 + sm));
  }, 0);

  return (
    <Card title="Business hours" icon="clock" testId="settings-hours">
      <p className="muted">
        When your team counts as working. Times are in the partner time zone
        {draft.timezone ? (
          <>
            {' '}
            (<span className="mono">{draft.timezone}</span>)
          </>
        ) : (
          ' (set it under General)'
        )}
        .
      </p>
      <div className="st-presets" role="radiogroup" aria-label="Business hours preset">
        <RadioCards
          name="business-hours-preset"
          options={PRESETS}
          value={draft.preset}
          onChange={(value) => update({ preset: value }, ['settings.businessHours'])}
          testId={(value) => `hours-preset-${value.replace('/', '-')}`}
        />
      </div>
      {errorFor('settings.businessHours', false) ? (
        <div className="field-error">{errorFor('settings.businessHours', false)}</div>
      ) : null}

      {draft.preset === 'custom' ? (
        <div className="st-week" data-testid="hours-custom">
          <table className="st-week-table">
            <thead>
              <tr>
                <th>Day</th>
                <th>Open</th>
                <th>Start</th>
                <th>End</th>
                <th className="num">Hours</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {DAYS.map((d) => {
                const day = draft.custom[d];
                const field = `settings.businessHours.custom.${d}`;
                const err = errorFor(field, JSON.stringify(day) !== JSON.stringify(baseline.custom[d]));
                return (
                  <tr key={d} className={day.closed ? 'closed' : ''} data-testid="hours-day" data-day={d}>
                    <th scope="row">{DAY_LABEL[d]}</th>
                    <td>
                      <label className="st-open">
                        <input
                          type="checkbox"
                          checked={!day.closed}
                          onChange={(e) => setDay(d, { closed: !e.target.checked })}
                          data-testid={`hours-${d}-open`}
                        />
                        {day.closed ? 'Closed' : 'Open'}
                      </label>
                    </td>
                    <td>
                      <input
                        type="time"
                        aria-label={`${DAY_LABEL[d]} start`}
                        value={day.start}
                        disabled={day.closed}
                        onChange={(e) => setDay(d, { start: e.target.value })}
                        data-testid={`hours-${d}-start`}
                      />
                    </td>
                    <td>
                      <input
                        type="time"
                        aria-label={`${DAY_LABEL[d]} end`}
                        value={day.end}
                        disabled={day.closed}
                        onChange={(e) => setDay(d, { end: e.target.value })}
                        data-testid={`hours-${d}-end`}
                      />
                    </td>
                    <td className="num muted">{duration(day)}</td>
                    <td className="st-day-error">
                      {err ? <span className="field-error">{err}</span> : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <div className="st-week-foot">
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              onClick={copyMondayToWeekdays}
              data-testid="hours-copy-monday"
            >
              <Icon name="copy" size={14} />
              Copy Monday to Tuesday–Friday
            </button>
            <span className="muted small">
              {Math.round((weekly / 60) * 10) / 10} hours a week · a day ends on the day it starts
            </span>
          </div>
        </div>
      ) : null}
    </Card>
  );
}

// ---- Contact ----------------------------------------------------------------------------------------------------

type ContactKey = 'contactName' | 'contactEmail' | 'contactPhone' | 'contactWebsite';

/** One contact input: `settings-contact-<name>` is its id and test id, `settings.contact.<name>` its server field. */
function ContactField({
  label,
  name,
  draftKey,
  type,
  placeholder,
  maxLength,
  draft,
  baseline,
  update,
  errorFor,
}: SectionProps & {
  label: string;
  name: string;
  draftKey: ContactKey;
  type: string;
  placeholder?: string;
  maxLength: number;
}) {
  const id = `settings-contact-${name}`;
  const field = `settings.contact.${name}`;
  return (
    <Field label={label} htmlFor={id} error={errorFor(field, draft[draftKey] !== baseline[draftKey])}>
      <input
        id={id}
        type={type}
        placeholder={placeholder}
        maxLength={maxLength}
        value={draft[draftKey]}
        onChange={(e) => update({ [draftKey]: e.target.value }, [field])}
        data-testid={id}
      />
    </Field>
  );
}

export function ContactSection(props: SectionProps) {
  return (
    <Card title="Contact" icon="mail" testId="settings-contact">
      <p className="muted">The main contact for your partner account. Leave a field empty to clear it.</p>
      <div className="adm-form-grid">
        <ContactField
          label="Contact name"
          name="name"
          draftKey="contactName"
          type="text"
          maxLength={255}
          {...props}
        />
        <ContactField
          label="Email"
          name="email"
          draftKey="contactEmail"
          type="email"
          maxLength={255}
          {...props}
        />
        <ContactField
          label="Phone"
          name="phone"
          draftKey="contactPhone"
          type="tel"
          maxLength={50}
          {...props}
        />
        <ContactField
          label="Website"
          name="website"
          draftKey="contactWebsite"
          type="url"
          placeholder="https://"
          maxLength={2048}
          {...props}
        />
      </div>
    </Card>
  );
}

// ---- Security: IP allowlist -------------------------------------------------------------------------------------

/** Splits pasted text (lines, commas, spaces) into entries. */
function splitEntries(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

export function SecuritySection({
  draft,
  baseline,
  update,
  errorFor,
  callerIp,
}: SectionProps & { callerIp: string | null }) {
  const rows = draft.allowlist;
  const field = 'settings.security.ipAllowlist';
  const listError = errorFor(field, false);
  const active = cleanAllowlist(rows);
  const stored = cleanAllowlist(baseline.allowlist);
  const setRows = (next: string[]) => update({ allowlist: next }, [field]);
  const firstSeen = new Map<string, number>();
  rows.forEach((r, i) => {
    const key = r.trim().toLowerCase();
    if (key && !firstSeen.has(key)) firstSeen.set(key, i);
  });

  const onPaste = (index: number, event: ClipboardEvent<HTMLInputElement>) => {
    const entries = splitEntries(event.clipboardData.getData('text'));
    if (entries.length < 2) return;
    event.preventDefault();
    const next = [...rows];
    next.splice(index, 1, ...entries);
    setRows(next);
  };

  const addCaller = () => {
    if (!callerIp) return;
    const next = rows.filter((r) => r.trim());
    if (!next.some((r) => r.trim() === callerIp)) next.push(callerIp);
    setRows(next);
  };

  return (
    <Card
      title="IP allowlist"
      icon="lock"
      testId="settings-security"
      actions={
        <span className="st-state" data-testid="allowlist-state">
          {stored.length === 0 ? (
            <StatusPill tone="muted">Currently off</StatusPill>
          ) : (
            <StatusPill tone="ok">
              Enforced · {stored.length} entr{stored.length === 1 ? 'y' : 'ies'}
            </StatusPill>
          )}
        </span>
      }
    >
      <Alert tone="warning" testId="allowlist-warning">
        <strong>A wrong list locks people out.</strong> While the list has entries, everyone on your partner
        team can sign in and work only from the listed addresses: anyone else is refused at sign-in and on
        every request, including you. Platform administrators and agents are not affected. Check that your
        current address is covered before you save.
      </Alert>

      <p className="muted">
        One entry per row: a single address (<span className="mono">203.0.113.7</span>,{' '}
        <span className="mono">2001:db8::1</span>) or a CIDR range (
        <span className="mono">198.51.100.0/24</span>, <span className="mono">2001:db8::/48</span>).
        IPv4-mapped IPv6 (<span className="mono">::ffff:10.0.0.0/104</span>) works too. Pasting a list into a
        row splits it into rows. An empty list turns the allowlist off.
      </p>

      <div className="st-allowlist" data-testid="allowlist">
        {rows.length === 0 ? (
          <div className="st-allow-empty muted">No entries: any address may sign in.</div>
        ) : (
          rows.map((row, i) => {
            const rowField = `${field}.${i}`;
            const check = row.trim() ? checkEntry(row) : null;
            const duplicate = row.trim() !== '' && firstSeen.get(row.trim().toLowerCase()) !== i;
            const changedHere = baseline.allowlist[i] !== row;
            const err = errorFor(rowField, changedHere);
            const state = !row.trim() ? 'blank' : err ? 'bad' : 'ok';
            return (
              <div className={`st-allow-row ${state}`} key={i} data-testid="allowlist-row">
                <span className="st-allow-icon" aria-hidden="true">
                  {state === 'ok' ? (
                    <Icon name="check" size={14} />
                  ) : state === 'bad' ? (
                    <Icon name="alert" size={14} />
                  ) : null}
                </span>
                <input
                  type="text"
                  className="mono"
                  aria-label={`Allowlist entry ${i + 1}`}
                  aria-invalid={state === 'bad'}
                  placeholder="203.0.113.0/24"
                  spellCheck={false}
                  autoComplete="off"
                  value={row}
                  autoFocus={row === '' && i === rows.length - 1 && rows.length > stored.length}
                  onChange={(e) => {
                    const next = [...rows];
                    next[i] = e.target.value;
                    setRows(next);
                  }}
                  onPaste={(e) => onPaste(i, e)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') {
                      e.preventDefault();
                      setRows([...rows.slice(0, i + 1), '', ...rows.slice(i + 1)]);
                    }
                  }}
                  data-testid="allowlist-entry"
                />
                <span className={`st-allow-note${err ? ' field-error' : ''}`} data-testid="allowlist-note">
                  {err ??
                    (duplicate
                      ? 'Duplicate: stored once'
                      : check?.ok
                        ? check.describe
                        : row.trim()
                          ? ''
                          : 'Empty row: ignored')}
                </span>
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  aria-label={`Remove entry ${i + 1}`}
                  title="Remove"
                  onClick={() => setRows(rows.filter((_, j) => j !== i))}
                  data-testid="allowlist-remove"
                >
                  <Icon name="trash" size={14} />
                </button>
              </div>
            );
          })
        )}
      </div>
      {listError ? (
        <div className="field-error" data-testid="allowlist-error">
          {listError}
        </div>
      ) : null}
      {callerIp ? (
        <div className="st-caller" data-testid="allowlist-caller">
          <span>
            Your current address, as the server sees it: <span className="mono">{callerIp}</span>
          </span>
          {active.includes(callerIp) ? null : (
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              onClick={addCaller}
              data-testid="allowlist-add-caller"
            >
              <Icon name="plus" size={14} />
              Add it
            </button>
          )}
        </div>
      ) : null}
      <div className="row gap-sm">
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          onClick={() => setRows([...rows, ''])}
          data-testid="allowlist-add"
        >
          <Icon name="plus" size={14} />
          Add entry
        </button>
        {rows.length > 0 ? (
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => setRows([])}
            data-testid="allowlist-clear"
          >
            Clear list
          </button>
        ) : null}
        <span className="muted small st-allow-count">
          {active.length === 0
            ? 'Allowlist off after saving'
            : `${active.length} entr${active.length === 1 ? 'y' : 'ies'} after saving`}
        </span>
      </div>
    </Card>
  );
}

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
