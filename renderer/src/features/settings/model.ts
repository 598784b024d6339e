import {
  WEEKDAYS,
  type BusinessDay,
  type OwnPartnerPatch,
  type Partner,
  type PartnerSettings,
  type ServiceManagementMode,
  type Weekday,
} from '../../../../server/contract';
import { ApiError } from '../../lib/api/client';
import { checkEntry } from './ip-allowlist';

// The settings form as plain strings, how it differs from the stored partner, and the PATCH that sends only what
// changed. Settings merge key by key on the server (nested objects too; a business day and the allowlist are
// replaced whole), so a patch carries just the changed leaves.

/** The week as the contract lists it, Monday first. */
export const DAYS = WEEKDAYS;
export type Day = Weekday;
export type Preset = '24/7' | 'business' | 'extended' | 'custom';
export type SectionId = 'general' | 'hours' | 'contact' | 'security' | 'service';

export interface DayDraft {
  start: string;
  end: string;
  closed: boolean;
}

export interface Draft {
  name: string;
  billingEmail: string;
  timezone: string;
  dateFormat: string;
  timeFormat: string;
  language: string;
  preset: Preset | '';
  custom: Record<Day, DayDraft>;
  contactName: string;
  contactEmail: string;
  contactPhone: string;
  contactWebsite: string;
  allowlist: string[];
  mode: ServiceManagementMode;
  psa: string;
}

/** The schedule a custom week starts from: weekdays 09:00-17:00, weekend closed. */
function defaultDay(day: Day): DayDraft {
  const weekend = day === 'saturday' || day === 'sunday';
  return { start: '09:00', end: '17:00', closed: weekend };
}

