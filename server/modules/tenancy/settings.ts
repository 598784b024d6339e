import type { Request } from 'express';
import type { Config } from '../../config';
import { badRequest } from '../../http/errors';
import { IpRanges, parseRange } from '../../http/ip';
import type { PartnerSettingsPatch, UpdatePartnerBody } from './schemas';
import { parseObject, readMode, type PartnerColumns, type PartnerRow } from './rows';

// Partner settings (spec 1): how a settings patch merges into the stored document, what makes business hours and
// the IP allowlist valid, and the service-management mode with its PSA connection.

export type Json = Record<string, unknown>;

const isPlainObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Merges `patch` into `base`: nested plain objects merge key by key, anything else (scalars, arrays, null)
 * replaces. Returns a new object; neither input is modified.
 */
export function deepMerge(base: Json, patch: Json): Json {
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    const current = out[key];
    out[key] = isPlainObject(value) && isPlainObject(current) ? deepMerge(current, value) : value;
  }
  return out;
}

/** The dotted paths a patch sends, down to `depth` levels: `timezone`, `security.ipAllowlist`, ... */
export function sentPaths(patch: Json, prefix: string, depth: number): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    const path = `${prefix}${key}`;
    if (depth > 1 && isPlainObject(value) && Object.keys(value).length > 0)
      out.push(...sentPaths(value, `${path}.`, depth - 1));
    else out.push(path);
  }
  return out;
}

/** Spec 1: the PSA connection id is required when the mode is `external` and must be null otherwise. */
export function serviceManagementColumns(
  row: PartnerRow,
  body: Pick<UpdatePartnerBody, 'serviceManagementMode' | 'serviceManagementPsaConnectionId'>,
): PartnerColumns {
  if (body.serviceManagementMode === undefined && body.serviceManagementPsaConnectionId === undefined)
    return {};
  const mode = body.serviceManagementMode ?? readMode(row.service_management_mode);
  const psa =
    body.serviceManagementPsaConnectionId !== undefined
      ? body.serviceManagementPsaConnectionId
      : row.service_management_psa_connection_id;
  if (mode === 'external' && !psa)
    throw badRequest(
      'serviceManagementPsaConnectionId is required when serviceManagementMode is external',
      'PSA_CONNECTION_REQUIRED',
    );
  if (mode !== 'external' && psa)
    throw badRequest(
      'serviceManagementPsaConnectionId must be null unless serviceManagementMode is external',
      'PSA_CONNECTION_NOT_ALLOWED',
    );
  return { service_management_mode: mode, service_management_psa_connection_id: psa };
}

/**
 * Stored settings with the patch merged in key by key (nested objects too; a business day and the allowlist
 * are replaced whole), validated as a whole. `caller` is the request of a partner user changing their own
 * partner: their current address must stay inside a non-empty allowlist.
 */
export function mergedSettings(
  config: Config,
  row: PartnerRow,
  patch: PartnerSettingsPatch,
  caller: Request | null,
): Json {
  const current = parseObject(row.settings);
  const allowlist = patch.security?.ipAllowlist;
  let cleanPatch: Json = patch;
  if (allowlist !== undefined) {
    const entries = validateAllowlist(config, allowlist, caller);
    cleanPatch = { ...patch, security: { ...patch.security, ipAllowlist: entries } };
  }
  const merged = deepMerge(current, cleanPatch);
  // A business day is one schedule: sending `{start, end}` must not inherit an old `closed: true`.
  const days = patch.businessHours?.custom;
  if (days && isPlainObject(merged.businessHours) && isPlainObject(merged.businessHours.custom)) {
    for (const [day, schedule] of Object.entries(days)) {
      if (schedule) merged.businessHours.custom[day] = schedule;
    }
  }
  validateBusinessHours(merged.businessHours);
  return merged;
}

function validateBusinessHours(hours: unknown): void {
  if (!isPlainObject(hours)) return;
  const custom = isPlainObject(hours.custom) ? hours.custom : null;
  if (hours.preset === 'custom' && (!custom || Object.keys(custom).length === 0))
    throw badRequest(
      'settings.businessHours.custom: a per-day schedule is required when preset is custom',
      'VALIDATION_ERROR',
    );
  for (const [day, schedule] of Object.entries(custom ?? {})) {
    if (!isPlainObject(schedule) || schedule.closed === true) continue;
    const { start, end } = schedule;
    // HH:MM strings compare in time order.
    if (typeof start === 'string' && typeof end === 'string' && end <= start)
      throw badRequest(`settings.businessHours.custom.${day}: end must be after start`, 'VALIDATION_ERROR');
  }
}

/**
 * Each entry must parse (literal IPv4/IPv6, CIDR, IPv4-mapped IPv6); a non-empty list needs trusted proxy
 * parsing, because behind an untrusted proxy every client would look like the proxy. A partner user's own
 * current address must be inside the new list, so an administrator cannot lock everyone out by mistake.
 */
function validateAllowlist(config: Config, raw: string[], caller: Request | null): string[] {
  const entries: string[] = [];
  for (const value of raw) {
    const entry = value.trim();
    if (!parseRange(entry))
      throw badRequest(`Invalid IP allowlist entry: ${value}`, 'INVALID_IP_ALLOWLIST_ENTRY', {
        entry: value,
      });
    if (!entries.includes(entry)) entries.push(entry);
  }
  if (entries.length === 0) return entries;
  const { trustProxyHeaders, trustedProxyCidrs } = config;
  if (!trustProxyHeaders || trustedProxyCidrs.length === 0)
    throw badRequest(
      'IP allowlist needs trusted proxy parsing (TRUST_PROXY_HEADERS and TRUSTED_PROXY_CIDRS)',
      'proxy_trust_required',
    );
  if (caller) {
    const address = caller.clientAddress;
    const ip = address?.trusted ? address.ip : null;
    if (!ip || !new IpRanges(entries).has(ip))
      throw badRequest(
        `IP allowlist must include your current address (${ip ?? 'unknown'}), or you would lock yourself out`,
        'IP_ALLOWLIST_EXCLUDES_CALLER',
        { ipAddress: ip },
      );
  }
  return entries;
}
