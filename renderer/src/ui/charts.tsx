import { useEffect, useRef, useState } from 'react';
import { formatCount } from '../lib/format';
import './charts.css';

// Two small charts drawn by hand (SVG and CSS; no chart library for two shapes): a day histogram whose columns
// may stack several series (events per day by result), and a list of horizontal bars (failures per actor).
// Each says its numbers in text too: a column's title, a bar's value.

/** The colour of a series or bar: the status tones, plus the accent for plain counts. */
export type ChartTone = 'accent' | 'ok' | 'warn' | 'bad' | 'muted';

export interface ChartSeries {
  label: string;
  tone: ChartTone;
}

/** One day (YYYY-MM-DD, UTC) and its count per series, in the order of the chart's `series`. */
export interface DayColumn {
  day: string;
  values: number[];
}

/** The width of an element, followed as it resizes (charts draw in real pixels so their text stays crisp). */
function useWidth<T extends HTMLElement>(): [React.RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.floor(entry.contentRect.width));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

/** A round top for the axis: 1, 2 or 5 times a power of ten, at or above `max`. */
function niceCeiling(max: number): number {
  if (max <= 4) return Math.max(1, Math.ceil(max));
  const power = 10 ** Math.floor(Math.log10(max));
  const step = [1, 2, 5, 10].find((m) => m * power >= max) ?? 10;
  return step * power;
}

const dayLabel = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });

const PAD = { top: 8, right: 4, bottom: 22, left: 34 };

export function DayHistogram({
  label,
  days,
  series,
  height = 160,
  testId,
}: {
  label: string;
  days: DayColumn[];
  series: ChartSeries[];
  height?: number;
  testId?: string;
}) {
  const [box, width] = useWidth<HTMLDivElement>();
  const totals = days.map((d) => d.values.reduce((a, b) => a + b, 0));
  const top = niceCeiling(Math.max(0, ...totals));
  const plotW = Math.max(0, width - PAD.left - PAD.right);
  const plotH = height - PAD.top - PAD.bottom;
  const slot = days.length ? plotW / days.length : 0;
  const barW = Math.max(1, Math.min(28, slot * 0.72));
  const y = (v: number) => PAD.top + plotH - (v / top) * plotH;
  // Enough room between day labels that they never touch: about 44 px each.
  const every = Math.max(1, Math.ceil(44 / Math.max(slot, 1)));
  // Whole counts only: a top of 1 gets no 0.5 line.
  const ticks = [0, top / 2, top].filter((t) => Number.isInteger(t));

  return (
    <figure className="ui-chart" data-testid={testId}>
      <div ref={box} className="ui-chart-box" style={{ height }}>
        {width > 0 ? (
          <svg width={width} height={height} role="img" aria-label={label}>
            {ticks.map((t) => (
              <g key={t} className="ui-chart-grid">
                <line x1={PAD.left} x2={width - PAD.right} y1={y(t)} y2={y(t)} />
                <text x={PAD.left - 6} y={y(t)} dy="0.32em" textAnchor="end">
                  {formatCount(Math.round(t))}
                </text>
              </g>
            ))}
            {days.map((d, i) => {
              const x = PAD.left + i * slot + (slot - barW) / 2;
              let base = 0;
              const total = totals[i] ?? 0;
              const parts = series
                .map((s, k) => `${formatCount(d.values[k] ?? 0)} ${s.label.toLowerCase()}`)
                .join(', ');
              return (
                <g key={d.day} data-day={d.day} data-total={total}>
                  <title>{`${dayLabel(d.day)}: ${series.length > 1 ? parts : formatCount(total)}`}</title>
                  {/* The whole slot answers the hover, not only the (maybe tiny) column. */}
                  <rect
                    x={PAD.left + i * slot}
                    y={PAD.top}
                    width={slot}
                    height={plotH}
                    className="ui-chart-hit"
                  />
                  {series.map((s, k) => {
                    const v = d.values[k] ?? 0;
                    if (v <= 0) return null;
                    const y0 = y(base);
                    base += v;
                    return (
                      <rect
                        key={s.label}
                        x={x}
                        y={y(base)}
                        width={barW}
                        height={Math.max(1, y0 - y(base))}
                        rx={Math.min(2, barW / 4)}
                        className={`ui-chart-fill ui-tone-${s.tone}`}
                      />
                    );
                  })}
                  {i % every === 0 ? (
                    <text x={x + barW / 2} y={height - 6} textAnchor="middle" className="ui-chart-axis">
                      {dayLabel(d.day)}
                    </text>
                  ) : null}
                </g>
              );
            })}
          </svg>
        ) : null}
      </div>
      {series.length > 1 ? <ChartLegend series={series} /> : null}
    </figure>
  );
}

export function ChartLegend({ series }: { series: ChartSeries[] }) {
  return (
    <figcaption className="ui-chart-legend">
      {series.map((s) => (
        <span key={s.label}>
          <span className={`ui-chart-key ui-tone-${s.tone}`} aria-hidden="true" />
          {s.label}
        </span>
      ))}
    </figcaption>
  );
}

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
