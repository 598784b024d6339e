import type { PamTimeWindow } from '../../../contract';

// Time windows of PAM rules: `{start, end, days?, timezone?}` read on the wall clock of the window's time zone
// (UTC when absent). A window whose end is before its start runs over midnight, and then `days` names the day
// the window started: a Friday 22:00-06:00 window is still open at 03:00 on Saturday. start == end is all day.

export const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

// Building an Intl formatter costs far more than using one; a preview evaluates thousands of timestamps.
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The formatter of a zone; throws a RangeError for a zone Intl does not know. */
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
    });
    if (formatters.size > 500) formatters.clear();
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

const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

/** Day of week (0 Sunday) and minute of the day of an instant on a zone's wall clock. */
export function wallClock(at: Date, timeZone: string): { day: number; minute: number } {
  let day = -1;
  let hour = -1;
  let minute = -1;
  for (const part of formatterFor(timeZone).formatToParts(at)) {
    if (part.type === 'weekday') day = WEEKDAYS[part.value] ?? -1;
    else if (part.type === 'hour') hour = Number(part.value);
    else if (part.type === 'minute') minute = Number(part.value);
  }
  if (day < 0 || !(hour >= 0) || !(minute >= 0)) throw new Error(`Cannot read the wall clock of ${timeZone}`);
  return { day, minute: hour * 60 + minute };
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
