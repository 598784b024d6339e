import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatCount } from '../lib/format';
import './chart-tokens.css';
import './chart-frame.css';

// What TimeSeriesChart and BarChart share: the uPlot instance's life in a React element (created once per
// shape, fed new data without a rebuild, resized with its box), the colours read from the kit's CSS tokens
// (a canvas cannot use var(--x) itself), and the kit's own legend and hover tooltip (uPlot's legend table is
// hidden: ours reads like the rest of the console).

/**
 * Colours a series may use by name; any CSS colour (or var(--token)) works as well. All are the kit's chart tokens
 * (tokens.css), so a theme recolours every chart in one place.
 */
export const CHART_COLORS = {
  accent: 'var(--chart-accent)',
  ok: 'var(--chart-ok)',
  warn: 'var(--chart-warn)',
  bad: 'var(--chart-bad)',
  info: 'var(--chart-info)',
  muted: 'var(--chart-muted)',
} as const;

/** The default colour of the n-th series when it names none. */
const PALETTE = [
  CHART_COLORS.accent,
  CHART_COLORS.ok,
  CHART_COLORS.warn,
  CHART_COLORS.bad,
  'var(--chart-5)',
  'var(--chart-6)',
];

const paletteColor = (i: number, given?: string) => given ?? PALETTE[i % PALETTE.length] ?? 'gray';

/** A CSS colour as the canvas needs it: var(--x) resolved against the document's current tokens. */
function resolveColor(color: string): string {
  const m = /^var\((--[\w-]+)\)$/.exec(color.trim());
  if (!m?.[1]) return color;
  const value = getComputedStyle(document.documentElement).getPropertyValue(m[1]).trim();
  return value || 'gray';
}

/** The colour with an alpha, for an area's fill; colours it cannot parse come back unchanged. */
export function withAlpha(color: string, alpha: number): string {
  const hex = /^#([0-9a-f]{6})$/i.exec(color);
  if (hex?.[1]) {
    const n = parseInt(hex[1], 16);
    return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
  }
  const rgb = /^rgba?\(([^,]+),([^,]+),([^,)]+)/.exec(color);
  if (rgb) return `rgba(${rgb[1]},${rgb[2]},${rgb[3]}, ${alpha})`;
  return color;
}

/** A value as an axis or tooltip says it: whole counts grouped (1,204), fractions to one decimal. */
export const chartValue = (v: number) =>
  Number.isInteger(v) ? formatCount(v) : v.toFixed(Math.abs(v) < 10 ? 1 : 0);

/** The kit's tokens a chart draws with, read when the chart is built. */
export function chartTheme() {
  const css = getComputedStyle(document.documentElement);
  const token = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  const font = token('--font', 'sans-serif');
  return {
    text: token('--chart-axis', '#7b8797'),
    grid: token('--chart-grid', '#232b37'),
    axisFont: `10.5px ${font}`,
  };
}

export type ChartTheme = ReturnType<typeof chartTheme>;

/** An axis in the kit's colours: no tick marks, a faint grid (or none), muted labels. */
export function kitAxis(theme: ChartTheme, extra: uPlot.Axis = {}): uPlot.Axis {
  return {
    stroke: theme.text,
    font: theme.axisFont,
    ticks: { show: false },
    grid: { stroke: theme.grid, width: 1 },
    ...extra,
  };
}

/** The value axis on the left: room for "1,204 ms", a line every 28 px or more, each value as `format` says it. */
export function valueAxis(theme: ChartTheme, format: (v: number) => string, splits?: uPlot.Axis['splits']) {
  return kitAxis(theme, { size: 44, space: 28, splits, values: (_u, ticks) => ticks.map(format) });
}

/** Where the pointer is over the plot: the data index and the position in the chart's box (CSS pixels). */
export interface Hover {
  idx: number;
  left: number;
  top: number;
  /** Past the middle: the tooltip goes on the pointer's left so it never leaves the box. */
  flip: boolean;
}

/**
 * A uPlot chart in `box`: built by `build` (again when `shapeKey` changes: series count, colours, axes),
 * given new `data` without a rebuild, sized to the box's width and `height`, reporting the hovered point.
 */
function usePlot(
  shapeKey: string,
  build: (width: number, onHover: (h: Hover | null) => void) => Omit<uPlot.Options, 'width' | 'height'>,
  data: uPlot.AlignedData,
  height: number,
) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const [hover, setHover] = useState<Hover | null>(null);
  // The latest build and data, read by the effect that rebuilds on a shape change only.
  const latest = useRef({ build, data });
  useLayoutEffect(() => {
    latest.current = { build, data };
  });

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const width = Math.max(1, Math.floor(el.clientWidth));
    const onHover = (h: Hover | null) => setHover(h);
    const u = new uPlot({ ...latest.current.build(width, onHover), width, height }, latest.current.data, el);
    plot.current = u;
    const observer = new ResizeObserver(([entry]) => {
      const w = Math.floor(entry?.contentRect.width ?? 0);
      if (w > 0 && w !== u.width) u.setSize({ width: w, height });
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      u.destroy();
      plot.current = null;
      setHover(null);
    };
  }, [shapeKey, height]);

  useEffect(() => {
    plot.current?.setData(data);
  }, [data]);

  return { box, hover };
}

