import { z } from 'zod';
import { ELEVATION_EXPORT_LIMITS } from '../../../contract/pam';
import type { AppContext } from '../../../context';
import { auditActor, type UserAuth } from '../../../http/auth-context';
import type { ClientInfo } from '../../../http/client-info';
import { badRequest, notFound } from '../../../http/errors';
import { requireOrgAccess, requireSiteAccess } from '../../../http/scope';
import { deviceVisibility, onDeviceRows, restrictionClauses } from '../../devices';
import { decodeCursor, encodeCursor, type CursorBinding } from './cursor';
import { CONTENT_TYPES, render } from './format';
import { EXPORT_SCHEMA_VERSION, SETTLE_MARGIN_MS, type ElevationAuditRow, type ExportQuery } from './schemas';
import { readExportPage } from './store';

// The elevation audit export (spec 2, GET /pam/elevation-audit/export): one page of an organization's
// elevation events in a time window, in `seq` order, with the headers a client needs to page through it and to
// know when the window can no longer change.
//
// Paging contract: follow X-Next-Cursor while X-Has-More is true. When the last page is reached and the window
// is complete (it ended at or before X-Settled-Through), X-Next-Cursor is empty: the export is final. When the
// window is still open (it reaches into the last two seconds or the future), the last page still carries a
// cursor, so the client can come back later and receive exactly the events written since, without gaps or
// repeats; the export is final once a response says X-Window-Complete: true.

export const WINDOW_CODE = 'EXPORT_WINDOW_INVALID';
const DAY_MS = 86_400_000;
const isoWithOffset = z.iso.datetime({ offset: true });

export interface ExportWindow {
  /** ISO UTC with milliseconds (the stored format of `occurred_at`). */
  from: string;
  to: string;
  toMs: number;
}

function instant(field: 'from' | 'to', raw: string | undefined): number {
  if (raw === undefined || raw === '')
    throw badRequest(`${field} is required (ISO 8601 date-time with offset)`, WINDOW_CODE);
  const ms = isoWithOffset.safeParse(raw).success ? Date.parse(raw) : NaN;
  if (!Number.isFinite(ms))
    throw badRequest(
      `${field} must be an ISO 8601 date-time with offset, e.g. 2026-01-31T00:00:00Z`,
      WINDOW_CODE,
    );
  return ms;
}

/** Spec 2: both ends required, with an offset, from before to, at most 366 days apart. */
export function parseWindow(from: string | undefined, to: string | undefined): ExportWindow {
  const fromMs = instant('from', from);
  const toMs = instant('to', to);
  if (fromMs >= toMs) throw badRequest('from must be before to', WINDOW_CODE);
  if (toMs - fromMs > ELEVATION_EXPORT_LIMITS.maxWindowDays * DAY_MS)
    throw badRequest(
      `The export window must be at most ${ELEVATION_EXPORT_LIMITS.maxWindowDays} days`,
      WINDOW_CODE,
    );
  return { from: new Date(fromMs).toISOString(), to: new Date(toMs).toISOString(), toMs };
}

/**
 * The organization exported: required for partner and system callers; organization callers export their own
 * (another orgId is refused by requireOrgAccess: 403 for them, 404 for partner and system callers).
 */
function targetOrg(ctx: AppContext, auth: UserAuth, orgId: string | undefined): string {
  const id = orgId ?? (auth.scope === 'organization' ? auth.orgId : null);
  if (!id) throw badRequest(`orgId is required for ${auth.scope} scope`, 'VALIDATION_ERROR');
  return requireOrgAccess(ctx.db, auth, id).id;
}

export interface ExportPage {
  rows: ElevationAuditRow[];
  body: string;
  contentType: string;
  filename: string;
  headers: Record<string, string>;
}

export function exportPage(
  ctx: AppContext,
  auth: UserAuth,
  query: ExportQuery,
  client: ClientInfo,
  now = Date.now(),
): ExportPage {
  const window = parseWindow(query.from, query.to);
  const orgId = targetOrg(ctx, auth, query.orgId);
  if (query.siteId) {
    const site = requireSiteAccess(ctx.db, auth, query.siteId);
    if (site.org_id !== orgId) throw notFound('Site not found');
  }
  const binding: CursorBinding = {
    userId: auth.userId,
    orgId,
    from: window.from,
    to: window.to,
    siteId: query.siteId ?? null,
    deviceId: query.deviceId ?? null,
    elevationRequestId: query.elevationRequestId ?? null,
    eventType: query.eventType ?? null,
  };
  // An empty cursor is a first page: clients may echo an empty X-Next-Cursor back.
  const afterSeq = query.cursor ? decodeCursor(ctx.secretBox, query.cursor, binding) : 0;

  const read = readExportPage(ctx.db, {
    orgId,
    from: window.from,
    to: window.to,
    afterSeq,
    siteId: binding.siteId,
    deviceId: binding.deviceId,
    elevationRequestId: binding.elevationRequestId,
    eventType: binding.eventType,
    // Events carry the device and the site it had when they were written; a restricted caller reads only theirs.
    restrictions: restrictionClauses(deviceVisibility(ctx, auth), onDeviceRows('e')),
    take: query.limit + 1,
  });
  const hasMore = read.length > query.limit;
  const rows = hasMore ? read.slice(0, query.limit) : read;
  const settledMs = Math.min(window.toMs, now - SETTLE_MARGIN_MS);
  const windowComplete = window.toMs <= settledMs && !hasMore;
  const lastSeq = rows.at(-1)?.seq ?? afterSeq;
  const nextCursor = windowComplete ? '' : encodeCursor(ctx.secretBox, lastSeq, binding);

  ctx.audit.record({
    orgId,
    ...auditActor(auth),
    action: 'pam.elevation_audit.export',
    resourceType: 'elevation_audit',
    resourceId: null,
    details: {
      format: query.format,
      from: window.from,
      to: window.to,
      siteId: binding.siteId,
      deviceId: binding.deviceId,
      elevationRequestId: binding.elevationRequestId,
      eventType: binding.eventType,
      limit: query.limit,
      continued: Boolean(query.cursor),
      rowCount: rows.length,
      hasMore,
    },
    ...client,
  });

  return {
    rows,
    body: render(query.format, rows),
    contentType: CONTENT_TYPES[query.format],
    filename: `elevation-audit-${orgId}-${fileStamp(window.from)}.${query.format}`,
    headers: {
      'X-Next-Cursor': nextCursor,
      'X-Has-More': String(hasMore),
      'X-Row-Count': String(rows.length),
      'X-Export-Schema-Version': EXPORT_SCHEMA_VERSION,
      'X-Settled-Through': new Date(settledMs).toISOString(),
      'X-Window-Complete': String(windowComplete),
    },
  };
}

/** `2026-01-31T00:00:00.000Z` -> `20260131T000000Z`: no characters that file systems refuse. */
const fileStamp = (iso: string): string => `${iso.slice(0, 19).replace(/[-:]/g, '')}Z`;
