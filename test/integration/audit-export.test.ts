import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_CSV_COLUMNS, AUDIT_EXPORT_CAP } from '../../server/contract';
import { auditWorld, entry, writeEntries, type AuditWorld } from '../support/audit-world';
import { auditSettled } from '../support/server';

// GET/POST /audit/export: CSV and JSON, capped at 10,000 rows, streamed, escaped, scoped and audited.

let w: AuditWorld;
/** Rows of Contoso beyond the cap; each carries a large details object so the whole file outgrows socket buffers. */
const BULK = AUDIT_EXPORT_CAP + 50;
beforeAll(async () => {
  w = await auditWorld();
  const padding = 'x'.repeat(2_000);
  await writeEntries(
    w.server,
    Array.from({ length: BULK }, (_, i) =>
      entry(w.orgA, w.ids.orgAdmin, {
        action: 'device.update',
        resourceName: `PC-${i}`,
        details: { padding },
      }),
    ),
  );
  await writeEntries(w.server, [
    entry(w.orgB, w.ids.partnerAdmin, {
      action: 'script.execute',
      resourceType: 'script',
      resourceName: '=cmd|"/c calc"!A1',
      userAgent: '+tricky, "quoted"\nnext line',
      details: { path: '-rf', at: '@home' },
    }),
    entry(w.orgX, w.ids.otherAdmin, { action: 'script.execute', resourceName: 'INITECH-ONLY' }),
  ]);
}, 120_000);
afterAll(() => w.server.dispose());

const url = (path: string) => `${w.server.url}/api/v1${path}`;
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** A minimal RFC 4180 reader (quoted fields, doubled quotes, CRLF records) to check what a spreadsheet would see. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (quoted && c === '"') {
      quoted = false;
    } else if (quoted) {
      field += c;
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else {
      field += c;
    }
  }
  return rows;
}

/** The records of a CSV whose fields hold no line breaks (the bulk rows): one per CRLF line. */
const records = (text: string) => text.split('\r\n').filter((line) => line !== '');

