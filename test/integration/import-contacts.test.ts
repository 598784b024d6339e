import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { insertSite } from '../support/seed';
import {
  aardvark,
  badger,
  betaAardvark,
  beta,
  server,
  tokens,
  useImportWorld,
} from '../support/import-world';

// Contact import over real HTTP (spec 3, Contact import row, States and transitions): every annotation, the
// warning, the echo rules for hints, every error code, the whole-request 400, and imports never clearing data.

useImportWorld();

const preview = (rows: unknown[], token = tokens.admin, extra: object = {}) =>
  server.api.post('/orgs/contacts/import/preview', { rows, ...extra }, token);
const commit = (rows: unknown[], mode?: 'skip' | 'update', token = tokens.admin, extra: object = {}) =>
  server.api.post('/orgs/contacts/import', { rows, ...(mode ? { mode } : {}), ...extra }, token);

function contact(id: string) {
  return server.context.db.prepare('SELECT * FROM contacts WHERE id = ?').get(id) as Record<string, unknown>;
}
function insertContact(orgId: string, fields: Record<string, unknown>): string {
  const id = randomUUID();
  const at = new Date().toISOString();
  server.context.db
    .prepare(
      `INSERT INTO contacts (id, org_id, name, email, phone, roles, created_at, updated_at)
       VALUES (@id, @org_id, @name, @email, @phone, @roles, @at, @at)`,
    )
    .run({ id, org_id: orgId, name: null, email: null, phone: null, roles: '[]', at, ...fields });
  return id;
}

describe('contact import preview', () => {
  it('annotates create, link-match, email-match, name-match, conflict and org-not-found', async () => {
    const linked = (
      await commit([
        { organizationId: aardvark, name: 'Linda Link', externalId: 'X-1', externalSystem: 'psa' },
      ])
    ).body.imported[0].contactId as string;
    const emailed = insertContact(aardvark, { name: 'Eve Mail', email: 'eve@aardvark.test' });
    const named = insertContact(aardvark, { name: 'Nate  Name' });
    insertContact(aardvark, { name: 'Dup Dup', email: 'dup1@aardvark.test' });
    insertContact(aardvark, { name: 'dup dup', email: 'dup2@aardvark.test' });
    const res = await preview([
      { organization: 'Aardvark Ltd', name: 'Brand New', email: 'new@aardvark.test' },
      { organizationId: aardvark, name: 'Renamed', externalId: 'X-1', externalSystem: 'psa' },
      { organizationId: aardvark, email: 'EVE@aardvark.test' },
      { organizationId: aardvark, name: 'nate name' },
      { organizationId: aardvark, name: 'Dup Dup' },
      { organizationId: aardvark, name: 'Dup Dup', externalId: 'D-9' },
      { organization: 'Nowhere Inc', name: 'Lost' },
      { organizationId: betaAardvark, name: 'Not yours' },
    ]);
    expect(res.status).toBe(200);
    const rows = res.body.rows as Array<Record<string, unknown>>;
    expect(rows.map((r) => r.annotation)).toEqual([
      'create',
      'link-match',
      'email-match',
      'name-match',
      'conflict',
      'create',
      'org-not-found',
      'org-not-found',
    ]);
    expect(rows[0]).toMatchObject({
      organizationId: aardvark,
      organizationName: 'Aardvark Ltd',
      warning: null,
    });
    expect(rows[1]!.matchedContactId).toBe(linked);
    expect(rows[2]).toMatchObject({ matchedContactId: emailed, matchedContactEmail: 'eve@aardvark.test' });
    expect(rows[3]!.matchedContactId).toBe(named);
    expect(rows[4]!.conflictReason).toBe('The name matches 2 contacts of Aardvark Ltd');
    expect(rows[5]!.warning).toBe(
      'The name matches 2 contacts of Aardvark Ltd; created as new on its own externalId',
    );
    expect(rows[7]).toMatchObject({ organizationId: null, organizationName: null });
  });

  it('rejects the whole request with 400 when a row has no identifier', async () => {
    const res = await preview([
      { organizationId: aardvark, name: 'Fine' },
      { organizationId: aardvark, title: 'Nobody', email: '  ' },
    ]);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'no-identifier', row: 1 });
    const before = server.context.db.prepare('SELECT COUNT(*) AS n FROM contacts').get() as { n: number };
    expect(
      (await commit([{ organizationId: aardvark, name: 'Fine' }, { organizationId: aardvark }])).status,
    ).toBe(400);
    expect(server.context.db.prepare('SELECT COUNT(*) AS n FROM contacts').get()).toEqual(before);
    const tooMany = Array.from({ length: 1001 }, (_, i) => ({ organizationId: aardvark, name: `P ${i}` }));
    expect((await preview(tooMany)).status).toBe(400);
  });
});

