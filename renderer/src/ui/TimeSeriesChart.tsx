import { useMemo } from 'react';
import uPlot from 'uplot';
import {
  ChartFrame,
  chartTheme,
  chartValue,
  hoverHook,
  kitAxis,
  paletteColor,
  resolveColor,
  TipRow,
  usePlot,
  withAlpha,
} from './chart-frame';

// Values over time as lines with a soft area under each (presence, CPU, counts per hour). Points are
// [epochMs, value]; series may be sampled at different times (they are joined on one time axis).

export interface TimeSeries {
  label: string;
  points: Array<[number, number]>;
  /** A CSS colour or var(--token) (CHART_COLORS has the kit's); the palette's next one if absent. */
  color?: string;
}

const timeLabel = (ms: number) =>
  new Date(ms).toLocaleString(undefined, {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });

export function TimeSeriesChart({
  series,
  unit,
  yMax,
  height = 180,
  ariaLabel,
  testId,
}: {
  series: TimeSeries[];
  /** Said after each value ("%", " ms"): in the axis and the tooltip. */
  unit?: string;
  /** A fixed top for the value axis (100 for a percentage); the data's own top, rounded, if absent. */
  yMax?: number;
  height?: number;
  ariaLabel: string;
  testId?: string;
}) {
  const data = useMemo(
    () =>
      uPlot.join(
        series.map((s) => {
          const sorted = [...s.points].sort((a, b) => a[0] - b[0]);
          return [sorted.map((p) => p[0]), sorted.map((p) => p[1])] as uPlot.AlignedData;
        }),
      ),
    [series],
  );
  const colors = series.map((s, i) => paletteColor(i, s.color));
  const suffix = unit ?? '';
  const shapeKey = JSON.stringify([series.map((s) => s.label), colors, unit, yMax]);

  const { box, hover } = usePlot(
    shapeKey,
    (_width, onHover) => {
      const theme = chartTheme();
      return {
        ms: 1,
        legend: { show: false },
        cursor: { y: false, points: { size: 7 } },
        padding: [8, 8, 0, 0],
        scales: {
          x: { time: true },
          y: { range: (_u, _min, max) => [0, yMax ?? (max > 0 ? max * 1.1 : 1)] },
        },
        axes: [
          kitAxis(theme, { grid: { show: false }, space: 70 }),
          kitAxis(theme, {
            size: 44,
            space: 28,
            values: (_u, splits) => splits.map((v) => `${chartValue(v)}${suffix}`),
          }),
        ],
        series: [
          {},
          ...series.map((s, i): uPlot.Series => {
            const stroke = resolveColor(colors[i] ?? 'gray');
            return {
              label: s.label,
              stroke,
              width: 1.75,
              fill: withAlpha(stroke, series.length > 1 ? 0.06 : 0.14),
              // Joined series have holes where another was sampled: draw across them.
              spanGaps: true,
              points: { show: false },
            };
          }),
        ],
        hooks: { setCursor: hoverHook(onHover) },
      };
    },
    data,
    height,
  );

  const xs = data[0];
  return (
    <ChartFrame
      ariaLabel={ariaLabel}
      testId={testId}
      box={box}
      height={height}
      hover={hover}
      empty={xs.length === 0 ? 'No data yet' : undefined}
      legend={series.map((s, i) => ({ label: s.label, color: colors[i] ?? 'gray' }))}
      tooltip={(idx) => (
        <>
          <div className="ui-plot-tip-head">{timeLabel(xs[idx] ?? 0)}</div>
          {series.map((s, i) => {
            const v = data[i + 1]?.[idx];
            return (
              <TipRow
                key={s.label}
                color={colors[i] ?? 'gray'}
                label={s.label}
                value={v == null ? '—' : `${chartValue(v)}${suffix}`}
              />
            );
          })}
        </>
      )}
    />
  );
}