describe('export', () => {
  it('writes CSV with the columns, escapes quotes, commas and newlines, and neutralizes formulas', async () => {
    const res = await fetch(url(`/audit/export?orgId=${w.orgB}&format=csv`), {
      headers: auth(w.tokens.partnerAdmin),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="audit-log-\d{8}-\d{6}\.csv"$/,
    );
    expect(res.headers.get('x-total-count')).toBe('1');
    expect(res.headers.get('x-export-row-count')).toBe('1');
    expect(res.headers.get('x-export-truncated')).toBe('false');
    const rows = parseCsv(await res.text());
    expect(rows[0]).toEqual([...AUDIT_CSV_COLUMNS]);
    const record = Object.fromEntries(AUDIT_CSV_COLUMNS.map((c, i) => [c, rows[1]![i]]));
    expect(rows).toHaveLength(2);
    expect(record).toMatchObject({
      action: 'script.execute',
      category: 'automation',
      resourceName: `'=cmd|"/c calc"!A1`,
      userAgent: `'+tricky, "quoted"\nnext line`,
      actorEmail: 'someone@acme.test',
      actorRole: 'Partner Admin',
    });
    expect(JSON.parse(record.details!)).toEqual({ path: '-rf', at: '@home' });
  });

  it('takes the same parameters in a POST body, and answers JSON (an array of full-format entries)', async () => {
    const res = await fetch(url('/audit/export'), {
      method: 'POST',
      headers: { ...auth(w.tokens.partnerAdmin), 'content-type': 'application/json' },
      body: JSON.stringify({ format: 'json', q: 'cmd|', category: 'automation' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/\.json"$/);
    const body = (await res.json()) as Array<{ resource: { name: string }; details: object }>;
    expect(body.map((e) => e.resource.name)).toEqual(['=cmd|"/c calc"!A1']);
    expect(body[0]!.details).toEqual({ path: '-rf', at: '@home' });
    const empty = await fetch(url(`/audit/export?format=json&q=nothing-matches-this`), {
      headers: auth(w.tokens.partnerAdmin),
    });
    expect(await empty.json()).toEqual([]);
  });

  it("never exports another partner's entries", async () => {
    const res = await fetch(url('/audit/export?format=json&action=script.execute'), {
      headers: auth(w.tokens.partnerAdmin),
    });
    const names = ((await res.json()) as Array<{ resource: { name: string } }>).map((e) => e.resource.name);
    expect(names).toEqual(['=cmd|"/c calc"!A1']);
    expect(
      (await fetch(url(`/audit/export?orgId=${w.orgX}`), { headers: auth(w.tokens.partnerAdmin) })).status,
    ).toBe(404);
  });

  it('refuses a bad format, and a caller without audit:export', async () => {
    const bad = await w.server.api.get('/audit/export?format=xml', w.tokens.partnerAdmin);
    expect(bad).toMatchObject({ status: 400, body: { error: 'format: format must be csv or json' } });
    const reader = await w.server.api.get('/audit/export', w.tokens.orgReader);
    expect(reader.status).toBe(403);
  });

  it('stops at 10,000 rows, says so in its headers, and audits the export as data.export', async () => {
    const res = await fetch(url(`/audit/export?orgId=${w.orgA}`), { headers: auth(w.tokens.orgAdmin) });
    expect(res.headers.get('x-total-count')).toBe(String(BULK));
    expect(res.headers.get('x-export-row-count')).toBe(String(AUDIT_EXPORT_CAP));
    expect(res.headers.get('x-export-truncated')).toBe('true');
    expect(res.headers.get('x-export-cap')).toBe(String(AUDIT_EXPORT_CAP));
    const rows = records(await res.text());
    expect(rows).toHaveLength(AUDIT_EXPORT_CAP + 1);
    // Newest first: the last bulk row written leads.
    expect(rows[1]!.split(',')[AUDIT_CSV_COLUMNS.indexOf('resourceName')]).toBe(`PC-${BULK - 1}`);
    await auditSettled(w.server);
    const audited = w.server.context.db
      .prepare(
        "SELECT org_id, actor_email, details FROM audit_logs WHERE action = 'data.export' ORDER BY seq DESC",
      )
      .get() as { org_id: string; actor_email: string; details: string };
    expect(audited.org_id).toBe(w.orgA);
    expect(audited.actor_email).toBe('admin@contoso.test');
    expect(JSON.parse(audited.details)).toMatchObject({
      format: 'csv',
      rows: AUDIT_EXPORT_CAP,
      truncated: true,
    });
  });

  it('streams: the first bytes arrive while later rows are still unread in SQLite', async () => {
    const res = await fetch(url(`/audit/export?orgId=${w.orgA}&action=device.update`), {
      headers: auth(w.tokens.orgAdmin),
    });
    expect(res.headers.get('x-export-row-count')).toBe(String(AUDIT_EXPORT_CAP));
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value).startsWith(`${AUDIT_CSV_COLUMNS.join(',')}\r\n`)).toBe(true);
    // While the client does not read, the server waits for the socket to drain (about 20 MB would not fit in
    // the socket buffers). Rows it has not read yet can still disappear from the file: the oldest 3,000 go now.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const removed = w.server.context.db
      .prepare(
        `DELETE FROM audit_logs WHERE seq IN (SELECT seq FROM audit_logs WHERE org_id = ? AND action = 'device.update'
           ORDER BY seq LIMIT 3050)`,
      )
      .run(w.orgA).changes;
    expect(removed).toBe(3050);
    const decoder = new TextDecoder();
    let text = decoder.decode(first.value, { stream: true });
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    const rows = records(text);
    // Every row that was still in SQLite when its chunk was read: fewer than the headers announced.
    expect(rows.length - 1).toBe(BULK - 3050);
    expect(rows.length - 1).toBeLessThan(AUDIT_EXPORT_CAP);
    // And the server answered other requests while it waited.
    expect((await w.server.api.get('/audit-logs/logs?limit=1', w.tokens.orgAdmin)).status).toBe(200);
  });
});
