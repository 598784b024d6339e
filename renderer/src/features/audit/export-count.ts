import type { AuditExportFormat } from '../../../../server/contract';

// Counting the rows of an export as its bytes arrive, so progress is rows received against the rows the server
// said it will send. Chunks split anywhere (inside a quoted cell, inside a string), so each counter is a small
// state machine that carries its state from one chunk to the next.

export interface RowCounter {
  /** Feeds the next piece of text; returns the rows complete so far. */
  push(text: string): number;
}

/** A counter that steps its state machine over each character code of every piece, then reads the rows so far. */
function scanningCounter(step: (code: number) => void, rows: () => number): RowCounter {
  return {
    push(text) {
      for (let i = 0; i < text.length; i += 1) step(text.charCodeAt(i));
      return rows();
    },
  };
}

/** CSV: one row per line end outside quotes, less the header row. A quoted cell may hold line ends ("" is a quote). */
export function csvRowCounter(): RowCounter {
  let quoted = false;
  let lines = 0;
  return scanningCounter(
    (c) => {
      if (c === 34) quoted = !quoted;
      else if (c === 10 && !quoted) lines += 1;
    },
    () => Math.max(0, lines - 1),
  );
}

/** JSON: the export is one array of entries (`[{…},{…}]`): a row is each object that closes at depth one. */
export function jsonRowCounter(): RowCounter {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let rows = 0;
  return scanningCounter(
    (c) => {
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 92) escaped = true;
        else if (c === 34) inString = false;
      } else if (c === 34) inString = true;
      else if (c === 91 || c === 123) depth += 1;
      else if (c === 93 || c === 125) {
        depth -= 1;
        if (c === 125 && depth === 1) rows += 1;
      }
    },
    () => rows,
  );
}

export function rowCounter(format: AuditExportFormat): RowCounter {
  return format === 'csv' ? csvRowCounter() : jsonRowCounter();
}

/** The file name a Content-Disposition header gives (`filename="…"`), or null. */
export function attachmentName(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1]);
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename="?([^";]+)"?/i.exec(header);
  return plain?.[1] ?? null;
}
