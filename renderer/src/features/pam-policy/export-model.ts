import {
  ELEVATION_EVENT_TYPES,
  ELEVATION_EXPORT_LIMITS,
  type ElevationEventType,
  type ElevationExportQuery,
} from '../../../../server/contract';

// The elevation audit export without its screen: time windows, id filters, paging and the saved file.

// /pam/export: the elevation audit trail of one organization as one CSV or JSONL file. The server answers in
// pages of up to 1,000 rows and a cursor; the console follows the cursor page after page, shows the rows so far,
// and saves everything as one file. The last page's headers say whether the window is complete or only settled
// through an earlier time (events still arriving near the end of the window).

export const PAGE_LIMIT = ELEVATION_EXPORT_LIMITS.maxLimit;

export const MAX_WINDOW_DAYS = ELEVATION_EXPORT_LIMITS.maxWindowDays;

/** A runaway cursor must not loop forever. */
export const MAX_PAGES = 10_000;

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type Format = 'csv' | 'jsonl';

export const EVENT_LABEL: Record<ElevationEventType, string> = {
  'elevation.requested': 'Requested',
  'elevation.auto_approved': 'Auto-approved',
  'elevation.approved': 'Approved',
  'elevation.denied': 'Denied',
  'elevation.actuating': 'Actuating',
  'elevation.enforcement_changed': 'Enforcement changed',
  'elevation.revoked': 'Revoked',
  'elevation.expired': 'Expired',
};

export const EVENT_TYPES: readonly ElevationEventType[] = ELEVATION_EVENT_TYPES;

/** `<input type="datetime-local">` value of a time, to the minute, in the browser's zone. */
export function toLocalInput(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** The window of the last `days` days, ending now, as input values. */
export function lastDays(days: number): { from: string; to: string } {
  // Inputs hold whole minutes: end at the next one, so events of the last seconds are inside the window.
  const end = Math.ceil((Date.now() + 1) / 60_000) * 60_000;
  return { from: toLocalInput(end - days * 86_400_000), to: toLocalInput(end) };
}

export function offsetOf(date: Date): string {
  const minutes = -date.getTimezoneOffset();
  const sign = minutes >= 0 ? '+' : '-';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** A local input value as ISO 8601 with the local offset of that moment (DST aware), or null. */
export function localToOffsetIso(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return null;
  const seconds = value.length === 16 ? `${value}:00` : value;
  return `${seconds}${offsetOf(d)}`;
}

/** The optional id filters: the query parameter, the field, and what a value that is not a UUID is told. */
export const ID_FILTERS = [
  {
    param: 'deviceId',
    id: 'export-device',
    label: 'Device id',
    placeholder: 'All devices',
    invalid: 'A device id is a UUID.',
  },
  {
    param: 'elevationRequestId',
    id: 'export-request',
    label: 'Request id',
    placeholder: 'All requests',
    invalid: 'A request id is a UUID.',
  },
] as const;

export type IdParam = (typeof ID_FILTERS)[number]['param'];

export function zoneName(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return '';
  }
}

/** One export: the query of its first page and how its file is named. */
export interface Job {
  query: ElevationExportQuery;
  format: Format;
  fileBase: string;
  part: number;
}

export interface Progress {
  state: 'running' | 'done' | 'empty' | 'failed' | 'cancelled';
  rows: number;
  pages: number;
  part: number;
  resume?: { job: Job; cursor: string } | null;
  fileName?: string;
  windowComplete?: boolean | null;
  settledThrough?: string | null;
  schemaVersion?: string | null;
  error?: unknown;
}

export function stamp(value: string): string {
  return value.replace(/[-:]/g, '').replace('T', '-').slice(0, 13);
}

export function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'organization'
  );
}
