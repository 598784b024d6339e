import { useMemo } from 'react';
import uPlot from 'uplot';
import { chartValue, kitAxis, PlotChart, valueAxis, withAlpha, type ChartLabels } from './chart-frame';
import { axisTime, needsMarkers, timeRange, timeTicks } from './time-axis';

// Values over time as lines with a soft area under each (presence, CPU, counts per hour). Points are
// [epochMs, value]; series may be sampled at different times (they are joined on one time axis). A short series
// still reads: its points get markers (one point alone is a dot), and the time axis ticks whole, distinct minutes.

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

/** Room between two time labels ("12:45 PM"), in CSS pixels. */
const TIME_LABEL_ROOM = 64;

export function TimeSeriesChart({
  series,
  unit,
  yMax,
  ...labels
}: ChartLabels & {
  series: TimeSeries[];
  /** Said after each value ("%", " ms"): in the axis and the tooltip. */
  unit?: string;
  /** A fixed top for the value axis (100 for a percentage); the data's own top, rounded, if absent. */
  yMax?: number;
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
  const markers = series.map((s) => needsMarkers(s.points.length));
  const format = (v: number) => `${chartValue(v)}${unit ?? ''}`;
  const xs = data[0];

  return (
    <PlotChart
      {...labels}
      series={series}
      shape={[unit, yMax, markers]}
      data={data}
      empty={xs.length === 0}
      options={({ theme, colors }) => ({
        ms: 1,
        cursor: { y: false, points: { size: 7 } },
        scales: {
          x: { time: true, range: (_u, min, max) => timeRange(min, max) },
          y: { range: (_u, _min, max) => [0, yMax ?? (max > 0 ? max * 1.1 : 1)] },
        },
        axes: [
          kitAxis(theme, {
            grid: { show: false },
            space: TIME_LABEL_ROOM,
            size: 26,
            // Whole minutes on the local clock: a short series never repeats one minute along the axis.
            splits: (u, _axis, min, max) => timeTicks(min, max, u.width, TIME_LABEL_ROOM),
            values: (_u, splits) => splits.map(axisTime),
          }),
          valueAxis(theme, format),
        ],
        series: [
          {},
          ...series.map((s, i): uPlot.Series => {
            const stroke = colors[i] ?? 'gray';
            return {
              label: s.label,
              stroke,
              width: 1.75,
              fill: withAlpha(stroke, series.length > 1 ? 0.06 : 0.14),
              // Joined series have holes where another was sampled: draw across them.
              spanGaps: true,
              points: markers[i] ? { show: true, size: 6, fill: stroke, stroke } : { show: false },
            };
          }),
        ],
      })}
      tipHead={(idx) => timeLabel(xs[idx] ?? 0)}
      tipValue={(i, idx) => {
        const v = data[i + 1]?.[idx];
        return v == null ? '—' : format(v);
      }}
    />
  );
}
