import { describe, expect, it } from 'vitest';
import { MFA_REQUIRED_MESSAGE } from '../../server/http/authenticate';
import { auditOf } from '../support/tenancy';
import {
  aardvark,
  alpha,
  badger,
  beta,
  betaAardvark,
  orgsOf,
  server,
  sitesOf,
  tokens,
  useImportWorld,
} from '../support/import-world';

// Organization and site import over real HTTP (spec 3, Import rows, States and transitions): every annotation,
// the echo rules, modes, limits and who may call.

useImportWorld();

const preview = (rows: unknown[], token = tokens.admin) =>
  server.api.post('/orgs/import/preview', { rows }, token);
const commit = (rows: unknown[], mode?: 'skip' | 'update', token = tokens.admin) =>
  server.api.post('/orgs/import', { rows, ...(mode ? { mode } : {}) }, token);
const db = () => server.context.db;

describe('organization import preview', () => {
  it('annotates create, name-match, link-match, matched-soft-deleted and conflict, and writes nothing', async () => {
    const linked = (
      await commit([{ organization: 'Linked Co', site: 'HQ', externalId: 'L-1', externalSystem: 'psa' }])
    ).body.imported[0].organizationId as string;
    const gone = (await commit([{ organization: 'Gone Corp' }])).body.imported[0].organizationId as string;
    db().prepare('UPDATE organizations SET deleted_at = ? WHERE id = ?').run(new Date().toISOString(), gone);
    const before = orgsOf(alpha).length;
    const res = await preview([
      { organization: 'Brand New' },
      { organization: 'aardvark ltd', site: 'Depot' },
      { organization: 'Renamed Elsewhere', externalId: 'L-1', externalSystem: 'psa' },
      { organization: 'Gone Corp' },
      { organization: 'Zebra', timezone: 'Mars/Olympus' },
    ]);
    expect(res.status).toBe(200);
    const rows = res.body.rows as Array<Record<string, unknown>>;
    expect(rows.map((r) => r.annotation)).toEqual([
      'create',
      'name-match',
      'link-match',
      'matched-soft-deleted',
      'conflict',
    ]);
    expect(rows[1]).toMatchObject({
      matchedOrganizationId: aardvark,
      matchedOrganizationName: 'Aardvark Ltd',
    });
    expect(rows[2]).toMatchObject({ matchedOrganizationId: linked, matchedOrganizationName: 'Linked Co' });
    expect(rows[3]).toMatchObject({ matchedOrganizationId: gone, conflictReason: null });
    expect(rows[4]!.conflictReason).toBe('Unknown IANA time zone: Mars/Olympus');
    expect(orgsOf(alpha).length).toBe(before);
  });

  it('flags ambiguous names, duplicate sites and an organization linked to another id as conflicts', async () => {
    await commit([{ organization: 'Twin', externalId: 'T-1' }]);
    await commit([{ organization: 'Twin', forceCreate: true, expectedAnnotation: 'name-match' }]);
    const res = await preview([
      { organization: 'Twin' },
      { organization: 'Solo', site: 'A' },
      { organization: 'Solo', site: 'a' },
      { organization: 'Badger plc', externalId: 'B-9', externalSystem: 'psa' },
      { organization: 'Mixed', externalId: 'M-1' },
      { organization: 'Mixed', externalId: 'M-2' },
    ]);
    const rows = res.body.rows as Array<{ annotation: string; conflictReason: string | null }>;
    expect(rows[0]).toMatchObject({
      annotation: 'conflict',
      conflictReason: '2 organizations are named Twin',
    });
    expect(rows[1]!.annotation).toBe('create');
    expect(rows[2]).toMatchObject({
      annotation: 'conflict',
      conflictReason: 'Site a appears more than once',
    });
    expect(rows[3]!.annotation).toBe('name-match');
    expect(rows[4]).toMatchObject({
      annotation: 'conflict',
      conflictReason: 'Rows of Mixed carry different external ids',
    });
    // Badger learns psa B-9 once a confirmed commit attaches it; then another psa id is a conflict.
    await commit([
      {
        organization: 'Badger plc',
        externalId: 'B-9',
        externalSystem: 'psa',
        expectedAnnotation: 'name-match',
      },
    ]);
    const again = await preview([{ organization: 'Badger plc', externalId: 'B-10', externalSystem: 'psa' }]);
    expect(again.body.rows[0]).toMatchObject({
      annotation: 'conflict',
      conflictReason: 'Badger plc is linked to psa id B-9, not B-10',
    });
    expect(badger).toBeTruthy();
  });

  it("never matches another partner's organizations", async () => {
    const res = await preview([{ organization: 'Aardvark Ltd' }], tokens.betaAdmin);
    expect(res.body.rows[0]).toMatchObject({ annotation: 'name-match', matchedOrganizationId: betaAardvark });
    const own = await preview([{ organization: 'Aardvark Ltd' }]);
    expect(own.body.rows[0].matchedOrganizationId).toBe(aardvark);
  });
});