describe('contact import commit', () => {
  it('reports every row error code in a 200 while the other rows land', async () => {
    const hinted = insertContact(badger, { name: 'Hint Person', email: 'hint@badger.test' });
    const site = insertSite(server, badger, 'Badger depot');
    const res = await commit([
      { organizationId: badger, name: 'Lands', site: 'Badger depot', roles: ['billing', 'after_hours'] },
      { organization: 'Nowhere Inc', name: 'Lost' },
      { organizationId: badger, name: 'Bad Role', roles: ['boss'] },
      { organizationId: badger, name: 'Wrong Site', site: 'Aardvark HQ' },
      { organizationId: badger, email: 'hint@badger.test' },
      { organizationId: badger, name: 'Same', email: 'same@badger.test' },
      { organizationId: badger, name: 'Same again', email: 'SAME@badger.test' },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.errors.map((e: { row: number; code: string }) => [e.row, e.code])).toEqual([
      [1, 'org-not-found'],
      [2, 'invalid-role'],
      [3, 'site-not-in-org'],
      [4, 'match-unconfirmed'],
      [6, 'row-conflict'],
    ]);
    expect(res.body.errors[4].message).toBe('Same contact as row 5');
    expect(res.body.imported.map((r: { row: number }) => r.row)).toEqual([0, 5]);
    // Echoes that no longer hold (one request each: a file naming the same email twice is a conflict itself).
    const changed = await commit([
      { organizationId: badger, email: 'hint@badger.test', expectedAnnotation: 'create' },
    ]);
    expect(changed.body.errors[0]).toMatchObject({ code: 'annotation-changed' });
    const moved = await commit([
      {
        organizationId: badger,
        email: 'hint@badger.test',
        expectedAnnotation: 'email-match',
        expectedContactId: randomUUID(),
      },
    ]);
    expect(moved.body.errors[0]).toMatchObject({ code: 'match-changed' });
    const landed = contact(res.body.imported[0].contactId);
    expect(landed).toMatchObject({ site_id: site, roles: '["billing","after_hours"]' });
    expect(contact(hinted).name).toBe('Hint Person');
  });

  it('applies a fuzzy hint only when both the annotation and the contact id are echoed', async () => {
    const id = insertContact(badger, { name: 'Echo Person', email: 'echo@badger.test', phone: '+1 111' });
    const half = await commit(
      [{ organizationId: badger, name: 'Echo Person', title: 'CTO', expectedAnnotation: 'name-match' }],
      'update',
    );
    expect(half.body.errors[0]).toMatchObject({ code: 'match-unconfirmed' });
    const both = await commit(
      [
        {
          organizationId: badger,
          name: 'echo person',
          title: 'CTO',
          phone: '',
          externalId: 'E-1',
          expectedAnnotation: 'name-match',
          expectedContactId: id,
        },
      ],
      'update',
    );
    expect(both.body.updated).toEqual([{ row: 0, contactId: id, organizationId: badger }]);
    // The blank phone cell did not clear the stored phone; the title landed; the link was learned.
    expect(contact(id)).toMatchObject({ title: 'CTO', phone: '+1 111', name: 'echo person' });
    const again = await preview([{ organizationId: badger, name: 'Someone else', externalId: 'E-1' }]);
    expect(again.body.rows[0]).toMatchObject({ annotation: 'link-match', matchedContactId: id });
  });

  it('refuses a row whose match changed between preview and commit', async () => {
    const id = insertContact(badger, { name: 'Mover', email: 'mover@badger.test' });
    const seen = (await preview([{ organizationId: badger, email: 'mover@badger.test', title: 'Boss' }])).body
      .rows[0];
    expect(seen).toMatchObject({ annotation: 'email-match', matchedContactId: id });
    // Meanwhile the contact changes address and another contact takes it.
    server.context.db.prepare("UPDATE contacts SET email = 'moved@badger.test' WHERE id = ?").run(id);
    insertContact(badger, { name: 'Newcomer', email: 'mover@badger.test' });
    const res = await commit(
      [
        {
          organizationId: badger,
          email: 'mover@badger.test',
          title: 'Boss',
          expectedAnnotation: 'email-match',
          expectedContactId: id,
        },
      ],
      'update',
    );
    expect(res.body.errors).toEqual([expect.objectContaining({ row: 0, code: 'match-changed' })]);
    expect(contact(id).title).toBeNull();
  });

  it('skips in mode skip, patches only carried fields in mode update, replaces roles only with a non-empty list', async () => {
    const id = (
      await commit([
        { organizationId: aardvark, name: 'Rolf', email: 'rolf@a.test', roles: ['admin'], externalId: 'R-1' },
      ])
    ).body.imported[0].contactId as string;
    const skip = await commit([{ organizationId: aardvark, name: 'Rolf B', externalId: 'R-1' }]);
    expect(skip.body.skipped).toEqual([{ row: 0, contactId: id, reason: 'Already exists (mode skip)' }]);
    expect(contact(id).name).toBe('Rolf');
    const upd = await commit(
      [{ organizationId: aardvark, mobile: '+47 1', roles: [], externalId: 'R-1' }],
      'update',
    );
    expect(upd.body.updated).toHaveLength(1);
    expect(contact(id)).toMatchObject({
      name: 'Rolf',
      email: 'rolf@a.test',
      mobile: '+47 1',
      roles: '["admin"]',
    });
  });

  it('works for a system caller naming the partner, and never reaches another partner', async () => {
    const res = await commit(
      [{ organizationId: betaAardvark, name: 'Sys made' }],
      undefined,
      tokens.platform,
      {
        partnerId: beta,
      },
    );
    expect(res.body.imported).toHaveLength(1);
    expect((await commit([{ organizationId: aardvark, name: 'X' }], undefined, tokens.platform)).status).toBe(
      400,
    );
    const cross = await commit([{ organizationId: aardvark, name: 'Sneaky' }], undefined, tokens.betaAdmin);
    expect(cross.body.errors[0]).toMatchObject({ code: 'org-not-found' });
    expect(
      (await commit([{ organizationId: aardvark, name: 'P' }], undefined, tokens.admin, { partnerId: beta }))
        .status,
    ).toBe(403);
    expect((await commit([{ organizationId: aardvark, name: 'P' }], undefined, tokens.noMfa)).status).toBe(
      403,
    );
  });
});
