import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { jsonl } from '../support/export-formats';
import {
  ids,
  tok,
  W,
  seqs,
  get,
  expectError,
  seqsOf,
  FEATURE_SEQS,
  usePamExportWorld,
  BULK,
} from '../support/pam-export-world';

// GET /pam/elevation-audit/export: the window rules and the organization rules per scope.

usePamExportWorld();

describe('window rules', () => {
  it('refuses a missing, offset-less, malformed, reversed, empty or over-long window with EXPORT_WINDOW_INVALID', async () => {
    const code = 'EXPORT_WINDOW_INVALID';
    expectError(await get({ to: W.to }), 400, 'from is required (ISO 8601 date-time with offset)', code);
    expectError(await get({ from: W.from }), 400, 'to is required (ISO 8601 date-time with offset)', code);
    const offsetMsg = (f: string) =>
      `${f} must be an ISO 8601 date-time with offset, e.g. 2026-01-31T00:00:00Z`;
    expectError(await get({ from: '2025-03-01T00:00:00', to: W.to }), 400, offsetMsg('from'), code);
    expectError(await get({ from: W.from, to: '2025-03-02' }), 400, offsetMsg('to'), code);
    expectError(await get({ from: 'yesterday', to: W.to }), 400, offsetMsg('from'), code);
    expectError(await get({ from: '2025-02-30T00:00:00Z', to: W.to }), 400, offsetMsg('from'), code);
    expectError(await get({ from: W.from, to: W.from }), 400, 'from must be before to', code);
    expectError(await get({ from: W.to, to: W.from }), 400, 'from must be before to', code);
    // Equal instants in different offsets are still equal.
    expectError(
      await get({ from: '2025-03-01T02:00:00+02:00', to: '2025-03-01T00:00:00Z' }),
      400,
      'from must be before to',
      code,
    );
    const longTo = new Date(Date.parse(W.from) + 366 * 86_400_000 + 1).toISOString();
    expectError(
      await get({ from: W.from, to: longTo }),
      400,
      'The export window must be at most 366 days',
      code,
    );
  });

  it('accepts exactly 366 days and offsets other than Z; from is inclusive, to exclusive', async () => {
    const to366 = new Date(Date.parse(W.from) + 366 * 86_400_000).toISOString();
    const long = await get({ from: W.from, to: to366, format: 'jsonl', eventType: 'elevation.expired' });
    expect(long.status).toBe(200);
    expect(seqsOf(jsonl(long))).toEqual([seqs.r3expired]);

    const res = await get({
      from: '2025-03-01T01:00:00+01:00',
      to: '2025-03-02T05:30:00+05:30',
      format: 'jsonl',
    });
    expect(res.status).toBe(200);
    const got = seqsOf(jsonl(res));
    expect(got).toEqual(FEATURE_SEQS());
    expect(got).not.toContain(seqs.r3atEnd);
    expect(got).not.toContain(seqs.r3before);
    expect(got).not.toContain(seqs.a2requested);
  });
});

describe('organization rules', () => {
  it('requires orgId from partner and system callers', async () => {
    expectError(await get({ ...W }, tok.system), 400, 'orgId is required for system scope');
    expectError(await get({ ...W }, tok.partnerAll), 400, 'orgId is required for partner scope');
    expectError(await get({ ...W, orgId: 'nope' }, tok.system), 400, 'orgId: orgId must be a UUID');
  });

  it('exports an organization in scope for system and partner callers, 404 outside it', async () => {
    const sys = await get({ ...W, orgId: ids.b1, format: 'jsonl' }, tok.system);
    expect(sys.status).toBe(200);
    expect(jsonl(sys).map((r) => r.orgId)).toEqual([ids.b1]);

    const partner = await get({ ...W, orgId: ids.a1, format: 'jsonl' }, tok.partnerAll);
    expect(partner.status).toBe(200);
    expect(seqsOf(jsonl(partner))).toEqual(FEATURE_SEQS());

    expectError(await get({ ...W, orgId: ids.b1 }, tok.partnerAll), 404, 'Organization not found');
    expectError(await get({ ...W, orgId: ids.a1 }, tok.partnerSelected), 404, 'Organization not found');
    expectError(await get({ ...W, orgId: randomUUID() }, tok.system), 404, 'Organization not found');
    const selected = await get({ ...W, orgId: ids.a2, format: 'jsonl' }, tok.partnerSelected);
    expect(seqsOf(jsonl(selected))).toEqual([seqs.a2requested]);
  });

  it('organization callers export their own organization; another orgId is 403', async () => {
    const own = await get({ ...W, format: 'jsonl' });
    expect(seqsOf(jsonl(own))).toEqual(FEATURE_SEQS());
    const explicit = await get({ ...W, orgId: ids.a1, format: 'jsonl' });
    expect(seqsOf(jsonl(explicit))).toEqual(FEATURE_SEQS());
    expectError(await get({ ...W, orgId: ids.b1 }), 403, 'Access to this organization denied');
    expectError(await get({ ...W, orgId: ids.a2 }), 403, 'Access to this organization denied');
  });

  it('never shows another tenant its events: Bravo sees only Bravo, Alpha never sees Bravo', async () => {
    const bravo = await get({ ...BULK, format: 'jsonl' }, tok.orgAdminB);
    const rows = jsonl(bravo);
    expect(rows.length).toBe(26); // i % 97 === 0 for i < 2500
    expect(new Set(rows.map((r) => r.orgId))).toEqual(new Set([ids.b1]));
    expect(new Set(rows.map((r) => r.deviceHostname))).toEqual(new Set(['bravo-secret-host']));

    const alpha = await get({ ...W, format: 'csv' });
    expect(alpha.body).not.toContain('bravo');
    expect(alpha.body).not.toContain(ids.b1);
  });
});
