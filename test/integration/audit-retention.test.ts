import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAuditRetention } from '../../server/modules/audit';
import { auditWorld, entry, writeEntries, type AuditWorld } from '../support/audit-world';
import { auditSettled } from '../support/server';

// Retention per organization (spec 2) and tamper evidence: the cleanup removes only rows older than the window,
// behind an anchor that keeps the chain verifiable; verify names an edited and a removed row; chain status is kept.

let w: AuditWorld;
beforeEach(async () => {
  w = await auditWorld();
}, 60_000);
afterEach(() => w.server.dispose());

const DAY = 24 * 3600 * 1000;
const put = (body: unknown, orgId: string, token = w.tokens.orgAdmin) =>
  w.server.api.request('PUT', `/audit/retention?orgId=${orgId}`, { body, token });
const seqs = (orgId: string) =>
  (
    w.server.context.db
      .prepare('SELECT resource_name FROM audit_logs WHERE org_id = ? ORDER BY seq')
      .all(orgId) as Array<{
      resource_name: string | null;
    }>
  ).map((r) => r.resource_name);

const actionsOf = (orgId: string) =>
  (
    w.server.context.db
      .prepare('SELECT action FROM audit_logs WHERE org_id = ? ORDER BY seq')
      .all(orgId) as Array<{
      action: string;
    }>
  ).map((r) => r.action);

describe('retention policy', () => {
  it('reads the defaults, sets the window with MFA and organizations:write, and audits the change', async () => {
    const read = await w.server.api.get('/audit/retention', w.tokens.orgReader);
    expect(read.body).toEqual({
      orgId: w.orgA,
      retentionDays: 365,
      archiveToS3: false,
      archiveSupported: false,
      lastCleanupAt: null,
      lastCleanupRemoved: 0,
      updatedAt: null,
    });
    const set = await put({ retentionDays: 90 }, w.orgA);
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ retentionDays: 90, updatedAt: expect.any(String) });
    await auditSettled(w.server);
    const logged = await w.server.api.get(
      '/audit-logs/logs?action=audit.retention.update',
      w.tokens.orgAdmin,
    );
    expect(logged.body.data[0]).toMatchObject({
      resource: { type: 'organization', id: w.orgA },
      changes: { before: { retentionDays: 365 }, after: { retentionDays: 90 } },
    });
    expect(
      (await w.server.api.get(`/audit/retention?orgId=${w.orgA}`, w.tokens.partnerAdmin)).body.retentionDays,
    ).toBe(90);
  });

  it('refuses bad windows, archiving, missing orgId above organizations, and callers who may not', async () => {
    expect((await put({ retentionDays: 7 }, w.orgA)).body.error).toBe(
      'retentionDays: retentionDays must be 30-3650',
    );
    expect((await put({ retentionDays: 'x' }, w.orgA)).status).toBe(400);
    expect(await put({ retentionDays: 400, archiveToS3: true }, w.orgA)).toMatchObject({
      status: 400,
      body: { error: 'Archiving to object storage is not offered' },
    });
    expect(await w.server.api.get('/audit/retention', w.tokens.partnerAdmin)).toMatchObject({
      status: 400,
      body: { error: 'orgId is required for partner scope' },
    });
    expect((await put({ retentionDays: 90 }, w.orgA, w.tokens.orgReader)).status).toBe(403);
    expect((await put({ retentionDays: 90 }, w.orgX, w.tokens.partnerAdmin)).status).toBe(404);
    expect((await w.server.api.get(`/audit/retention?orgId=${w.orgX}`, w.tokens.partnerAdmin)).status).toBe(
      404,
    );
    const { signedToken } = await import('../support/seed');
    const noMfa = await signedToken(w.server, 'admin@contoso.test', false);
    expect((await put({ retentionDays: 90 }, w.orgA, noMfa)).status).toBe(403);
  });
});

