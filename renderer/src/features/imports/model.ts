import type { ImportMode } from '../../../../server/contract';

// What the wizard frame needs from each kind of import (organizations and sites, contacts): the fields a column
// can map to, how one mapped row becomes an API row, and the two endpoints, with their answers put into one
// shape the frame draws. org-model.ts and contact-model.ts are the two models.

/** A field of the spec's import row a CSV column can fill. */
export interface FieldSpec {
  key: string;
  label: string;
  required?: boolean;
  /** Header names (compared without case, spaces or punctuation) that map to this field by themselves. */
  aliases: readonly string[];
  hint?: string;
}

/** How a row is coloured: a new thing, a sure match, a match that needs a person, one that cannot go in. */
export type AnnotationTone = 'new' | 'linked' | 'ask' | 'bad';

export interface AnnotationInfo {
  label: string;
  tone: AnnotationTone;
  /** One sentence for the legend: what this annotation means and what commit will do. */
  explain: string;
}

/** What the technician decides for a row the server will not commit on the preview's word alone. */
export type Decision = 'attach' | 'create' | 'leave';

/** A row as the server annotated it, in the frame's words. */
export interface PreviewLine {
  /** Position among the file's data rows (0-based; the file's line is index + 2). */
  index: number;
  annotation: string;
  /** What the row is about: the organization, or the contact. */
  subject: string;
  /** Beside it: the site, or the contact's organization. */
  detail: string | null;
  matchedId: string | null;
  matchedLabel: string | null;
  /** Why a row conflicts, or a non-fatal warning. */
  note: string | null;
  /** The choices when the row waits for a decision; null when it does not. */
  asks: readonly Decision[] | null;
  /** Rows decided together (the rows of one organization). */
  group: string;
}

export type Outcome = 'imported' | 'updated' | 'skipped' | 'failed';

export interface RowOutcome {
  index: number;
  outcome: Outcome;
  /** The server's error code for a failed row (or the wizard's own: `left-out`, `not-sent`, ...). */
  code: string | null;
  message: string;
}

/**
 * Every row of a commit's answer as an outcome. The import kinds word a created or updated row their own way
 * (`say`); skipped and failed rows they report alike.
 */
export function commitOutcomes<I extends { row: number }, U extends { row: number }>(
  result: {
    imported: I[];
    updated: U[];
    skipped: Array<{ row: number; reason: string }>;
    errors: Array<{ row: number; code: string; message: string }>;
  },
  say: { imported: (r: I) => string; updated: (r: U) => string },
): RowOutcome[] {
  const outcome = (
    index: number,
    kind: Outcome,
    message: string,
    code: string | null = null,
  ): RowOutcome => ({
    index,
    outcome: kind,
    code,
    message,
  });
  return [
    ...result.imported.map((r) => outcome(r.row, 'imported', say.imported(r))),
    ...result.updated.map((r) => outcome(r.row, 'updated', say.updated(r))),
    ...result.skipped.map((r) => outcome(r.row, 'skipped', r.reason)),
    ...result.errors.map((r) => outcome(r.row, 'failed', r.message, r.code)),
  ];
}

export type BuiltRow<R> = { ok: true; row: R; group: string } | { ok: false; problem: string };

/** One row sent to commit: the row, what the preview said of it, and the decision taken on it. */
export interface CommitItem<R> {
  row: R;
  line: PreviewLine;
  decision: Decision | undefined;
}

export interface ImportModel<R> {
  id: 'organizations' | 'contacts';
  title: string;
  /** A sentence under the title: what the file holds. */
  about: string;
  fields: readonly FieldSpec[];
  /** Headings of the preview's subject and detail columns. */
  columns: { subject: string; detail: string };
  /** Decisions hold for every row of a group (one organization's rows) rather than row by row. */
  decidesPerGroup: boolean;
  /** The row from the mapped cells (`value(key)`, trimmed, '' when unmapped), or why it cannot be sent. */
  build: (value: (key: string) => string) => BuiltRow<R>;
  annotations: Readonly<Record<string, AnnotationInfo>>;
  /** The words of a choice on a row ("Attach to Contoso Dental"). */
  choiceLabel: (decision: Decision, line: PreviewLine) => string;
  /** Annotate up to 1000 rows; lines in the order of `rows` (index and group are set by the frame). */
  preview: (rows: R[]) => Promise<Array<Omit<PreviewLine, 'index' | 'group'>>>;
  /** Commit up to 1000 rows; outcomes carry the position in `items` as `index`. */
  commit: (items: Array<CommitItem<R>>, mode: ImportMode) => Promise<RowOutcome[]>;
  /** What "update" does for this kind of row, beside the mode switch. */
  modeHelp: Record<ImportMode, string>;
}

/** `{[key]: v}` for a filled cell, nothing for a blank one: a blank cell means "not given" (imports never clear). */
export const optional = <K extends string>(key: K, v: string): Partial<Record<K, string>> =>
  v ? ({ [key]: v } as Partial<Record<K, string>>) : {};

/** Header names compared the way auto-mapping does: no case, spaces, dots, dashes or underscores. */
export function headerKey(header: string): string {
  return header.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** The first column whose header is one of the field's aliases (or its key or label), for each field. */
export function autoMap(fields: readonly FieldSpec[], headers: readonly string[]): Record<string, number> {
  const keys = headers.map(headerKey);
  const mapping: Record<string, number> = {};
  const taken = new Set<number>();
  for (const field of fields) {
    const names = [field.key, field.label, ...field.aliases].map(headerKey);
    const at = keys.findIndex((k, i) => !taken.has(i) && names.includes(k));
    if (at >= 0) {
      mapping[field.key] = at;
      taken.add(at);
    }
  }
  return mapping;
}
