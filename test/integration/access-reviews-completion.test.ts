import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConsoleServerMessage } from '../../server/contract';
import { consoleSocketFor } from '../support/console-client';
import {
  createReview,
  decideAll,
  EMAILS,
  itemFor,
  patchItem,
  readReview,
  reviewWorld,
  type ReviewWorld,
} from '../support/access-review-world';
import { PASSWORD, signedToken } from '../support/seed';
import { auditOf } from '../support/tenancy';

// Completing a review removes every revoked person from the review's tenant in one transaction: the association,
// every access token (the next request is 401), every refresh token (the next refresh is 401) and their open
// console sockets (closed at once). A failure half way leaves everything as it was. Review pushes reach only the
// consoles of the review's tenant.

let w: ReviewWorld;
beforeEach(async () => {
  w = await reviewWorld();
});
afterEach(async () => {
  await w.server.dispose();
});

const partnerMembers = () =>
  w.server.context.db
    .prepare('SELECT user_id FROM partner_users WHERE partner_id = ? ORDER BY user_id')
    .all(w.tree.partnerId)
    .map((r) => (r as { user_id: string }).user_id);

const isEvent = (name: string) => (m: ConsoleServerMessage) => m.type === 'event' && m.event === name;

describe('completion', () => {
  it('ends a revoked technician’s access at once: association, access token, refresh token, open console', async () => {
    const { server, tokens, ids } = w;
    // The technician signs in for real (a refresh token to try later) and keeps a console open.
    const login = await server.api.login(EMAILS.acmeTech, PASSWORD);
    expect(login.status).toBe(200);
    const techConsole = await consoleSocketFor(server.url, login.body.accessToken);
    const adminConsole = await consoleSocketFor(server.url, tokens.acmeAdmin);

    const made = await createReview(server, tokens.acmeAdmin, { name: 'Quarterly' });
    const review = await readReview(server, made.id, tokens.acmeAdmin);
    await decideAll(server, review, tokens.acmeAdmin, [ids.acmeTech, ids.acmeTech2]);
    const done = await server.api.post(`/access-reviews/${made.id}/complete`, {}, tokens.acmeAdmin);
    expect(done.status).toBe(200);
    expect(done.body.revokedCount).toBe(2);

    expect(await techConsole.closed).toBe(4001);
    expect(partnerMembers()).not.toContain(ids.acmeTech);
    expect(partnerMembers()).not.toContain(ids.acmeTech2);
    expect(partnerMembers()).toContain(ids.acmeAdmin2);
    expect((await server.api.get('/auth/me', login.body.accessToken)).status).toBe(401);
    expect((await server.api.get('/auth/me', tokens.acmeTech2)).status).toBe(401);
    const refresh = await server.api.post('/auth/refresh', { refreshToken: login.body.refreshToken });
    expect(refresh.status).toBe(401);
    // Without an association the account cannot sign in to the partner again.
    expect((await server.api.login(EMAILS.acmeTech, PASSWORD)).status).not.toBe(200);
    // An approved colleague keeps working.
    expect((await server.api.get('/auth/me', tokens.acmeAdmin2)).status).toBe(200);

    const completed = await adminConsole.next(isEvent('access_review.completed'));
    expect(completed).toMatchObject({
      data: { review: { id: made.id, status: 'completed', revokedCount: 2 } },
    });
    const final = await readReview(server, made.id, tokens.acmeAdmin);
    expect(final).toMatchObject({ status: 'completed', revokedCount: 2, completedAt: done.body.completedAt });
    // The revoked people stay on the record of the review.
    expect(itemFor(final, ids.acmeTech).decision).toBe('revoked');

    expect((await auditOf(server, 'access_review.complete', made.id))[0]?.details).toEqual({
      revokedCount: 2,
    });
    const removal = await auditOf(server, 'user.remove', ids.acmeTech);
    expect(removal[0]?.details).toMatchObject({ via: 'access_review', reviewId: made.id, scope: 'partner' });
    adminConsole.socket.close();
  });

  it('removes only the organization association in an organization review', async () => {
    const { server, tokens, ids } = w;
    const made = await createReview(server, tokens.orgAdmin, { name: 'Contoso' });
    await decideAll(server, await readReview(server, made.id, tokens.orgAdmin), tokens.orgAdmin, [
      ids.orgTech,
    ]);
    const done = await server.api.post(`/access-reviews/${made.id}/complete`, {}, tokens.orgAdmin);
    expect(done.body.revokedCount).toBe(1);
    const rows = server.context.db
      .prepare('SELECT user_id FROM organization_users WHERE org_id = ?')
      .all(w.tree.orgA) as Array<{ user_id: string }>;
    expect(rows.map((r) => r.user_id).sort()).toEqual([ids.orgAdmin, ids.orgReader].sort());
    expect((await server.api.get('/auth/me', tokens.orgTech)).status).toBe(401);
    expect((await server.api.get('/auth/me', tokens.acmeAdmin)).status).toBe(200);
  });

  it('is atomic: a failure on the second revocation leaves every association, token and the review in place', async () => {
    const { server, tokens, ids } = w;
    const db = server.context.db;
    const made = await createReview(server, tokens.acmeAdmin, { name: 'Atomic' });
    const review = await readReview(server, made.id, tokens.acmeAdmin);
    await decideAll(server, review, tokens.acmeAdmin, [ids.acmeTech, ids.acmeTech2]);
    const techConsole = await consoleSocketFor(server.url, tokens.acmeTech);
    const before = partnerMembers();
    // The revocations run in item order; whichever of the two comes second fails.
    const second = db
      .prepare(
        `SELECT i.user_id FROM access_review_items i WHERE i.review_id = ? AND i.decision = 'revoked'
          ORDER BY i.created_at, i.id LIMIT 1 OFFSET 1`,
      )
      .get(made.id) as { user_id: string };
    db.exec(`CREATE TEMP TRIGGER fail_second_revoke BEFORE DELETE ON partner_users
             WHEN OLD.user_id = '${second.user_id}' BEGIN SELECT RAISE(ABORT, 'injected failure'); END`);
    try {
      const res = await server.api.post(`/access-reviews/${made.id}/complete`, {}, tokens.acmeAdmin);
      expect(res.status).toBe(500);
    } finally {
      db.exec('DROP TRIGGER fail_second_revoke');
    }

    expect(partnerMembers()).toEqual(before);
    const after = await readReview(server, made.id, tokens.acmeAdmin);
    expect(after).toMatchObject({ status: 'in_progress', completedAt: null, revokedCount: null });
    // The first person's tokens were not ended either: the rollback took the token version and refresh tokens back.
    expect((await server.api.get('/auth/me', tokens.acmeTech)).status).toBe(200);
    expect((await server.api.get('/auth/me', tokens.acmeTech2)).status).toBe(200);
    expect(techConsole.socket.readyState).toBe(techConsole.socket.OPEN);
    expect(await auditOf(server, 'access_review.complete', made.id)).toHaveLength(0);

    // With the failure gone the same completion goes through.
    const retry = await server.api.post(`/access-reviews/${made.id}/complete`, {}, tokens.acmeAdmin);
    expect(retry.status).toBe(200);
    expect(retry.body.revokedCount).toBe(2);
    expect(await techConsole.closed).toBe(4001);
  });

  it('leaves alone, and does not count, a revoked person who already left the tenant', async () => {
    const { server, tokens, ids } = w;
    const made = await createReview(server, tokens.acmeAdmin, { name: 'Leavers' });
    await decideAll(server, await readReview(server, made.id, tokens.acmeAdmin), tokens.acmeAdmin, [
      ids.acmeTech,
      ids.acmeTech2,
    ]);
    // Tech 2 left (removed through the users API) and was invited into Contoso since.
    expect(
      (await server.api.request('DELETE', `/users/${ids.acmeTech2}`, { token: tokens.acmeAdmin })).status,
    ).toBe(200);
    server.context.db
      .prepare('INSERT INTO organization_users (org_id, user_id, role_id, created_at) VALUES (?, ?, ?, ?)')
      .run(w.tree.orgA, ids.acmeTech2, '00000000-0000-4000-8000-000000000004', new Date().toISOString());
    const contosoToken = await signedToken(server, EMAILS.acmeTech2);

    const done = await server.api.post(`/access-reviews/${made.id}/complete`, {}, tokens.acmeAdmin);
    expect(done.body.revokedCount).toBe(1);
    expect((await server.api.get('/auth/me', contosoToken)).status).toBe(200);
    expect((await server.api.get('/auth/me', tokens.acmeTech)).status).toBe(401);
  });
});

