// The audit console's logic without its screens. The export progress counts rows as the streamed bytes arrive
// (renderer/src/features/audit/export-count.ts): a chunk may end anywhere, inside a quoted CSV cell that holds a
// line break or inside a JSON string that holds braces or an escaped quote, and the count must come out the same
// whatever the split. The entry drawer's diff and the log's filters (model.ts) are checked here as well.
import { describe, expect, it } from 'vitest';
import {
  attachmentName,
  csvRowCounter,
  jsonRowCounter,
  type RowCounter,
} from '../../renderer/src/features/audit/export-count';
import { diffFields, NO_FILTERS, queryOf } from '../../renderer/src/features/audit/model';

/** Feeds `text` in every split into two chunks and returns the distinct final counts. */
function countsOverSplits(text: string, make: () => RowCounter): Set<number> {
  const counts = new Set<number>();
  for (let at = 0; at <= text.length; at += 1) {
    const counter = make();
    counter.push(text.slice(0, at));
    counts.add(counter.push(text.slice(at)));
  }
  return counts;
}

const CSV = [
  'id,action,details\r\n',
  '1,user.login,"{""ip"":""10.0.0.1""}"\r\n',
  '2,role.update,"line one\nline two, with a comma"\r\n',
  "3,data.export,'=SUM(A1)\r\n",
].join('');

const JSON_EXPORT = [
  '[',
  '\n{"id":"1","details":{"note":"a } brace and a \\" quote","tags":["x",{"y":1}]}}',
  ',\n{"id":"2","details":{}}',
  ',\n{"id":"3","details":{"path":"C:\\\\{temp}\\\\"}}',
  '\n]\n',
].join('');

describe('export row counting', () => {
  it('counts CSV rows past quoted line breaks and doubled quotes, however the stream is cut', () => {
    expect(countsOverSplits(CSV, csvRowCounter)).toEqual(new Set([3]));
  });

  it('counts the objects of the JSON array, not the objects nested in their details', () => {
    expect(countsOverSplits(JSON_EXPORT, jsonRowCounter)).toEqual(new Set([3]));
  });

  it('reports progress as rows complete, and nothing for a header alone or an empty array', () => {
    const csv = csvRowCounter();
    expect(csv.push('id,action\n')).toBe(0);
    expect(csv.push('1,user.login\n2,role')).toBe(1);
    const json = jsonRowCounter();
    expect(json.push('[\n]\n')).toBe(0);
  });

  it('reads the saved file name from Content-Disposition', () => {
    expect(attachmentName('attachment; filename="audit-log-20261127-061500.csv"')).toBe(
      'audit-log-20261127-061500.csv',
    );
    expect(attachmentName("attachment; filename*=UTF-8''audit%20log.json")).toBe('audit log.json');
    expect(attachmentName(null)).toBeNull();
  });
});

describe('the change diff of the entry drawer', () => {
  it('lists added, removed and changed fields by name and counts the unchanged ones', () => {
    const { rows, unchanged } = diffFields({
      before: { name: 'Tier 1', retentionDays: 365, tags: ['a'], gone: true },
      after: { name: 'Tier 1', retentionDays: 180, tags: ['a', 'b'], added: null },
    });
    expect(rows).toEqual([
      { field: 'added', kind: 'added', before: undefined, after: null },
      { field: 'gone', kind: 'removed', before: true, after: undefined },
      { field: 'retentionDays', kind: 'changed', before: 365, after: 180 },
      { field: 'tags', kind: 'changed', before: ['a'], after: ['a', 'b'] },
    ]);
    expect(unchanged).toBe(1);
  });

  it('treats a missing side as empty: a creation is all additions', () => {
    expect(diffFields({ before: null, after: { a: 1 } }).rows).toEqual([
      { field: 'a', kind: 'added', before: undefined, after: 1 },
    ]);
  });
});

describe('the log filters as the API query', () => {
  it('sends only what is set, trimmed, with free text apart for the search endpoint', () => {
    const { filters, q } = queryOf({
      ...NO_FILTERS,
      text: '  retention ',
      user: ' riley ',
      result: 'failure',
      category: 'authentication',
      from: '2026-11-01T00:00',
    });
    expect(q).toBe('retention');
    expect(filters).toEqual({
      user: 'riley',
      result: 'failure',
      category: 'authentication',
      from: new Date('2026-11-01T00:00').toISOString(),
    });
  });

  it('drops a result or category the API does not know', () => {
    expect(queryOf({ ...NO_FILTERS, result: 'maybe', category: 'misc' }).filters).toEqual({});
  });
});
