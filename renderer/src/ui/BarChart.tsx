import { useMemo } from 'react';
import uPlot from 'uplot';
import { chartValue, kitAxis, PlotChart, valueAxis, type ChartLabels } from './chart-frame';

// Columns per category (days, risks), one per series side by side, or stacked into one column. The x axis is
// the category's index; stacking draws each series from the running total of those before it (uPlot bands).

export interface BarSeries {
  label: string;
  /** One value per category, in the order of `categories`. */
  values: number[];
  /** A CSS colour or var(--token) (CHART_COLORS has the kit's); the palette's next one if absent. */
  color?: string;
}

/** Enough room between category labels that they never touch: about 48 px each. */
const LABEL_ROOM = 48;

export function BarChart({
  categories,
  series,
  stacked = false,
  legend = true,
  ...labels
}: ChartLabels & {
  categories: string[];
  series: BarSeries[];
  stacked?: boolean;
  /** The series' keys under the chart; leave out when the page says them itself. */
  legend?: boolean;
}) {
  const data = useMemo((): uPlot.AlignedData => {
    const xs = categories.map((_, i) => i);
    const running = categories.map(() => 0);
    const ys = series.map((s) =>
      categories.map((_, i) => {
        const v = s.values[i] ?? 0;
        if (!stacked) return v;
        running[i] = (running[i] ?? 0) + v;
        return running[i];
      }),
    );
    return [xs, ...ys];
  }, [categories, series, stacked]);
  const n = categories.length;
  const total = (idx: number) => series.reduce((sum, s) => sum + (s.values[idx] ?? 0), 0);

  return (
    <PlotChart
      {...labels}
      series={series}
      shape={[categories, stacked]}
      data={data}
      legend={legend}
      empty={n === 0}
      options={({ theme, width, colors }) => {
        const every = Math.max(1, Math.ceil(LABEL_ROOM / Math.max(1, (width - 44) / Math.max(1, n))));
        // Side by side, each series takes its share of the column; stacked, one bar fills most of it.
        const group = stacked ? 1 : series.length;
        return {
          cursor: { y: false, points: { show: false } },
          scales: {
            x: { time: false, range: () => [-0.5, Math.max(0, n - 0.5)] },
            y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
          },
          axes: [
            kitAxis(theme, {
              grid: { show: false },
              size: 26,
              splits: () => categories.map((_, i) => i).filter((i) => i % every === 0),
              values: (_u, splits) => splits.map((i) => categories[i] ?? ''),
            }),
            // Whole counts only: a top of 1 gets no 0.5 line.
            valueAxis(theme, chartValue, (u) => {
              const top = u.scales.y?.max ?? 1;
              const step = niceStep(top / 4);
              const out: number[] = [];
              for (let v = 0; v <= top; v += step) out.push(v);
              return out;
            }),
          ],
          series: [
            {},
            ...series.map((s, k): uPlot.Series => {
              const color = colors[k] ?? 'gray';
              return {
                label: s.label,
                stroke: color,
                fill: color,
                width: 0,
                points: { show: false },
                paths: uPlot.paths.bars?.({
                  size: [stacked ? 0.62 : 0.72 / group, 28],
                  radius: 0.15,
                  // Side by side: the k-th series' bar starts at its slot of the group (x0 is a left edge).
                  disp: stacked
                    ? undefined
                    : {
                        x0: {
                          unit: 1,
                          values: (u) => (u.data[0] as number[]).map((x) => x - 0.36 + (0.72 / group) * k),
                        },
                        size: {
                          unit: 1,
                          values: (u) => (u.data[0] as number[]).map(() => (0.72 / group) * 0.88),
                        },
                      },
                }),
              };
            }),
          ],
          // Stacked: each series' bar starts where the one before it ends.
          bands: stacked
            ? series.slice(1).map((_, k) => ({ series: [k + 2, k + 1] as [number, number] }))
            : [],
        };
      }}
      tipHead={(idx) =>
        `${categories[idx] ?? ''}${stacked && series.length > 1 ? ` · ${chartValue(total(idx))}` : ''}`
      }
      tipValue={(k, idx) => chartValue(series[k]?.values[idx] ?? 0)}
    />
  );
}

/** A round step for a value axis: 1, 2 or 5 times a power of ten, at least 1 (counts are whole). */
function niceStep(raw: number): number {
  if (raw <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  return ([1, 2, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
}
