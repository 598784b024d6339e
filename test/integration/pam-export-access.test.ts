import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { auditSettled } from '../support/server';
import { jsonl } from '../support/export-formats';
import {
  server,
  ids,
  tok,
  apiKey,
  W,
  seqs,
  exportUrl,
  get,
  expectError,
  seqsOf,
  usePamExportWorld,
} from '../support/pam-export-world';

// GET /pam/elevation-audit/export: filters, site restriction, permissions, MFA and the audit entry.

usePamExportWorld();

describe('filters and site restriction', () => {
  const only = async (params: Record<string, string>, token = tok.orgAdmin) => {
    const res = await get({ ...W, format: 'jsonl', ...params }, token);
    expect(res.status).toBe(200);
    return seqsOf(jsonl(res));
  };

  it('filters by site, device, request and event type, alone and combined', async () => {
    expect(await only({ siteId: ids.s1 })).toEqual([
      seqs.r1requested,
      seqs.r1approved,
      seqs.r1actuating,
      seqs.r1enforced,
    ]);
    expect(await only({ siteId: ids.s2 })).toEqual([seqs.r2requested, seqs.r2denied]);
    expect(await only({ deviceId: ids.dev3 })).toEqual([seqs.r3requested, seqs.r3expired]);
    expect(await only({ elevationRequestId: ids.req2 })).toEqual([seqs.r2requested, seqs.r2denied]);
    expect(await only({ eventType: 'elevation.requested' })).toEqual([
      seqs.r1requested,
      seqs.r2requested,
      seqs.r3requested,
    ]);
    expect(await only({ eventType: 'elevation.requested', siteId: ids.s2 })).toEqual([seqs.r2requested]);
    expect(await only({ deviceId: ids.devB })).toEqual([]);
    expect(await only({ elevationRequestId: ids.reqB })).toEqual([]);
  });

  it('refuses a site outside the organization or the caller', async () => {
    expectError(await get({ ...W, siteId: ids.sB }), 403, 'Access to this site denied');
    expectError(await get({ ...W, orgId: ids.a1, siteId: ids.sB }, tok.system), 404, 'Site not found');
    expectError(await get({ ...W, siteId: randomUUID() }), 404, 'Site not found');
  });

  it('a site-restricted auditor sees only the events of their sites', async () => {
    expect(await only({}, tok.siteAuditor)).toEqual([
      seqs.r1requested,
      seqs.r1approved,
      seqs.r1actuating,
      seqs.r1enforced,
    ]);
    expect(await only({ deviceId: ids.dev2 }, tok.siteAuditor)).toEqual([]);
    expectError(await get({ ...W, siteId: ids.s2 }, tok.siteAuditor), 403, 'Access to this site denied');
  });
});

describe('access', () => {
  it('needs audit:export and devices:read, an MFA session, and a user session', async () => {
    const tech = await get({ ...W }, tok.orgTech);
    expectError(tech, 403, 'Insufficient permissions', 'PERMISSION_DENIED');
    expect(tech.body.required).toBe('audit:export');
    expectError(await get({ ...W }, tok.noMfa), 403, 'MFA required', 'MFA_REQUIRED');
    const key = await server.api.request('GET', exportUrl({ ...W }), { headers: { 'x-api-key': apiKey } });
    expectError(key, 401, 'Authentication required', 'AUTH_REQUIRED');
    const none = await server.api.get(exportUrl({ ...W }));
    expect(none.status).toBe(401);
  });

  it('records pam.elevation_audit.export with the filters and the row count, never the rows', async () => {
    const res = await get({ ...W, eventType: 'elevation.approved', format: 'jsonl' });
    expect(res.status).toBe(200);
    await auditSettled(server);
    const entry = server.context.db
      .prepare(
        "SELECT * FROM audit_logs WHERE action = 'pam.elevation_audit.export' ORDER BY seq DESC LIMIT 1",
      )
      .get() as {
      org_id: string;
      actor_email: string;
      resource_type: string;
      details: string;
      result: string;
    };
    expect(entry).toMatchObject({
      org_id: ids.a1,
      actor_email: 'admin@a1.test',
      resource_type: 'elevation_audit',
      result: 'success',
    });
    const details = JSON.parse(entry.details) as Record<string, unknown>;
    expect(details).toMatchObject({
      format: 'jsonl',
      from: W.from,
      to: W.to,
      eventType: 'elevation.approved',
      siteId: null,
      deviceId: null,
      elevationRequestId: null,
      limit: 1000,
      continued: false,
      rowCount: 1,
      hasMore: false,
    });
    expect(entry.details).not.toContain('HYPERLINK');
    expect(entry.details).not.toContain('alice');
  });

  it('is described in the OpenAPI document', async () => {
    const doc = await server.api.get('/openapi.json');
    expect(
      doc.body.paths['/api/v1/pam/elevation-audit/export'].get.parameters.map(
        (p: { name: string }) => p.name,
      ),
    ).toEqual(expect.arrayContaining(['from', 'to', 'orgId', 'format', 'eventType', 'limit', 'cursor']));
  });
});
