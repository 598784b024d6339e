import { EXPORT_COLUMNS, type ElevationAuditRow, type ExportFormat } from './schemas';

// The two export formats. Both carry the same columns in the same order (EXPORT_COLUMNS).
//
// CSV follows RFC 4180: CRLF line ends, a header row, and a field is quoted (with inner quotes doubled) when it
// holds a comma, a double quote, CR or LF. Each page is a complete CSV file with its own header row.
//
// Spreadsheet formula injection: the exported values include text chosen by whoever runs a program on a device
// (executable paths, signer names, command lines, reasons), and a spreadsheet opening the file would evaluate a
// cell starting with `=`, `+`, `-` or `@` (or TAB / CR, which some of them strip before looking) as a formula.
// Such a text field is prefixed with a single quote `'`, which spreadsheets take as "this is text", before
// quoting. Numbers (seq, riskTier, assuranceLevel) are never prefixed. JSONL carries the values unchanged: it is
// for programs, which must treat them as data anyway.

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** A text value made safe to open in a spreadsheet (see above). */
export function neutralizeFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** One CSV field: empty for null, numbers as written, text neutralized then quoted when RFC 4180 needs it. */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = neutralizeFormula(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

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