describe('organization import commit', () => {
  it('groups rows into one organization with many sites, a default site for a group without sites, IANA zones', async () => {
    const res = await commit([
      { organization: 'Grouped Inc', site: 'North', timezone: 'europe/berlin', address: { city: 'Berlin' } },
      { organization: 'grouped inc', site: 'South', contact: { name: 'Ann', email: 'ann@g.test' } },
      { organization: 'Lonely LLC' },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.errors).toEqual([]);
    expect(res.body.imported).toHaveLength(3);
    const grouped = res.body.imported[0].organizationId as string;
    expect(res.body.imported[1].organizationId).toBe(grouped);
    expect(res.body.imported.map((r: { organizationCreated: boolean }) => r.organizationCreated)).toEqual([
      true,
      false,
      true,
    ]);
    expect(sitesOf(grouped).map((s) => [s.name, s.timezone])).toEqual([
      ['North', 'Europe/Berlin'],
      ['South', 'UTC'],
    ]);
    const lonely = res.body.imported[2].organizationId as string;
    expect(sitesOf(lonely).map((s) => s.name)).toEqual(['Lonely LLC']);
    const created = await auditOf(server, 'organization.create', grouped);
    expect(created[0]!.details).toMatchObject({ source: 'import', partnerId: alpha });
  });

  it('refuses a name-match unless echoed, and attaches it when echoed', async () => {
    const refused = await commit([{ organization: 'Aardvark Ltd', site: 'Echo site' }]);
    expect(refused.status).toBe(200);
    expect(refused.body.errors[0]).toMatchObject({
      row: 0,
      code: 'match-unconfirmed',
      annotation: 'name-match',
    });
    expect(sitesOf(aardvark).map((s) => s.name)).not.toContain('Echo site');
    const ok = await commit([
      {
        organization: 'Aardvark Ltd',
        site: 'Echo site',
        expectedAnnotation: 'name-match',
        expectedOrganizationId: aardvark,
      },
    ]);
    expect(ok.body.errors).toEqual([]);
    expect(ok.body.imported[0]).toMatchObject({ organizationId: aardvark, organizationCreated: false });
    expect(sitesOf(aardvark).map((s) => s.name)).toContain('Echo site');
  });

  it('restores a soft-deleted match only with reactivate, or creates anew with forceCreate', async () => {
    const id = (await commit([{ organization: 'Phoenix' }])).body.imported[0].organizationId as string;
    db().prepare('UPDATE organizations SET deleted_at = ? WHERE id = ?').run(new Date().toISOString(), id);
    const refused = await commit([{ organization: 'Phoenix', site: 'Ash' }]);
    expect(refused.body.errors[0]).toMatchObject({
      code: 'reactivate-required',
      annotation: 'matched-soft-deleted',
    });
    const restored = await commit([{ organization: 'Phoenix', site: 'Ash', reactivate: true }]);
    expect(restored.body.updated[0]).toMatchObject({ organizationId: id, reactivated: true, site: 'Ash' });
    expect(orgsOf(alpha).find((o) => o.id === id)!.deleted_at).toBeNull();
    expect(await auditOf(server, 'organization.reactivate', id)).toHaveLength(1);

    db().prepare('UPDATE organizations SET deleted_at = ? WHERE id = ?').run(new Date().toISOString(), id);
    const fresh = await commit([{ organization: 'Phoenix', forceCreate: true }]);
    const newId = fresh.body.imported[0].organizationId as string;
    expect(newId).not.toBe(id);
    expect(
      orgsOf(alpha)
        .filter((o) => o.name === 'Phoenix')
        .map((o) => o.slug),
    ).toEqual(['phoenix', 'phoenix']);
  });

  it('refuses, row by row, rows whose annotation or match changed since preview; other rows proceed', async () => {
    const rows = [
      { organization: 'Moving Target', site: 'One' },
      { organization: 'Steady One', site: 'Main' },
      { organization: 'Badger plc', site: 'Yard' },
    ];
    const seen = (await preview(rows)).body.rows as Array<{
      annotation: string;
      matchedOrganizationId: string | null;
    }>;
    expect(seen.map((r) => r.annotation)).toEqual(['create', 'create', 'name-match']);
    // Between preview and commit: someone creates Moving Target, and Badger is renamed away while another
    // Badger plc appears.
    await commit([{ organization: 'Moving Target' }]);
    db().prepare("UPDATE organizations SET name = 'Badger (old)' WHERE id = ?").run(badger);
    const other = (await commit([{ organization: 'Badger plc', forceCreate: true }])).body.imported[0]
      .organizationId as string;
    const res = await commit(
      rows.map((row, i) => ({
        ...row,
        expectedAnnotation: seen[i]!.annotation,
        ...(seen[i]!.matchedOrganizationId ? { expectedOrganizationId: seen[i]!.matchedOrganizationId } : {}),
      })),
    );
    expect(res.status).toBe(200);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ row: 0, code: 'annotation-changed', annotation: 'name-match' }),
      expect.objectContaining({ row: 2, code: 'match-changed', annotation: 'name-match' }),
    ]);
    expect(res.body.imported).toEqual([expect.objectContaining({ row: 1, organization: 'Steady One' })]);
    expect(sitesOf(other)).toHaveLength(1);
    db().prepare("UPDATE organizations SET name = 'Badger plc' WHERE id = ?").run(badger);
    db().prepare('UPDATE organizations SET deleted_at = ? WHERE id = ?').run(new Date().toISOString(), other);
  });

  it('skips existing rows in mode skip and patches only the fields present in mode update', async () => {
    const first = await commit([
      {
        organization: 'Patchable',
        site: 'HQ',
        externalId: 'P-1',
        timezone: 'UTC',
        address: { city: 'Oslo' },
      },
    ]);
    const id = first.body.imported[0].organizationId as string;
    const skip = await commit([
      { organization: 'Patchable', site: 'HQ', externalId: 'P-1', timezone: 'Asia/Tokyo' },
    ]);
    expect(skip.body.skipped).toEqual([
      expect.objectContaining({ row: 0, reason: 'Already exists (mode skip)' }),
    ]);
    expect(sitesOf(id)[0]!.timezone).toBe('UTC');
    const update = await commit(
      [{ organization: 'Patchable Renamed', site: 'HQ', externalId: 'P-1', timezone: 'Asia/Tokyo' }],
      'update',
    );
    expect(update.body.updated).toEqual([
      expect.objectContaining({ organizationId: id, reactivated: false }),
    ]);
    const site = sitesOf(id)[0]!;
    expect(site.timezone).toBe('Asia/Tokyo');
    // The address was absent from the row: kept.
    expect(JSON.parse(site.address)).toEqual({ city: 'Oslo' });
    expect(orgsOf(alpha).find((o) => o.id === id)!.name).toBe('Patchable Renamed');
  });

  it('reports conflicts and the partner organization cap as row errors in a 200', async () => {
    db()
      .prepare('UPDATE partners SET max_organizations = ? WHERE id = ?')
      .run(orgsOf(alpha).filter((o) => !o.deleted_at).length + 1, alpha);
    const res = await commit([
      { organization: 'Capped One' },
      { organization: 'Capped Two' },
      { organization: 'Bad Zone', timezone: '+01:00' },
    ]);
    db().prepare('UPDATE partners SET max_organizations = NULL WHERE id = ?').run(alpha);
    expect(res.status).toBe(200);
    expect(res.body.imported).toHaveLength(1);
    expect(res.body.errors).toEqual([
      expect.objectContaining({
        row: 1,
        code: 'write-failed',
        message: 'Organization limit reached for this partner',
      }),
      expect.objectContaining({ row: 2, code: 'row-conflict', message: 'Unknown IANA time zone: +01:00' }),
    ]);
  });
});

describe('organization import limits and callers', () => {
  it('takes at most 1000 rows', async () => {
    const rows = Array.from({ length: 1001 }, (_, i) => ({ organization: `Org ${i}` }));
    const res = await preview(rows);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('rows: at most 1000 rows per request');
    expect((await commit(rows)).status).toBe(400);
  });

  it('needs an MFA session, partner scope and full partner access', async () => {
    const rows = [{ organization: 'Nope' }];
    const noMfa = await preview(rows, tokens.noMfa);
    expect(noMfa.status).toBe(403);
    // The project's one MFA refusal (server/http/authenticate.ts); spec 3 words it 'MFA required'.
    expect(noMfa.body.error).toBe(MFA_REQUIRED_MESSAGE);
    expect((await commit(rows, undefined, tokens.selected)).status).toBe(403);
    expect((await commit(rows, undefined, tokens.platform)).body.error).toBe('Partner scope required');
    expect(orgsOf(alpha).some((o) => o.name === 'Nope')).toBe(false);
    expect(beta).toBeTruthy();
  });
});