describe('cleanup', () => {
  it('removes only rows older than the window, per organization, and the chain still verifies', async () => {
    await writeEntries(w.server, [
      ...['old-1', 'old-2', 'old-3'].map((n) => entry(w.orgA, w.ids.orgAdmin, { resourceName: n })),
      entry(w.orgB, w.ids.partnerAdmin, { resourceName: 'b-old' }),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const cut = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await writeEntries(w.server, [
      entry(w.orgA, w.ids.orgAdmin, { resourceName: 'new-1' }),
      entry(w.orgA, w.ids.orgAdmin, { resourceName: 'new-2' }),
    ]);
    expect((await put({ retentionDays: 400 }, w.orgB, w.tokens.partnerAdmin)).status).toBe(200);
    await auditSettled(w.server);
    const keptBefore = seqs(w.orgA).filter((n) => n?.startsWith('new') || n === null);
    // "Now" is 365 days after the cut: Contoso (default 365 days) loses what came before it, Fabrikam (400) nothing.
    const outcome = await runAuditRetention(w.server.context, new Date(cut + 365 * DAY));
    expect(outcome).toEqual([{ orgId: w.orgA, removed: 3 }]);
    expect(seqs(w.orgA)).toEqual(keptBefore);
    expect(seqs(w.orgB)).toContain('b-old');
    await auditSettled(w.server);

    const verify = await w.server.api.get(`/audit-logs/verify?orgId=${w.orgA}`, w.tokens.orgAdmin);
    expect(verify.body).toMatchObject({ valid: true, rowsChecked: keptBefore.length + 1 });
    expect(verify.body.chains[0]).toMatchObject({ valid: true, problems: [], anchor: { rowsRemoved: 3 } });
    // The cleanup is audited in the chain it cut, naming its anchor.
    const cleanup = await w.server.api.get(
      '/audit-logs/logs?action=audit.retention.cleanup',
      w.tokens.orgAdmin,
    );
    expect(cleanup.body.data[0]).toMatchObject({
      actorType: 'system',
      details: { removed: 3, retentionDays: 365, anchorChecksum: verify.body.chains[0].anchor.checksum },
    });
    const policy = await w.server.api.get('/audit/retention', w.tokens.orgAdmin);
    expect(policy.body).toMatchObject({
      lastCleanupAt: new Date(cut + 365 * DAY).toISOString(),
      lastCleanupRemoved: 3,
    });
    // A second pass at the same time finds nothing more; the whole platform still verifies.
    expect(await runAuditRetention(w.server.context, new Date(cut + 365 * DAY))).toEqual([]);
    expect((await w.server.api.get('/audit-logs/verify', w.tokens.system)).body.valid).toBe(true);
  });

  it('cuts in batches and keeps a chain whose every row aged out verifiable', async () => {
    const { RETENTION_BATCH } = await import('../../server/modules/audit/retention');
    await writeEntries(
      w.server,
      Array.from({ length: RETENTION_BATCH + 10 }, (_, i) =>
        entry(w.orgB, w.ids.partnerAdmin, { resourceName: `r${i}` }),
      ),
    );
    const outcome = await runAuditRetention(w.server.context, new Date(Date.now() + 366 * DAY));
    expect(outcome).toEqual(expect.arrayContaining([{ orgId: w.orgB, removed: RETENTION_BATCH + 10 }]));
    expect(seqs(w.orgB)).toEqual([]);
    await auditSettled(w.server);
    // What is left is the cleanup's own entry, chained to the anchor.
    expect(actionsOf(w.orgB)).toEqual(['audit.retention.cleanup']);
    const verify = await w.server.api.get(`/audit-logs/verify?orgId=${w.orgB}`, w.tokens.partnerAdmin);
    expect(verify.body.chains[0]).toMatchObject({
      valid: true,
      checked: 1,
      anchor: { rowsRemoved: RETENTION_BATCH + 10 },
    });
  });
});

describe('verify', () => {
  async function chain(n: number) {
    await writeEntries(
      w.server,
      Array.from({ length: n }, (_, i) => entry(w.orgA, w.ids.orgAdmin, { resourceName: `e${i}` })),
    );
    return w.server.context.db
      .prepare('SELECT id, seq, timestamp, action FROM audit_logs WHERE org_id = ? ORDER BY seq')
      .all(w.orgA) as Array<{ id: string; seq: number; timestamp: string; action: string }>;
  }

  it('names the edited row and the removed one, and keeps the outcome as the chain status', async () => {
    const rows = await chain(6);
    const [, edited, , before, removed, after] = rows;
    w.server.context.db
      .prepare("UPDATE audit_logs SET resource_name = 'forged' WHERE id = ?")
      .run(edited!.id);
    w.server.context.db.prepare('DELETE FROM audit_logs WHERE id = ?').run(removed!.id);
    const res = await w.server.api.get(`/audit/verify?orgId=${w.orgA}`, w.tokens.orgAdmin);
    expect(res.body.valid).toBe(false);
    const [result] = res.body.chains;
    expect(result).toMatchObject({ chain: w.orgA, orgId: w.orgA, valid: false, checked: 5 });
    expect(result.problems).toEqual([
      { reason: 'checksum_mismatch', entryId: edited!.id, seq: edited!.seq, edited: edited },
      {
        reason: 'chain_broken',
        entryId: after!.id,
        seq: after!.seq,
        removed: { after: before, before: after },
      },
    ]);
    expect(result.problem).toEqual(result.problems[0]);
    expect(result.durationMs).toEqual(expect.any(Number));

    const status = await w.server.api.get('/audit/chains', w.tokens.orgReader);
    expect(status.body.chains).toEqual([
      expect.objectContaining({
        chain: w.orgA,
        name: 'Contoso',
        lastVerifiedAt: res.body.checkedAt,
        lastResult: { valid: false, checked: 5, durationMs: expect.any(Number), problems: result.problems },
      }),
    ]);
  });

  it('names the newest rows removed after the last one kept', async () => {
    const rows = await chain(4);
    w.server.context.db.prepare('DELETE FROM audit_logs WHERE id = ?').run(rows[3]!.id);
    const res = await w.server.api.get(`/audit-logs/verify?orgId=${w.orgA}`, w.tokens.orgAdmin);
    expect(res.body.chains[0].problems).toEqual([
      {
        reason: 'head_mismatch',
        entryId: null,
        seq: rows[2]!.seq,
        removed: { after: rows[2], before: null, expectedHeadSeq: rows[3]!.seq },
      },
    ]);
  });

  it('names a removed first row after a retention cut as an anchor mismatch', async () => {
    await chain(3);
    await runAuditRetention(w.server.context, new Date(Date.now() + 366 * DAY));
    await auditSettled(w.server);
    const rows = await chain(3);
    w.server.context.db.prepare('DELETE FROM audit_logs WHERE id = ?').run(rows[0]!.id);
    const res = await w.server.api.get(`/audit-logs/verify?orgId=${w.orgA}`, w.tokens.orgAdmin);
    expect(res.body.chains[0].problems[0]).toMatchObject({
      reason: 'anchor_mismatch',
      entryId: rows[1]!.id,
      removed: { after: null, before: rows[1] },
    });
  });

  it("lists only the chains in the caller's scope", async () => {
    await writeEntries(w.server, [
      entry(w.orgA, w.ids.orgAdmin),
      entry(w.orgB, w.ids.partnerAdmin),
      entry(w.orgX, w.ids.otherAdmin),
    ]);
    const names = async (token: string) =>
      ((await w.server.api.get('/audit/chains', token)).body.chains as Array<{ chain: string }>).map(
        (c) => c.chain,
      );
    expect(await names(w.tokens.partnerAdmin)).toEqual(expect.arrayContaining([w.orgA, w.orgB]));
    expect(await names(w.tokens.partnerAdmin)).not.toContain(w.orgX);
    expect(await names(w.tokens.otherAdmin)).toEqual([w.orgX]);
    expect(await names(w.tokens.system)).toEqual(
      expect.arrayContaining(['platform', w.orgA, w.orgB, w.orgX]),
    );
  });
});