/** The hook uPlot calls as the cursor moves, turned into a Hover in the chart box's coordinates. */
function hoverHook(onHover: (h: Hover | null) => void): uPlot.Hooks.Arrays['setCursor'] {
  return [
    (u: uPlot) => {
      const { idx, left, top } = u.cursor;
      if (idx == null || left == null || top == null || left < 0) return onHover(null);
      onHover({
        idx,
        left: left + u.over.offsetLeft,
        top: top + u.over.offsetTop,
        flip: left > u.over.clientWidth / 2,
      });
    },
  ];
}

export interface LegendItem {
  label: string;
  color: string;
}

/** One line of a tooltip: the series' key, its label, its value. */
function TipRow({ color, label, value }: { color: string; label: string; value: string }) {
  return (
    <div className="ui-plot-tip-row">
      <span className="ui-plot-key" style={{ background: color }} aria-hidden="true" />
      <span className="ui-plot-tip-label">{label}</span>
      <span className="ui-plot-tip-value">{value}</span>
    </div>
  );
}

/** What every chart is told besides its data: its name for assistive technology, a test id, its height. */
export interface ChartLabels {
  ariaLabel: string;
  testId?: string;
  height?: number;
}

/**
 * A uPlot chart in the kit's frame. The chart type gives its scales, axes and series (`options`), its series'
 * keys, and what the tooltip says (`tipHead`, then one row a series with `tipValue`); the frame adds the rest
 * (no uPlot legend, padding, the hover tooltip, the legend under the plot when `legend` and there are several).
 */
export function PlotChart({
  ariaLabel,
  testId,
  height = 180,
  series,
  shape,
  data,
  legend = true,
  empty,
  options,
  tipHead,
  tipValue,
}: ChartLabels & {
  /** The series' keys: each one's label and colour (the palette's next one if it names none). */
  series: Array<{ label: string; color?: string }>;
  /** What else rebuilds the plot when it changes (axes, markers); new data alone does not, nor do the keys. */
  shape: unknown[];
  data: uPlot.AlignedData;
  legend?: boolean;
  /** Nothing to draw: "No data yet" over the plot. */
  empty: boolean;
  /** The chart's scales, axes and series; `colors` are the series' colours as the canvas needs them. */
  options: (plot: {
    theme: ChartTheme;
    width: number;
    colors: string[];
  }) => Omit<uPlot.Options, 'width' | 'height'>;
  tipHead: (idx: number) => ReactNode;
  tipValue: (series: number, idx: number) => string;
}) {
  const keys: LegendItem[] = series.map((s, i) => ({ label: s.label, color: paletteColor(i, s.color) }));
  const { box, hover } = usePlot(
    JSON.stringify([keys, shape]),
    (width, onHover) => ({
      legend: { show: false },
      padding: [8, 8, 0, 0],
      ...options({ theme: chartTheme(), width, colors: keys.map((k) => resolveColor(k.color)) }),
      hooks: { setCursor: hoverHook(onHover) },
    }),
    data,
    height,
  );
  const shown = legend ? keys : [];
  // The frame: the accessible name, the canvas box, the hover tooltip, the legend.
  return (
    <figure className="ui-plot" role="img" aria-label={ariaLabel} data-testid={testId}>
      <div className="ui-plot-area" style={{ height }}>
        <div ref={box} className="ui-plot-box" />
        {hover ? (
          <div
            className={`ui-plot-tip${hover.flip ? ' flip' : ''}`}
            style={{ left: hover.left, top: Math.max(0, Math.min(hover.top, height - 60)) }}
          >
            <div className="ui-plot-tip-head">{tipHead(hover.idx)}</div>
            {keys.map((key, i) => (
              <TipRow key={key.label} color={key.color} label={key.label} value={tipValue(i, hover.idx)} />
            ))}
          </div>
        ) : null}
        {empty ? <div className="ui-plot-empty">No data yet</div> : null}
      </div>
      {shown.length > 1 ? (
        <figcaption className="ui-plot-legend">
          {shown.map((s) => (
            <span key={s.label}>
              <span className="ui-plot-key" style={{ background: s.color }} aria-hidden="true" />
              {s.label}
            </span>
          ))}
        </figcaption>
      ) : null}
    </figure>
  );
}
