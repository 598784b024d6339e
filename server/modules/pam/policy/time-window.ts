import type { PamTimeWindow } from '../../../contract';

// Time windows of PAM rules: `{start, end, days?, timezone?}` read on the wall clock of the window's time zone
// (UTC when absent). A window whose end is before its start runs over midnight, and then `days` names the day
// the window started: a Friday 22:00-06:00 window is still open at 03:00 on Saturday. start == end is all day.

export const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

// Building an Intl formatter costs far more than using one, and using one costs far more than arithmetic: a
// preview reads tens of thousands of timestamps. So a zone's UTC offset is looked up once per 15-minute slot and
// the wall clock computed from it. That is exact because every offset change of the zone database since 1970
// happens on a quarter hour in UTC (offsets are whole quarter hours, changes happen on whole local half hours).
const formatters = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, Map<number, number>>();
const SLOT_MS = 15 * 60_000;
const MAX_CACHED = 500;
const MAX_SLOTS = 50_000;

/** The formatter of a zone; throws a RangeError for a zone Intl does not know. */
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    if (formatters.size >= MAX_CACHED) formatters.clear();
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** Minutes the zone's wall clock is ahead of UTC at an instant. */
function offsetMinutes(at: number, timeZone: string): number {
  const slot = Math.floor(at / SLOT_MS);
  let zone = offsets.get(timeZone);
  if (!zone) {
    if (offsets.size >= MAX_CACHED) offsets.clear();
    zone = new Map();
    offsets.set(timeZone, zone);
  }
  let offset = zone.get(slot);
  if (offset === undefined) {
    const start = slot * SLOT_MS;
    const part: Record<string, number> = {};
    for (const p of formatterFor(timeZone).formatToParts(new Date(start))) {
      if (p.type !== 'literal') part[p.type] = Number(p.value);
    }
    const { year, month, day, hour, minute } = part;
    if ([year, month, day, hour, minute].some((v) => v === undefined || !Number.isFinite(v)))
      throw new Error(`Cannot read the wall clock of ${timeZone}`);
    offset = Math.round((Date.UTC(year!, month! - 1, day!, hour!, minute!) - start) / 60_000);
    if (zone.size >= MAX_SLOTS) zone.clear();
    zone.set(slot, offset);
  }
  return offset;
}

/** Day of week (0 Sunday) and minute of the day of an instant on a zone's wall clock. */
export function wallClock(at: Date, timeZone: string): { day: number; minute: number } {
  const local = new Date(at.getTime() + offsetMinutes(at.getTime(), timeZone) * 60_000);
  return { day: local.getUTCDay(), minute: local.getUTCHours() * 60 + local.getUTCMinutes() };
}

const minuteOf = (hhmm: string): number => {
  if (!HH_MM.test(hhmm)) throw new Error(`Invalid time of day: ${hhmm}`);
  return Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
};

export type WindowCheck = (at: Date) => boolean;

/**
 * Compiles a stored window; throws for a window that cannot be evaluated (bad time, unknown zone, bad days) so
 * that the decision chain records the request `pending` instead of guessing.
 */
export function compileTimeWindow(window: PamTimeWindow): WindowCheck {
  const start = minuteOf(window.start);
  const end = minuteOf(window.end);
  const timeZone = window.timezone ?? 'UTC';
  formatterFor(timeZone);
  const days = window.days ? new Set(window.days) : null;
  if (days && [...days].some((d) => !Number.isInteger(d) || d < 0 || d > 6))
    throw new Error(`Invalid days in time window: ${JSON.stringify(window.days)}`);
  const onDay = (day: number) => days === null || days.has(day);
  return (at) => {
    const { day, minute } = wallClock(at, timeZone);
    if (start === end) return onDay(day);
    if (start < end) return minute >= start && minute < end && onDay(day);
    if (minute >= start) return onDay(day);
    if (minute < end) return onDay((day + 6) % 7);
    return false;
  };
}
