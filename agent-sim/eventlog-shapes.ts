import type { LiveLevel, LogName } from './event-catalog';

// How each simulated log is sized, how long it reaches back and what it is called per operating system, and the
// small helpers the store uses to time, render and query its records.

export interface LogShape {
  /** Records present when the log is first opened. */
  initial: [number, number];
  /** How far back the initial records reach. */
  spanDays: number;
  maxSize: number;
  retentionDays: number;
  /** How likely a new record lands in this log rather than another. */
  activity: number;
  /** The most records the log holds; older ones roll off as new ones arrive ("overwrite as needed"). */
  capacity: number;
}

export const SHAPES: Record<LogName, LogShape> = {
  Application: {
    initial: [180, 420],
    spanDays: 14,
    maxSize: 20_971_520,
    retentionDays: 0,
    activity: 3,
    capacity: 800,
  },
  System: {
    initial: [250, 500],
    spanDays: 14,
    maxSize: 20_971_520,
    retentionDays: 0,
    activity: 4,
    capacity: 900,
  },
  Security: {
    initial: [300, 600],
    spanDays: 4,
    maxSize: 134_217_728,
    retentionDays: 0,
    activity: 6,
    capacity: 1000,
  },
  Setup: {
    initial: [60, 160],
    spanDays: 60,
    maxSize: 1_052_672,
    retentionDays: 0,
    activity: 0.4,
    capacity: 300,
  },
};

export const DISPLAY: Record<'windows' | 'macos' | 'linux', Record<LogName, string>> = {
  windows: { Application: 'Application', System: 'System', Security: 'Security', Setup: 'Setup' },
  linux: {
    Application: 'Application (journal: user units)',
    System: 'System (journal: kernel, daemons)',
    Security: 'Security (auth.log)',
    Setup: 'Setup (apt and dpkg)',
  },
  macos: {
    Application: 'Application (unified log)',
    System: 'System (unified log)',
    Security: 'Security (unified log: auth)',
    Setup: 'Setup (install.log)',
  },
};

/** A cheap integer hash (for timing wobble; content uses the seeded Rng). */
export function mix32(x: number): number {
  let h = x >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

export const escapeXml = (s: string) =>
  s.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
  );

/** Live levels accepted in queries, including the stored-log spelling (`info`) and Event Viewer's numbers. */
export const LEVEL_ALIASES: Record<string, LiveLevel> = {
  information: 'information',
  info: 'information',
  '4': 'information',
  '0': 'information',
  warning: 'warning',
  warn: 'warning',
  '3': 'warning',
  error: 'error',
  '2': 'error',
  critical: 'critical',
  '1': 'critical',
  verbose: 'verbose',
  '5': 'verbose',
};
