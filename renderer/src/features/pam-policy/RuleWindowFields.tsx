import { TimeZoneOptions } from '../../ui';
import { DAY_SHORT, WEEK_ORDER, type FieldKey, type RuleDraft } from './model';

// The rule's time window: from and to (a window that ends before it starts runs over midnight), the days, and the
// time zone they are read in.

const TIMES = [
  ['windowStart', 'From', 'rule-window-start'],
  ['windowEnd', 'to', 'rule-window-end'],
] as const;

export function WindowFields({
  draft,
  set,
  error,
}: {
  draft: RuleDraft;
  set: (next: Partial<RuleDraft>, field?: FieldKey) => void;
  error?: string;
}) {
  const overnight = draft.windowEnd < draft.windowStart;
  return (
    <div className={`ep-window${error ? ' has-error' : ''}`} data-testid="rule-window-fields">
      <div className="ep-window-row">
        {TIMES.map(([key, label, testId]) => (
          <label key={key} className="ep-inline">
            <span className="muted small">{label}</span>
            <input
              type="time"
              value={draft[key]}
              onChange={(e) => set({ [key]: e.target.value }, 'window')}
              data-testid={testId}
            />
          </label>
        ))}
        <label className="ep-inline ep-zone">
          <span className="muted small">in</span>
          <select
            value={draft.windowTimezone}
            onChange={(e) => set({ windowTimezone: e.target.value }, 'window')}
            aria-label="Time zone"
            data-testid="rule-window-timezone"
          >
            <TimeZoneOptions current={draft.windowTimezone} />
          </select>
        </label>
      </div>
      <div className="ep-days" role="group" aria-label="Days">
        {WEEK_ORDER.map((d) => {
          const on = draft.windowDays.includes(d);
          return (
            <button
              key={d}
              type="button"
              aria-pressed={on}
              className={`ui-chip${on ? ' on' : ''}`}
              onClick={() =>
                set(
                  { windowDays: on ? draft.windowDays.filter((x) => x !== d) : [...draft.windowDays, d] },
                  'window',
                )
              }
              data-testid={`rule-window-day-${d}`}
            >
              {DAY_SHORT[d]}
            </button>
          );
        })}
        <span className="muted small ep-days-hint">
          {overnight ? 'Ends before it starts: runs over midnight, counted from the start day.' : null}
        </span>
      </div>
      {error ? <div className="field-error">{error}</div> : null}
    </div>
  );
}
