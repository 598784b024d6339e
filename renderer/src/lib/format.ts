import type { Scope } from '../../../server/contract';

export function scopeLabel(scope: Scope): string {
  switch (scope) {
    case 'system':
      return 'System';
    case 'partner':
      return 'Partner';
    case 'organization':
      return 'Organization';
  }
}

export function initials(name: string, email: string): string {
  // Words that start with a letter: "Lee Chen (NOC)" is LC, not L(.
  const words = name
    .trim()
    .split(/\s+/)
    .filter((w) => /^\p{L}/u.test(w));
  const first = words[0]?.[0] ?? email[0] ?? '?';
  const last = words.length > 1 ? (words[words.length - 1]?.[0] ?? '') : '';
  return `${first}${last}`.toUpperCase();
}

/** The date an API value names (ISO text or epoch ms); null when it is missing or unreadable. */
function dateOf(value: string | number | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** How a date reads everywhere in the console: "Nov 23, 2026". */
const DATE_PARTS: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: '2-digit' };

/** Local date and time ("Nov 23, 2026, 11:27:37"); `seconds: false` stops at the minute. */
export function formatDateTime(
  value: string | number | null | undefined,
  { seconds = true }: { seconds?: boolean } = {},
): string {
  const date = dateOf(value);
  if (!date) return '—';
  return date.toLocaleString(undefined, {
    ...DATE_PARTS,
    hour: '2-digit',
    minute: '2-digit',
    ...(seconds ? { second: '2-digit' } : {}),
    hourCycle: 'h23',
  });
}

/** A contract date (ISO, midnight UTC) as a calendar date: "Nov 23, 2026". */
export function formatDate(value: string | null | undefined): string {
  const date = dateOf(value);
  if (!date) return '—';
  return date.toLocaleDateString(undefined, { ...DATE_PARTS, timeZone: 'UTC' });
}

/** "1,204": thousands grouped the same way on every machine. */
/** The text with its first letter in upper case ("active" → "Active"), for a label made from a value. */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** "1 request", "1,204 requests". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

const THIS_YEAR = new Date().getFullYear();

/** "Nov 23 11:27:37" (the year only when it is not this one). */
export function compactTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  const date = d.toLocaleDateString(undefined, {
    month: 'short',
    day: '2-digit',
    ...(d.getFullYear() === THIS_YEAR ? {} : { year: 'numeric' }),
  });
  const time = d.toLocaleTimeString(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  return `${date} ${time}`;
}

export function formatTime(value: number): string {
  return new Date(value).toLocaleTimeString(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
}

/** "4m 05s", "58s", "1h 02m" — for countdowns. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h}h ${String(m).padStart(2, '0')}m`;
  if (m > 0) return `${m}m ${String(s).padStart(2, '0')}s`;
  return `${s}s`;
}

export function relativeTime(from: number, now: number): string {
  const diff = Math.round((now - from) / 1000);
  if (diff < 5) return 'just now';
  if (diff < 60) return `${diff}s ago`;
  if (diff < 3600) return `${Math.floor(diff / 60)}m ago`;
  if (diff < 86_400) return `${Math.floor(diff / 3600)}h ago`;
  return `${Math.floor(diff / 86_400)}d ago`;
}

/** "in 42m", "3d ago", "in 2h": relative to now, future or past. */
export function relativeTo(target: number, now: number): string {
  const diff = Math.round((target - now) / 1000);
  const abs = Math.abs(diff);
  const minutes = Math.round(abs / 60);
  const hours = Math.round(abs / 3600);
  const days = Math.round(abs / 86_400);
  let text: string;
  if (abs < 45) text = `${abs}s`;
  else if (minutes < 60) text = `${minutes}m`;
  else if (hours < 48) text = `${hours}h`;
  else if (days < 60) text = `${days}d`;
  else if (days < 730) text = `${Math.round(days / 30)}mo`;
  else text = `${Math.round(days / 365)}y`;
  if (abs < 5) return 'just now';
  return diff >= 0 ? `in ${text}` : `${text} ago`;
}

/** Split a base32 secret into groups of four for reading aloud or typing. */
export function groupSecret(secret: string): string[] {
  return secret.replace(/\s+/g, '').match(/.{1,4}/g) ?? [];
}
