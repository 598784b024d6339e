// CSV as the exports write it (the PAM elevation audit export and the platform audit export): RFC 4180, a field
// quoted (inner quotes doubled) when it holds a comma, a double quote, CR or LF.
//
// Spreadsheet formula injection: exported values include text chosen by others (executable paths, command lines,
// resource names, user agents), and a spreadsheet opening the file would evaluate a cell starting with `=`, `+`,
// `-` or `@` (or TAB / CR, which some of them strip before looking) as a formula. Such a text field is prefixed with
// a single quote `'`, which spreadsheets take as "this is text", before quoting. Numbers are never prefixed.

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

/** One CSV record with its CRLF line end. */
export const csvLine = (fields: ReadonlyArray<string | number | null>): string =>
  `${fields.map(csvField).join(',')}\r\n`;
