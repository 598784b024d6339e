import { formatCount } from '../lib/format';
import './charts.css';

// A list of horizontal bars (failures per actor, events per category): a labelled row each, drawn in CSS, its
// number said in text beside it. Charts over an axis (time, days) are TimeSeriesChart and BarChart, on uPlot.

/** The colour of a bar: the status tones, plus the accent for plain counts. */
export type ChartTone = 'accent' | 'ok' | 'warn' | 'bad' | 'muted';

export interface BarRow {
  key: string;
  label: string;
  /** A second line under the label (a role, an email). */
  sub?: string;
  value: number;
  tone?: ChartTone;
}

/** Horizontal bars, longest first as given, each with its label and count; `max` fixes the scale. */
export function BarList({
  label,
  rows,
  max,
  testId,
  unit,
}: {
  label: string;
  rows: BarRow[];
  max?: number;
  testId?: string;
  /** What a value counts, for the hover title ("failures"). */
  unit?: string;
}) {
  const top = Math.max(1, max ?? Math.max(0, ...rows.map((r) => r.value)));
  return (
    <ul className="ui-bars" aria-label={label} data-testid={testId}>
      {rows.map((r) => (
        <li key={r.key} className="ui-bar-row" data-key={r.key} data-value={r.value}>
          <span className="ui-bar-label" title={r.sub ? `${r.label} · ${r.sub}` : r.label}>
            {r.label}
            {r.sub ? <span className="ui-bar-sub">{r.sub}</span> : null}
          </span>
          <span className="ui-bar-track" title={unit ? `${formatCount(r.value)} ${unit}` : undefined}>
            <span
              className={`ui-bar-fill ui-tone-${r.tone ?? 'accent'}`}
              style={{ width: `${(Math.max(0, r.value) / top) * 100}%` }}
            />
          </span>
          <span className="ui-bar-value">{formatCount(r.value)}</span>
        </li>
      ))}
    </ul>
  );
}
