import Papa from 'papaparse';

// Reading the file a technician brings (papaparse: quoted fields, embedded newlines and commas, any of the usual
// delimiters) and writing the CSV of rows that failed. The first row is the header; a UTF-8 byte-order mark,
// which spreadsheet exports often start with, is dropped so it does not end up in the first column's name.

/** Files larger than this are split before import rather than held in the browser at once. */
export const MAX_FILE_ROWS = 50_000;

export interface ParsedCsv {
  /** Column names from the header row; blank or repeated names get a position-based name. */
  headers: string[];
  /** Data rows, each as long as `headers` (short rows padded with blanks). */
  rows: string[][];
  /** Problems worth telling (a row with more cells than the header, an unclosed quote), at most a few. */
  warnings: string[];
}

export type ParseOutcome = { ok: true; csv: ParsedCsv } | { ok: false; message: string };

function headerNames(raw: string[]): string[] {
  const seen = new Set<string>();
  return raw.map((cell, i) => {
    let name = cell.trim() || `Column ${i + 1}`;
    if (seen.has(name.toLowerCase())) name = `${name} (${i + 1})`;
    seen.add(name.toLowerCase());
    return name;
  });
}

export function parseCsv(text: string): ParseOutcome {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!body.trim()) return { ok: false, message: 'The file is empty.' };
  const parsed = Papa.parse<string[]>(body, { header: false, skipEmptyLines: 'greedy' });
  const [head, ...data] = parsed.data;
  if (!head) return { ok: false, message: 'The file has no header row.' };
  if (data.length === 0)
    return { ok: false, message: 'The file has a header row but no data rows under it.' };
  if (data.length > MAX_FILE_ROWS)
    return {
      ok: false,
      message: `The file has ${data.length.toLocaleString('en-US')} rows; split it into files of at most ${MAX_FILE_ROWS.toLocaleString('en-US')} rows.`,
    };
  const headers = headerNames(head);
  const warnings = parsed.errors
    .slice(0, 3)
    .map((e) => (e.row === undefined ? e.message : `Row ${e.row + 1}: ${e.message}`));
  const rows = data.map((cells) => headers.map((_, i) => (typeof cells[i] === 'string' ? cells[i] : '')));
  const wider = data.filter((cells) => cells.length > headers.length).length;
  if (wider > 0)
    warnings.push(
      `${wider} row${wider === 1 ? ' has' : 's have'} more cells than the header; the extra cells are ignored.`,
    );
  return { ok: true, csv: { headers, rows, warnings } };
}

/**
 * A CSV for a spreadsheet: header and rows, with cells that a spreadsheet would run as a formula (=, +, -, @)
 * quoted so they stay text. Starts with a BOM so Excel reads it as UTF-8.
 */
export function toCsv(headers: string[], rows: string[][]): string {
  return `\uFEFF${Papa.unparse({ fields: headers, data: rows }, { escapeFormulae: true, newline: '\r\n' })}`;
}
