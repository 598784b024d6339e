import { IMPORT_MAX_ROWS, type ImportMode } from '../../../../server/contract';
import { errorMessage } from '../../lib/errors';
import type { BuiltRow, Decision, ImportModel, PreviewLine, RowOutcome } from './model';

// Preview and commit of a whole file, in requests of at most 1000 rows (spec 3, Limits). Rows of one group (one
// organization) stay in one request: the server treats them as one organization, and a group split across two
// requests would see its own first half as an existing match in the second.

/** The spec's rows per request. */
export const ROWS_PER_REQUEST = IMPORT_MAX_ROWS;

export interface Progress {
  done: number;
  total: number;
}

/** A row the file gives that can be sent: its position in the file, its group and the API row. */
export interface Sendable<R> {
  index: number;
  group: string;
  row: R;
}

export function sendableRows<R>(built: ReadonlyArray<BuiltRow<R>>): Array<Sendable<R>> {
  return built.flatMap((b, index) => (b.ok ? [{ index, group: b.group, row: b.row }] : []));
}

/** Items in order, packed into chunks of at most `max`, a group never split unless it alone is larger. */
export function chunkByGroup<T extends { group: string }>(
  items: readonly T[],
  max: number = ROWS_PER_REQUEST,
): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const members = groups.get(item.group);
    if (members) members.push(item);
    else groups.set(item.group, [item]);
  }
  const chunks: T[][] = [];
  let current: T[] = [];
  for (const members of groups.values()) {
    if (current.length > 0 && current.length + members.length > max) {
      chunks.push(current);
      current = [];
    }
    for (const member of members) {
      if (current.length === max) {
        chunks.push(current);
        current = [];
      }
      current.push(member);
    }
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

export async function previewAll<R>(
  model: ImportModel<R>,
  rows: ReadonlyArray<Sendable<R>>,
  onProgress: (p: Progress) => void,
): Promise<PreviewLine[]> {
  const lines: PreviewLine[] = [];
  onProgress({ done: 0, total: rows.length });
  for (const chunk of chunkByGroup(rows)) {
    const answered = await model.preview(chunk.map((c) => c.row));
    answered.forEach((line, i) => {
      const sent = chunk[i];
      if (sent) lines.push({ ...line, index: sent.index, group: sent.group });
    });
    onProgress({ done: lines.length, total: rows.length });
  }
  return lines.sort((a, b) => a.index - b.index);
}

/** The decision that holds for a line: its group's (organizations) or its own (contacts). */
export function decisionKey(model: { decidesPerGroup: boolean }, line: PreviewLine): string {
  return model.decidesPerGroup ? `g:${line.group}` : `r:${line.index}`;
}

export interface CommitPlan<R> {
  rows: ReadonlyArray<Sendable<R>>;
  lines: ReadonlyMap<number, PreviewLine>;
  decisionOf: (line: PreviewLine) => Decision | undefined;
  /** Rows of the file that could not be sent at all, with why. */
  invalid: ReadonlyArray<{ index: number; problem: string }>;
  mode: ImportMode;
}

export interface CommitRun {
  outcomes: RowOutcome[];
  /** Why the run stopped early (the rows not sent are failed with code `not-sent`). */
  stopped: unknown;
}

/** The rows of a chunk that never reached the server, failed with the reason the run stopped. */
function notSent(chunk: ReadonlyArray<{ index: number }>, reason: unknown): RowOutcome[] {
  return chunk.map((item) => ({
    index: item.index,
    outcome: 'failed',
    code: 'not-sent',
    message: `Not sent: ${errorMessage(reason)}`,
  }));
}

export async function commitAll<R>(
  model: ImportModel<R>,
  plan: CommitPlan<R>,
  onProgress: (p: Progress) => void,
): Promise<CommitRun> {
  const outcomes: RowOutcome[] = plan.invalid.map((r) => ({
    index: r.index,
    outcome: 'failed',
    code: 'invalid-row',
    message: r.problem,
  }));
  const items: Array<Sendable<R> & { line: PreviewLine; decision: Decision | undefined }> = [];
  for (const sent of plan.rows) {
    const line = plan.lines.get(sent.index);
    if (!line) continue;
    const decision = plan.decisionOf(line);
    if (decision === 'leave')
      outcomes.push({
        index: sent.index,
        outcome: 'skipped',
        code: 'left-out',
        message: 'Left out in the preview',
      });
    else items.push({ ...sent, line, decision });
  }
  const chunks = chunkByGroup(items);
  let done = 0;
  let stopped: unknown = null;
  onProgress({ done, total: items.length });
  for (const chunk of chunks) {
    if (stopped) {
      outcomes.push(...notSent(chunk, stopped));
      continue;
    }
    try {
      const answered = await model.commit(chunk, plan.mode);
      for (const o of answered) {
        const item = chunk[o.index];
        if (item) outcomes.push({ ...o, index: item.index });
      }
    } catch (err) {
      // A refused request (the session lost its MFA, the server went away) stops the run; the rows already
      // committed stay committed and are reported as such.
      stopped = err;
      outcomes.push(...notSent(chunk, err));
    }
    done += chunk.length;
    onProgress({ done, total: items.length });
  }
  return { outcomes: outcomes.sort((a, b) => a.index - b.index), stopped };
}
