import { ApiError } from './api/client';
import { capitalize, formatCount } from './format';

// Form helpers: slugs, whole numbers, and the field messages of a 400 VALIDATION_ERROR.

/** Slug rule shared with self-registration: lowercase, runs of other characters become one hyphen, 50 chars. */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50)
    .replace(/-+$/g, '');
}

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Field-level messages from a 400 VALIDATION_ERROR (`issues[].path`), keyed by the first path segment. */
export function fieldErrors(err: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!(err instanceof ApiError) || err.code !== 'VALIDATION_ERROR') return out;
  const issues = err.body?.issues;
  if (!Array.isArray(issues)) return out;
  for (const issue of issues as Array<{ path?: unknown; message?: unknown }>) {
    if (typeof issue.path !== 'string' || typeof issue.message !== 'string') continue;
    const key = issue.path.split('.')[0] ?? '';
    if (key && !(key in out)) out[key] = issue.message;
  }
  return out;
}

/** A whole number in [min, max], or an error message to show under the field. */
export function parseWhole(raw: string, min: number, max: number, label: string): number | string {
  const text = raw.trim().replace(/[,_\s]/g, '');
  if (!text) return `Enter ${label}.`;
  if (!/^\d+$/.test(text)) return `${capitalize(label)} must be a whole number.`;
  const n = Number(text);
  if (n < min || n > max)
    return `${capitalize(label)} must be between ${formatCount(min)} and ${formatCount(max)}.`;
  return n;
}

/** The rows whose texts contain the search (ignoring case); all of them for an empty search. */
export function searchRows<T>(rows: T[], query: string, texts: (row: T) => Array<string | null>): T[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return rows;
  return rows.filter((row) => texts(row).some((text) => (text ?? '').toLowerCase().includes(needle)));
}

/** Query string from the set values of `params`. */
export function qs(params: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && value !== undefined && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
