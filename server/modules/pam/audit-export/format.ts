import { csvField } from '../../../http/csv';
import { EXPORT_COLUMNS, type ElevationAuditRow, type ExportFormat } from './schemas';

// The two export formats. Both carry the same columns in the same order (EXPORT_COLUMNS).
//
// CSV follows RFC 4180 with CRLF line ends and a header row, its fields escaped and made safe to open in a
// spreadsheet by http/csv.ts; each page is a complete CSV file with its own header row. JSONL carries the values
// unchanged: it is for programs, which must treat them as data anyway.

export function toCsv(rows: readonly ElevationAuditRow[]): string {
  const lines = [EXPORT_COLUMNS.join(',')];
  for (const row of rows) lines.push(EXPORT_COLUMNS.map((column) => csvField(row[column])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** One JSON object per line, keys in column order; an empty page is an empty body. */
export function toJsonl(rows: readonly ElevationAuditRow[]): string {
  return rows
    .map((row) => `${JSON.stringify(Object.fromEntries(EXPORT_COLUMNS.map((c) => [c, row[c]])))}\n`)
    .join('');
}

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  jsonl: 'application/x-ndjson; charset=utf-8',
};

export function render(format: ExportFormat, rows: readonly ElevationAuditRow[]): string {
  return format === 'csv' ? toCsv(rows) : toJsonl(rows);
}
