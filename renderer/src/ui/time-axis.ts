// The pure choices a time chart makes before uPlot draws: the span its time axis covers, the ticks on it (whole
// minutes at least, so no two say the same time), how a tick reads, and whether a series' points get markers.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Tick steps a time axis may use, shortest first: never below a minute, since a tick reads "14:05". */
const STEPS = [
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
  14 * DAY,
  30 * DAY,
];

/** The shortest span a time axis shows: a single sample sits in the middle of ten minutes. */
const MIN_SPAN = 10 * MINUTE;

/** A series with this many points or fewer draws a marker on each (one point alone draws no line at all). */
export const MARKER_LIMIT = 12;

export const needsMarkers = (points: number): boolean => points > 0 && points <= MARKER_LIMIT;

/** The span the time axis covers: the data's own, widened around its middle to at least MIN_SPAN. */
export function timeRange(min: number, max: number): [number, number] {
  if (max - min >= MIN_SPAN) return [min, max];
  const mid = (min + max) / 2;
  return [mid - MIN_SPAN / 2, mid + MIN_SPAN / 2];
}

/**
 * The ticks of a time axis `widthPx` wide over [min, max]: the shortest step that leaves `spacePx` between labels,
 * on the local clock's round times (14:00, 14:15, midnight). `offsetMinutes` is Date#getTimezoneOffset's.
 */
export function timeTicks(
  min: number,
  max: number,
  widthPx: number,
  spacePx: number,
  offsetMinutes = new Date(min).getTimezoneOffset(),
): number[] {
  const room = Math.max(1, Math.floor(widthPx / spacePx));
  const span = max - min;
  const step = STEPS.find((s) => span / s <= room) ?? STEPS[STEPS.length - 1] ?? DAY;
  // Round on local time: shift to it, round up to the step, shift back.
  const shift = -offsetMinutes * MINUTE;
  const ticks: number[] = [];
  for (let t = Math.ceil((min + shift) / step) * step - shift; t <= max; t += step) ticks.push(t);
  return ticks;
}

/** An x-axis label on one line: "14:00", or the date where a day begins ("Nov 27"). */
export function axisTime(ms: number): string {
  const d = new Date(ms);
  if (d.getHours() === 0 && d.getMinutes() === 0)
    return d.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
  return d.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
}
