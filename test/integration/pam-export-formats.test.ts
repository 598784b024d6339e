import { describe, expect, it } from 'vitest';
import { EXPORT_COLUMNS } from '../../server/modules/pam/audit-export/schemas';
import { jsonl, csvObjects } from '../support/export-formats';
import {
  ids,
  tok,
  W,
  at,
  MIN,
  seqs,
  get,
  seqsOf,
  FEATURE_SEQS,
  usePamExportWorld,
} from '../support/pam-export-world';

// GET /pam/elevation-audit/export: CSV quoting and formula neutralizing, and JSON Lines.

usePamExportWorld();

describe('formats', () => {
  it('CSV: header row, RFC 4180 quoting, formula neutralizing, download headers', async () => {
    const res = await get({ ...W, orgId: ids.a1 }, tok.system);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="elevation-audit-${ids.a1}-20250301T000000Z.csv"`,
    );
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = res.body;
    expect(text.split('\r\n')[0]).toBe(EXPORT_COLUMNS.join(','));
    expect(text.endsWith('\r\n')).toBe(true);
    // Raw quoting: comma and quotes inside a quoted field, quotes doubled.
    expect(text).toContain('"C:\\Program Files\\a,b ""quoted"".exe"');
    expect(text).toContain(`"'=HYPERLINK(""http://evil.test"",""x"")"`);

    const rows = csvObjects(text);
    expect(seqsOf(rows)).toEqual(FEATURE_SEQS());
    const approved = rows.find((r) => Number(r.seq) === seqs.r1approved)!;
    expect(approved).toMatchObject({
      eventType: 'elevation.approved',
      occurredAt: at(W.from, 2 * MIN),
      orgId: ids.a1,
      siteId: ids.s1,
      deviceId: ids.dev1,
      deviceHostname: 'hq-ws-01',
      elevationRequestId: ids.req1,
      flowType: 'uac_intercept',
      status: 'approved',
      enforcementStatus: 'pending_dispatch',
      actorType: 'user',
      actorName: "'@alice",
      subjectUsername: "'+jdoe",
      targetExecutablePath: 'C:\\Program Files\\a,b "quoted".exe',
      targetExecutableHash: 'a'.repeat(64),
      targetExecutableSigner: `'=HYPERLINK("http://evil.test","x")`,
      toolName: '',
      riskTier: '',
      riskLevel: 'high',
      decisionSource: 'human',
      assuranceLevel: '2',
      assuranceMethod: 'platform_authenticator',
      reason: 'Installer\tfor "finance", approved',
    });
    const denied = rows.find((r) => Number(r.seq) === seqs.r2denied)!;
    // Starts with `-` and holds CR LF: neutralized and quoted, line break kept inside the field.
    expect(denied.reason).toBe("'-line one\r\nline two");
    expect(denied).toMatchObject({ flowType: 'ai_tool_action', toolName: 'shell.exec', riskTier: '3' });
    expect(denied.pamRuleName).toBe('Block shell');
    // A reason that is not text or a number is not exported.
    expect(rows.find((r) => Number(r.seq) === seqs.r3expired)!.reason).toBe('');
    // Events without a site: empty siteId.
    expect(rows.find((r) => Number(r.seq) === seqs.r3requested)!.siteId).toBe('');
  });

  it('JSONL: one object per line with every column in order, values unchanged', async () => {
    const res = await get({ ...W, format: 'jsonl' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="elevation-audit-${ids.a1}-20250301T000000Z.jsonl"`,
    );
    const text = res.body as unknown as string;
    expect(text.endsWith('\n')).toBe(true);
    const rows = jsonl(res);
    expect(rows).toHaveLength(8);
    for (const row of rows) expect(Object.keys(row)).toEqual([...EXPORT_COLUMNS]);
    const approved = rows.find((r) => r.seq === seqs.r1approved)!;
    expect(approved).toMatchObject({
      targetExecutableSigner: '=HYPERLINK("http://evil.test","x")',
      subjectUsername: '+jdoe',
      actorName: '@alice',
      riskTier: null,
      assuranceLevel: 2,
      reason: 'Installer\tfor "finance", approved',
    });
    const denied = rows.find((r) => r.seq === seqs.r2denied)!;
    expect(denied).toMatchObject({
      riskTier: 3,
      reason: '-line one\r\nline two',
      targetExecutablePath: null,
    });
  });

  it('an empty page is a header-only CSV or an empty JSONL body', async () => {
    const empty = { from: '2020-01-01T00:00:00Z', to: '2020-01-02T00:00:00Z' };
    const csv = await get(empty);
    expect(csv.status).toBe(200);
    expect(csv.body).toBe(`${EXPORT_COLUMNS.join(',')}\r\n`);
    expect(csv.headers.get('x-row-count')).toBe('0');
    expect(csv.headers.get('x-window-complete')).toBe('true');
    expect(csv.headers.get('x-next-cursor')).toBe('');
    const lines = await get({ ...empty, format: 'jsonl' });
    expect(lines.body ?? '').toBe('');
  });
});
