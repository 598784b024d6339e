import { SmallButton } from '../../ui/SmallButton';
import { Card } from '../../ui/basics';
import { TextField } from '../../ui/fields';
import { RadioCards } from '../../ui';
import { DAYS, type Day, type DayDraft, type Preset } from './model';
import type { SectionProps } from './sections';

// Settings: business hours (presets, per-day windows) and the contact fields.

// ---- Business hours ---------------------------------------------------------------------------------------------

export const PRESETS: Array<{ value: Preset; title: string; desc: string }> = [
  { value: '24/7', title: '24/7', desc: 'Always within business hours' },
  { value: 'business', title: 'Business hours', desc: 'The standard weekday office-hours schedule' },
  { value: 'extended', title: 'Extended hours', desc: 'The extended-coverage schedule beyond office hours' },
  { value: 'custom', title: 'Custom', desc: 'Your own start and end time for each day' },
];

export const DAY_LABEL: Record<Day, string> = {
  monday: 'Monday',
  tuesday: 'Tuesday',
  wednesday: 'Wednesday',
  thursday: 'Thursday',
  friday: 'Friday',
  saturday: 'Saturday',
  sunday: 'Sunday',
};

/** The two times of a day's window, one input each (`hours-<day>-start`, `hours-<day>-end`). */
const EDGES = ['start', 'end'] as const;

export function duration(day: DayDraft): string {
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
              <tr className="ui-col-heads">
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
                    {EDGES.map((edge) => (
                      <td key={edge}>
                        <input
                          type="time"
                          aria-label={`${DAY_LABEL[d]} ${edge}`}
                          value={day[edge]}
                          disabled={day.closed}
                          onChange={(e) => setDay(d, { [edge]: e.target.value })}
                          data-testid={`hours-${d}-${edge}`}
                        />
                      </td>
                    ))}
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
            <SmallButton tone="ghost" icon="copy" onClick={copyMondayToWeekdays} testId="hours-copy-monday">
              Copy Monday to Tuesday–Friday
            </SmallButton>
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

export type ContactKey = 'contactName' | 'contactEmail' | 'contactPhone' | 'contactWebsite';

/** One contact input: `settings-contact-<name>` is its id and test id, `settings.contact.<name>` its server field. */
interface ContactInput {
  name: string;
  draftKey: ContactKey;
  label: string;
  type: string;
  placeholder?: string;
  maxLength: number;
}

const CONTACT_INPUTS: ContactInput[] = [
  { name: 'name', draftKey: 'contactName', label: 'Contact name', type: 'text', maxLength: 255 },
  { name: 'email', draftKey: 'contactEmail', label: 'Email', type: 'email', maxLength: 255 },
  { name: 'phone', draftKey: 'contactPhone', label: 'Phone', type: 'tel', maxLength: 50 },
  {
    name: 'website',
    draftKey: 'contactWebsite',
    label: 'Website',
    type: 'url',
    placeholder: 'https://',
    maxLength: 2048,
  },
];

function ContactField({
  input: { name, draftKey, ...attributes },
  draft,
  baseline,
  update,
  errorFor,
}: SectionProps & { input: ContactInput }) {
  const field = `settings.contact.${name}`;
  return (
    <TextField
      {...attributes}
      id={`settings-contact-${name}`}
      value={draft[draftKey]}
      onChange={(value) => update({ [draftKey]: value }, [field])}
      error={errorFor(field, draft[draftKey] !== baseline[draftKey])}
    />
  );
}

export function ContactSection(props: SectionProps) {
  return (
    <Card title="Contact" icon="mail" testId="settings-contact">
      <p className="muted">The main contact for your partner account. Leave a field empty to clear it.</p>
      <div className="adm-form-grid">
        {CONTACT_INPUTS.map((input) => (
          <ContactField key={input.name} input={input} {...props} />
        ))}
      </div>
    </Card>
  );
}