function dayFrom(stored: BusinessDay | undefined, day: Day): DayDraft {
  if (!stored) return defaultDay(day);
  return { start: stored.start, end: stored.end, closed: stored.closed === true };
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

export function draftOf(p: Partner): Draft {
  const s: PartnerSettings = p.settings ?? {};
  const custom = s.businessHours?.custom ?? {};
  return {
    name: p.name,
    billingEmail: p.billingEmail ?? '',
    timezone: str(s.timezone),
    dateFormat: str(s.dateFormat),
    timeFormat: str(s.timeFormat),
    language: str(s.language),
    preset: s.businessHours?.preset ?? '',
    custom: Object.fromEntries(DAYS.map((d) => [d, dayFrom(custom[d], d)])) as Record<Day, DayDraft>,
    contactName: str(s.contact?.name),
    contactEmail: str(s.contact?.email),
    contactPhone: str(s.contact?.phone),
    contactWebsite: str(s.contact?.website),
    allowlist: Array.isArray(s.security?.ipAllowlist) ? [...s.security.ipAllowlist] : [],
    // Gatehouse has no service desk of its own, so the spec's default `native` means what `off` means here: no
    // tickets. The page shows both as "None" and writes `off` only when someone chooses it.
    mode: p.serviceManagementMode === 'external' ? 'external' : 'off',
    psa: p.serviceManagementPsaConnectionId ?? '',
  };
}

/** Allowlist rows as they would be stored: trimmed, blank rows dropped. */
export function cleanAllowlist(rows: string[]): string[] {
  return rows.map((r) => r.trim()).filter(Boolean);
}

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

export function changedSections(before: Draft, after: Draft): Set<SectionId> {
  const out = new Set<SectionId>();
  if (
    before.name !== after.name ||
    before.billingEmail !== after.billingEmail ||
    before.timezone !== after.timezone ||
    before.dateFormat !== after.dateFormat ||
    before.timeFormat !== after.timeFormat ||
    before.language !== after.language
  )
    out.add('general');
  if (before.preset !== after.preset || JSON.stringify(before.custom) !== JSON.stringify(after.custom))
    out.add('hours');
  if (
    before.contactName !== after.contactName ||
    before.contactEmail !== after.contactEmail ||
    before.contactPhone !== after.contactPhone ||
    before.contactWebsite !== after.contactWebsite
  )
    out.add('contact');
  if (!sameList(cleanAllowlist(before.allowlist), cleanAllowlist(after.allowlist))) out.add('security');
  if (before.mode !== after.mode || (after.mode === 'external' && before.psa !== after.psa))
    out.add('service');
  return out;
}

/** The PATCH /orgs/partners/me body: only changed keys, down to the changed leaf. */
export function buildPatch(before: Draft, after: Draft): OwnPartnerPatch {
  const body: OwnPartnerPatch = {};
  const settings: Record<string, unknown> = {};
  if (after.name.trim() !== before.name) body.name = after.name.trim();
  if (after.billingEmail.trim() !== before.billingEmail)
    body.billingEmail = after.billingEmail.trim() || null;
  for (const key of ['timezone', 'dateFormat', 'timeFormat', 'language'] as const) {
    if (after[key] !== before[key] && after[key]) settings[key] = after[key];
  }
  const hours: Record<string, unknown> = {};
  if (after.preset !== before.preset && after.preset) hours.preset = after.preset;
  if (after.preset === 'custom') {
    const days: Record<string, BusinessDay> = {};
    for (const d of DAYS) {
      // The whole week goes when custom is newly chosen (the server needs a schedule); otherwise changed days.
      if (
        before.preset !== 'custom' ||
        JSON.stringify(before.custom[d]) !== JSON.stringify(after.custom[d])
      ) {
        const day = after.custom[d];
        days[d] = day.closed
          ? { start: day.start, end: day.end, closed: true }
          : { start: day.start, end: day.end };
      }
    }
    if (Object.keys(days).length) hours.custom = days;
  }
  if (Object.keys(hours).length) settings.businessHours = hours;
  const contact: Record<string, string> = {};
  if (after.contactName.trim() !== before.contactName) contact.name = after.contactName.trim();
  if (after.contactEmail.trim() !== before.contactEmail) contact.email = after.contactEmail.trim();
  if (after.contactPhone.trim() !== before.contactPhone) contact.phone = after.contactPhone.trim();
  if (after.contactWebsite.trim() !== before.contactWebsite) contact.website = after.contactWebsite.trim();
  if (Object.keys(contact).length) settings.contact = contact;
  const list = cleanAllowlist(after.allowlist);
  if (!sameList(cleanAllowlist(before.allowlist), list)) settings.security = { ipAllowlist: list };
  if (Object.keys(settings).length) body.settings = settings;
  if (after.mode !== before.mode) {
    body.serviceManagementMode = after.mode;
    // The PSA connection id is required for external and must be null for the other modes.
    if (after.mode === 'external') body.serviceManagementPsaConnectionId = after.psa.trim();
    else if (before.psa) body.serviceManagementPsaConnectionId = null;
  } else if (after.mode === 'external' && after.psa.trim() !== before.psa) {
    body.serviceManagementPsaConnectionId = after.psa.trim();
  }
  return body;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Field errors keyed like the server's paths (`settings.contact.email`, `settings.security.ipAllowlist.2`). */
export function validateDraft(d: Draft): Record<string, string> {
  const e: Record<string, string> = {};
  if (!d.name.trim()) e.name = 'Name is required';
  else if (d.name.trim().length > 255) e.name = 'At most 255 characters';
  if (d.billingEmail.trim() && !EMAIL.test(d.billingEmail.trim())) e.billingEmail = 'Not an email address';
  if (d.contactEmail.trim() && !EMAIL.test(d.contactEmail.trim()))
    e['settings.contact.email'] = 'Not an email address';
  if (d.contactWebsite.trim() && !isWebUrl(d.contactWebsite.trim()))
    e['settings.contact.website'] = 'An http or https address, like https://example.com';
  if (d.contactPhone.trim().length > 50) e['settings.contact.phone'] = 'At most 50 characters';
  if (d.preset === 'custom') {
    for (const day of DAYS) {
      const v = d.custom[day];
      if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(v.start) || !/^([01]\d|2[0-3]):[0-5]\d$/.test(v.end))
        e[`settings.businessHours.custom.${day}`] = 'Enter both times';
      else if (!v.closed && v.end <= v.start)
        e[`settings.businessHours.custom.${day}`] = 'Ends before it starts';
    }
  }
  d.allowlist.forEach((row, i) => {
    if (!row.trim()) return;
    const check = checkEntry(row);
    if (!check.ok) e[`settings.security.ipAllowlist.${i}`] = check.error;
  });
  if (d.mode === 'external') {
    if (!d.psa.trim()) e.serviceManagementPsaConnectionId = 'Required when tickets live in an external PSA';
    else if (!UUID.test(d.psa.trim())) e.serviceManagementPsaConnectionId = 'A connection id is a UUID';
  }
  return e;
}

export function sectionOfField(field: string): SectionId {
  if (field.startsWith('settings.businessHours')) return 'hours';
  if (field.startsWith('settings.contact')) return 'contact';
  if (field.startsWith('settings.security')) return 'security';
  if (field.startsWith('serviceManagement')) return 'service';
  return 'general';
}

/** Server error -> field errors keyed like validateDraft, plus the caller's address when the server names it. */
export function mapServerError(
  err: unknown,
  draft: Draft,
): { fields: Record<string, string>; callerIp: string | null } {
  const fields: Record<string, string> = {};
  let callerIp: string | null = null;
  if (!(err instanceof ApiError)) return { fields, callerIp };
  // The server validates the cleaned list (blank rows dropped): map its indexes back to the rows on screen.
  const rowIndex: number[] = [];
  draft.allowlist.forEach((row, i) => {
    if (row.trim()) rowIndex.push(i);
  });
  const remap = (path: string) =>
    path.replace(/^settings\.security\.ipAllowlist\.(\d+)/, (_m, n: string) => {
      const row = rowIndex[Number(n)];
      return row === undefined ? 'settings.security.ipAllowlist' : `settings.security.ipAllowlist.${row}`;
    });
  switch (err.code) {
    case 'INVALID_IP_ALLOWLIST_ENTRY': {
      const entry = typeof err.body?.entry === 'string' ? err.body.entry : null;
      const at = entry === null ? -1 : draft.allowlist.findIndex((r) => r.trim() === entry.trim());
      fields[at >= 0 ? `settings.security.ipAllowlist.${at}` : 'settings.security.ipAllowlist'] = err.message;
      break;
    }
    case 'proxy_trust_required':
      fields['settings.security.ipAllowlist'] = err.message;
      break;
    case 'IP_ALLOWLIST_EXCLUDES_CALLER':
      fields['settings.security.ipAllowlist'] = err.message;
      callerIp = typeof err.body?.ipAddress === 'string' ? err.body.ipAddress : null;
      break;
    case 'PSA_CONNECTION_REQUIRED':
    case 'PSA_CONNECTION_NOT_ALLOWED':
      fields.serviceManagementPsaConnectionId = err.message;
      break;
    case 'VALIDATION_ERROR': {
      const issues = Array.isArray(err.body?.issues)
        ? (err.body.issues as Array<{ path?: unknown; message?: unknown }>)
        : [];
      for (const issue of issues) {
        if (typeof issue.path === 'string' && typeof issue.message === 'string' && issue.path)
          fields[remap(issue.path)] ??= issue.message;
      }
      if (issues.length === 0) {
        // Rules checked after parsing answer "path: message".
        const m = /^([\w.]+): (.+)$/.exec(err.message);
        if (m?.[1] && m[2]) fields[remap(m[1])] = m[2];
      }
      break;
    }
    default:
      break;
  }
  return { fields, callerIp };
}
