import type { FilterCondition } from '../../server/contract/filters';
import type { FleetDevice } from './fleet';
import { fleet, live } from './filters-suite';

// The oracle of the saved-filter suites: what a condition should select, computed here from the seeded records
// rather than by the server, and the values picked from the seeded fleet that make equality cases select
// something.

// ---- the oracle -------------------------------------------------------------------------------------------------

/** SQLite's LIKE folds ASCII letters only; so does the expectation. */
export const fold = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
export const has = (s: string | null | undefined, sub: string) =>
  typeof s === 'string' && fold(s).includes(fold(sub));
export const ms = (iso: string | null | undefined) => (typeof iso === 'string' ? Date.parse(iso) : null);
export const DAY = 86_400_000;
export const dayStart = (date: string) => Date.parse(`${date}T00:00:00.000Z`);
export const monthsAgo = (now: number, n: number) => {
  const d = new Date(now);
  d.setUTCMonth(d.getUTCMonth() - n);
  return d.getTime();
};
export const daysSince = (now: number, iso: string | null) =>
  iso === null ? null : (now - Date.parse(iso)) / DAY;
export const num = (v: unknown) => (typeof v === 'number' ? v : null);

export interface Case {
  name: string;
  condition: FilterCondition;
  match: (d: FleetDevice, now: number) => boolean;
  /** The expectation may select no device (or every one) by design. */
  trivial?: boolean;
}

export const c = (
  field: string,
  operator: string,
  value: unknown,
  match: Case['match'],
  trivial?: boolean,
): Case => ({
  name: `${field} ${operator}${value === undefined ? '' : ` ${JSON.stringify(value)}`}`,
  condition: value === undefined ? { field, operator } : { field, operator, value },
  match,
  trivial,
});

function pickedValues() {
  const devices = live();
  const withUptime = devices.find((d) => d.uptimeSeconds !== null)!;
  const withRam = devices.find((d) => d.metrics.ramPercent !== null)!;
  const enrolled = devices[5]!;
  const site = fleet.sites.find((s) => devices.some((d) => d.siteId === s.id))!;
  const groups = fleet.groups.filter((g) => devices.some((d) => d.groupIds.includes(g.id)));
  return { devices, withUptime, withRam, enrolled, site, groups };
}

/** The values every case table reads, picked once the fleet is seeded. */
export function picked() {
  const { devices, withUptime, withRam, enrolled, site, groups } = pickedValues();
  const h1 = devices[0]!.hostname;
  const h2 = devices[1]!.hostname;
  const enrolledDay = enrolled.enrolledAt.slice(0, 10);
  const enrolledDays = Math.floor(daysSince(fleet.now.getTime(), enrolled.enrolledAt)!);
  const mid = new Date(fleet.now.getTime() - 120 * DAY).toISOString().slice(0, 10);
  const recent = new Date(fleet.now.getTime() - 10 * DAY).toISOString();
  const older = new Date(fleet.now.getTime() - 40 * DAY).toISOString();
  const today = fleet.now.toISOString().slice(0, 10);
  const g1 = groups[0]!.id;
  const g2 = groups[1]!.id;
  // Two tags some device carries together, in upper case: hasAll must match them case-insensitively.
  const tagPair = devices
    .find((d) => new Set(d.tags.map(fold)).size >= 2)!
    .tags.slice(0, 2)
    .map((t) => t.toUpperCase());
  const seenIp = devices.find((d) => d.lastSeenIp !== null)!.lastSeenIp!;
  const cf = (d: FleetDevice, key: string) => d.customFields[key];
  return {
    devices,
    withUptime,
    withRam,
    enrolled,
    site,
    groups,
    h1,
    h2,
    enrolledDay,
    enrolledDays,
    mid,
    recent,
    older,
    today,
    g1,
    g2,
    tagPair,
    seenIp,
    cf,
  };
}

export type Picked = ReturnType<typeof picked>;
