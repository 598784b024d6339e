import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatCount } from '../lib/format';
import './chart-frame.css';

// What TimeSeriesChart and BarChart share: the uPlot instance's life in a React element (created once per
// shape, fed new data without a rebuild, resized with its box), the colours read from the kit's CSS tokens
// (a canvas cannot use var(--x) itself), and the kit's own legend and hover tooltip (uPlot's legend table is
// hidden: ours reads like the rest of the console).

/** Colours a series may use by name; any CSS colour (or var(--token)) works as well. */
export const CHART_COLORS = {
  accent: 'var(--accent-strong)',
  ok: 'var(--ok)',
  warn: 'var(--warn)',
  bad: 'var(--bad)',
  info: 'var(--info)',
  muted: 'var(--faint)',
} as const;

/** The default colour of the n-th series when it names none. */
const PALETTE = [
  CHART_COLORS.accent,
  CHART_COLORS.ok,
  CHART_COLORS.warn,
  CHART_COLORS.bad,
  '#a78bfa',
  '#2dd4bf',
];

export const paletteColor = (i: number, given?: string) => given ?? PALETTE[i % PALETTE.length] ?? 'gray';

/** A CSS colour as the canvas needs it: var(--x) resolved against the document's current tokens. */
export function resolveColor(color: string): string {
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
    text: token('--muted', '#7b8797'),
    grid: token('--border', '#232b37'),
    axisFont: `10.5px ${font}`,
  };
}

/** An axis in the kit's colours: no tick marks, a faint grid (or none), muted labels. */
export function kitAxis(theme: ReturnType<typeof chartTheme>, extra: uPlot.Axis = {}): uPlot.Axis {
  return {
    stroke: theme.text,
    font: theme.axisFont,
    ticks: { show: false },
    grid: { stroke: theme.grid, width: 1 },
    ...extra,
  };
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
export function usePlot(
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
export function hoverHook(onHover: (h: Hover | null) => void): uPlot.Hooks.Arrays['setCursor'] {
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

/** The frame around a chart: its accessible name, the canvas box, the hover tooltip, the legend. */
export function ChartFrame({
  ariaLabel,
  box,
  height,
  hover,
  tooltip,
  legend,
  empty,
  testId,
}: {
  ariaLabel: string;
  box: React.RefObject<HTMLDivElement | null>;
  height: number;
  hover: Hover | null;
  tooltip: (idx: number) => ReactNode;
  legend: LegendItem[];
  /** Shown over the plot when there is nothing to draw. */
  empty?: string;
  testId?: string;
}) {
  return (
    <figure className="ui-plot" role="img" aria-label={ariaLabel} data-testid={testId}>
      <div className="ui-plot-area" style={{ height }}>
        <div ref={box} className="ui-plot-box" />
        {hover ? (
          <div
            className={`ui-plot-tip${hover.flip ? ' flip' : ''}`}
            style={{ left: hover.left, top: Math.max(0, Math.min(hover.top, height - 60)) }}
          >
            {tooltip(hover.idx)}
          </div>
        ) : null}
        {empty ? <div className="ui-plot-empty">{empty}</div> : null}
      </div>
      {legend.length > 1 ? (
        <figcaption className="ui-plot-legend">
          {legend.map((s) => (
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

/** One line of a tooltip: the series' key, its label, its value. */
export function TipRow({ color, label, value }: { color: string; label: string; value: string }) {
  return (
    <div className="ui-plot-tip-row">
      <span className="ui-plot-key" style={{ background: color }} aria-hidden="true" />
      <span className="ui-plot-tip-label">{label}</span>
      <span className="ui-plot-tip-value">{value}</span>
    </div>
  );
}