describe('review pushes', () => {
  it('reach the consoles of the review’s tenant that read users, and nobody else', async () => {
    const { server, tokens, ids } = w;
    const acmeAdmin2 = await consoleSocketFor(server.url, tokens.acmeAdmin2);
    const acmeTech = await consoleSocketFor(server.url, tokens.acmeTech); // no users:read
    const other = await consoleSocketFor(server.url, tokens.otherAdmin);
    const contoso = await consoleSocketFor(server.url, tokens.orgAdmin);
    const system = await consoleSocketFor(server.url, w.systemToken);

    const made = await createReview(server, tokens.acmeAdmin, { name: 'Live' });
    const review = await readReview(server, made.id, tokens.acmeAdmin);
    const created = await acmeAdmin2.next(isEvent('access_review.created'));
    expect(created).toMatchObject({ data: { review: { id: made.id, itemCount: 5 } } });

    await patchItem(
      server,
      made.id,
      itemFor(review, ids.acmeTech).id,
      { decision: 'revoked' },
      tokens.acmeAdmin,
    );
    const updated = await acmeAdmin2.next(isEvent('access_review.item_updated'));
    expect(updated).toMatchObject({
      data: {
        review: { id: made.id, status: 'in_progress', decidedCount: 1 },
        item: { userId: ids.acmeTech, decision: 'revoked', reviewedBy: ids.acmeAdmin },
      },
    });

    // A Contoso review reaches Contoso's console and not the partner's.
    const org = await createReview(server, tokens.orgAdmin, { name: 'Contoso live' });
    await contoso.next((m) => isEvent('access_review.created')(m) && JSON.stringify(m).includes(org.id));

    // Give any stray push time to arrive before asserting none did.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const reviewPushes = (messages: ConsoleServerMessage[]) =>
      messages.filter((m) => m.type === 'event' && m.event.startsWith('access_review.'));
    for (const outsider of [acmeTech, other, system]) expect(reviewPushes(outsider.messages)).toHaveLength(0);
    expect(reviewPushes(contoso.messages)).toHaveLength(1);
    expect(reviewPushes(acmeAdmin2.messages).some((m) => JSON.stringify(m).includes(org.id))).toBe(false);
    for (const s of [acmeAdmin2, acmeTech, other, contoso, system]) s.socket.close();
  });
});
