import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../support/server';
import { jsonl, csvObjects } from '../support/export-formats';
import {
  ids,
  tok,
  BULK,
  MIN,
  seqs,
  bulkSeqs,
  insertRequest,
  insertEvent,
  get,
  expectError,
  seqsOf,
  usePamExportWorld,
  W,
} from '../support/pam-export-world';

// GET /pam/elevation-audit/export: query validation, and cursor paging through 2,500 events with tampered and
// foreign cursors refused.

usePamExportWorld();

describe('query validation', () => {
  it('refuses an unknown eventType or format', async () => {
    const res = await get({ ...W, eventType: 'elevation.exploded' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.error).toMatch(/^eventType: eventType must be one of elevation\.requested, /);
    const fmt = await get({ ...W, format: 'xlsx' });
    expectError(fmt, 400, 'format: format must be csv or jsonl', 'VALIDATION_ERROR');
  });

  it('keeps limit within 1-1000', async () => {
    const msg = 'limit: limit must be an integer from 1 to 1000';
    for (const limit of ['0', '1001', '-1', '1.5', 'abc', '', '99999999']) {
      expectError(await get({ ...W, limit }), 400, msg, 'VALIDATION_ERROR');
    }
    const one = await get({ ...W, limit: 1, format: 'jsonl' });
    expect(one.status).toBe(200);
    expect(seqsOf(jsonl(one))).toEqual([seqs.r1requested]);
    expect(one.headers.get('x-row-count')).toBe('1');
    expect(one.headers.get('x-has-more')).toBe('true');
    const max = await get({ ...BULK, limit: 1000, format: 'jsonl' });
    expect(jsonl(max)).toHaveLength(1000);
  });

  it('refuses malformed filter ids', async () => {
    expectError(await get({ ...W, deviceId: '1' }), 400, 'deviceId: deviceId must be a UUID');
    expectError(await get({ ...W, siteId: 'x' }), 400, 'siteId: siteId must be a UUID');
    expectError(
      await get({ ...W, elevationRequestId: 'x' }),
      400,
      'elevationRequestId: elevationRequestId must be a UUID',
    );
  });
});

describe('paging with the cursor', () => {
  it('pages through 2,500 events with no gap and no duplicate, and says when the export is final', async () => {
    const pages: ApiResponse[] = [];
    let cursor: string | undefined;
    for (let n = 0; n < 10; n++) {
      const res = await get({ ...BULK, format: 'jsonl', cursor });
      expect(res.status).toBe(200);
      pages.push(res);
      if (res.headers.get('x-has-more') !== 'true') break;
      cursor = res.headers.get('x-next-cursor') ?? '';
      expect(cursor).not.toBe('');
    }
    expect(pages.map((p) => p.headers.get('x-row-count'))).toEqual(['1000', '1000', '500']);
    expect(pages.map((p) => p.headers.get('x-has-more'))).toEqual(['true', 'true', 'false']);
    expect(pages.map((p) => p.headers.get('x-window-complete'))).toEqual(['false', 'false', 'true']);
    expect(pages.map((p) => p.headers.get('x-next-cursor') === '')).toEqual([false, false, true]);
    for (const p of pages) {
      expect(p.headers.get('x-export-schema-version')).toBe('1');
      // The window is in the past: settled through its end.
      expect(p.headers.get('x-settled-through')).toBe(BULK.to);
      expect(Number(p.headers.get('x-row-count'))).toBe(jsonl(p).length);
    }
    const got = pages.flatMap((p) => seqsOf(jsonl(p)));
    expect(got).toEqual(bulkSeqs);
    expect(new Set(got).size).toBe(2500);
  });

  it('a page that ends exactly on the last row says there is no more; limit and format may change between pages', async () => {
    const first = await get({ ...BULK, format: 'csv', limit: 750 });
    expect(first.headers.get('x-has-more')).toBe('true');
    const firstRows = csvObjects(first.body);
    expect(firstRows).toHaveLength(750);
    const second = await get({
      ...BULK,
      format: 'jsonl',
      limit: 1000,
      cursor: first.headers.get('x-next-cursor')!,
    });
    expect(second.headers.get('x-has-more')).toBe('true');
    const third = await get({
      ...BULK,
      limit: 750,
      format: 'jsonl',
      cursor: second.headers.get('x-next-cursor')!,
    });
    expect(third.headers.get('x-row-count')).toBe('750');
    expect(third.headers.get('x-has-more')).toBe('false');
    expect(third.headers.get('x-next-cursor')).toBe('');
    expect(third.headers.get('x-window-complete')).toBe('true');
    expect([...seqsOf(firstRows), ...seqsOf(jsonl(second)), ...seqsOf(jsonl(third))]).toEqual(bulkSeqs);
  });

  it('an open window keeps a cursor on its last page and later yields exactly the events written since', async () => {
    const now = Date.now();
    const open = { from: new Date(now - 60 * MIN).toISOString(), to: new Date(now + 60 * MIN).toISOString() };
    const live = insertRequest(ids.a1, ids.dev2, ids.s2);
    const before = insertEvent(live, {
      type: 'elevation.requested',
      occurredAt: new Date(now - MIN).toISOString(),
    });

    const first = await get({ ...open, format: 'jsonl' });
    expect(seqsOf(jsonl(first))).toEqual([before]);
    expect(first.headers.get('x-has-more')).toBe('false');
    expect(first.headers.get('x-window-complete')).toBe('false');
    const settled = Date.parse(first.headers.get('x-settled-through')!);
    expect(settled).toBeLessThanOrEqual(Date.now() - 2000);
    expect(settled).toBeGreaterThan(now - 10_000);
    const cursor = first.headers.get('x-next-cursor')!;
    expect(cursor).not.toBe('');

    // Nothing new yet: an empty page that still hands back a cursor.
    const idle = await get({ ...open, format: 'jsonl', cursor });
    expect(idle.headers.get('x-row-count')).toBe('0');
    expect(idle.body ?? '').toBe('');
    expect(idle.headers.get('x-next-cursor')).not.toBe('');

    const after = insertEvent(live, {
      type: 'elevation.approved',
      occurredAt: new Date().toISOString(),
      status: 'approved',
    });
    const resumed = await get({ ...open, format: 'jsonl', cursor: idle.headers.get('x-next-cursor')! });
    expect(seqsOf(jsonl(resumed))).toEqual([after]);
    expect(resumed.headers.get('x-window-complete')).toBe('false');
  });

  it('refuses a tampered, forged or foreign cursor with 400 Invalid cursor', async () => {
    const first = await get({ ...BULK, format: 'jsonl', limit: 10 });
    const cursor = first.headers.get('x-next-cursor')!;
    expect(cursor).not.toBe('');
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    const invalid = (res: ApiResponse) => expectError(res, 400, 'Invalid cursor', 'INVALID_CURSOR');

    invalid(await get({ ...BULK, cursor: flip(cursor, cursor.length - 3) }));
    invalid(await get({ ...BULK, cursor: flip(cursor, 10) }));
    invalid(await get({ ...BULK, cursor: 'garbage' }));
    invalid(await get({ ...BULK, cursor: Buffer.from('{"seq":10}').toString('base64url') }));
    invalid(await get({ ...BULK, cursor: 'x'.repeat(5000) }));
    // Foreign: another window, another filter, another organization, another caller.
    invalid(await get({ ...BULK, to: '2025-06-01T12:00:00Z', cursor }));
    invalid(await get({ ...BULK, eventType: 'elevation.requested', cursor }));
    invalid(await get({ ...BULK, deviceId: ids.dev1, cursor }));
    invalid(await get({ ...BULK, orgId: ids.a1, cursor }, tok.partnerAll));
    invalid(await get({ ...BULK, cursor }, tok.orgAdminB));
    // The same query in another offset is the same query.
    const same = await get({
      from: '2025-06-01T02:00:00+02:00',
      to: BULK.to,
      format: 'jsonl',
      limit: 10,
      cursor,
    });
    expect(same.status).toBe(200);
    expect(seqsOf(jsonl(same))).toEqual(bulkSeqs.slice(10, 20));
    // An empty cursor (an echoed empty X-Next-Cursor) starts from the beginning.
    const restart = await get({ ...BULK, format: 'jsonl', limit: 10, cursor: '' });
    expect(seqsOf(jsonl(restart))).toEqual(bulkSeqs.slice(0, 10));
  });
});
