import type { Response } from 'express';
import {
  AUDIT_CSV_COLUMNS,
  AUDIT_EXPORT_CAP,
  AUDIT_EXPORT_HEADERS,
  type AuditEntry,
  type AuditExportFormat,
} from '../../contract';
import type { Db } from '../../db/connection';
import { csvLine } from '../../http/csv';
import { auditEntriesBefore, countAuditEntries, newestSeq, type AuditWhere } from './store';

// The streamed export (GET/POST /audit/export): at most AUDIT_EXPORT_CAP rows, newest first, written chunk by
// chunk as they are read, never built whole in memory. The headers say how many rows match and how many the file
// holds before the first byte of the body, so the console can show progress and "capped at 10,000".

/** Rows read per chunk: small enough to keep memory flat, large enough that the per-chunk query is cheap. */
const CHUNK = 500;

const CONTENT_TYPES: Record<AuditExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
};

function csvRow(e: AuditEntry): string {
  const values: Record<(typeof AUDIT_CSV_COLUMNS)[number], string | null> = {
    id: e.id,
    timestamp: e.timestamp,
    orgId: e.orgId,
    actorType: e.actorType,
    actorId: e.user.id,
    actorName: e.user.name,
    actorEmail: e.user.email,
    actorRole: e.user.role,
    action: e.action,
    category: e.category,
    resourceType: e.resource.type,
    resourceId: e.resource.id,
    resourceName: e.resource.name,
    result: e.result,
    errorMessage: e.errorMessage,
    ipAddress: e.ipAddress,
    userAgent: e.userAgent,
    sessionId: e.sessionId,
    details: JSON.stringify(e.details),
  };
  return csvLine(AUDIT_CSV_COLUMNS.map((c) => values[c]));
}

/** `audit-log-20261127-061500.csv`: what was exported and when, sortable in a downloads folder. */
export function exportFilename(format: AuditExportFormat, now = new Date()): string {
  const stamp = now.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  return `audit-log-${stamp}.${format}`;
}

export interface ExportOutcome {
  total: number;
  rows: number;
  truncated: boolean;
}

/** How many rows an export of `w` will hold: measured before streaming, for the headers and the audit entry. */
export function planExport(db: Db, w: AuditWhere): ExportOutcome & { upToSeq: number } {
  const upToSeq = newestSeq(db);
  const total = countAuditEntries(db, {
    ...w,
    where: [...w.where, 'a.seq <= ?'],
    params: [...w.params, upToSeq],
  });
  const rows = Math.min(total, AUDIT_EXPORT_CAP);
  return { total, rows, truncated: total > AUDIT_EXPORT_CAP, upToSeq };
}

/** Resolves when the socket can take more, or when the client went away (then nothing more is written). */
const drainedOrClosed = (res: Response) =>
  new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });

/** Streams the planned rows into `res`, waiting for the socket to drain between chunks; stops if the client left. */
export async function streamExport(
  db: Db,
  res: Response,
  w: AuditWhere,
  format: AuditExportFormat,
  plan: ExportOutcome & { upToSeq: number; filename: string },
): Promise<void> {
  res.status(200);
  res.setHeader('Content-Type', CONTENT_TYPES[format]);
  res.setHeader('Content-Disposition', `attachment; filename="${plan.filename}"`);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader(AUDIT_EXPORT_HEADERS.total, String(plan.total));
  res.setHeader(AUDIT_EXPORT_HEADERS.rows, String(plan.rows));
  res.setHeader(AUDIT_EXPORT_HEADERS.truncated, String(plan.truncated));
  res.setHeader(AUDIT_EXPORT_HEADERS.cap, String(AUDIT_EXPORT_CAP));
  res.setHeader('Access-Control-Expose-Headers', Object.values(AUDIT_EXPORT_HEADERS).join(', '));
  res.write(format === 'csv' ? csvLine(AUDIT_CSV_COLUMNS) : '[');
  let before = plan.upToSeq + 1;
  let written = 0;
  while (written < plan.rows && !res.destroyed) {
    const chunk = auditEntriesBefore(db, w, before, Math.min(CHUNK, plan.rows - written));
    if (chunk.length === 0) break;
    let text = '';
    chunk.forEach(({ entry }, i) => {
      if (format === 'csv') text += csvRow(entry);
      else text += `${written + i === 0 ? '' : ','}\n${JSON.stringify(entry)}`;
    });
    written += chunk.length;
    before = chunk.at(-1)?.seq ?? before;
    if (!res.write(text)) await drainedOrClosed(res);
  }
  res.end(format === 'csv' ? '' : '\n]\n');
}
