import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessReviewListResponse } from '../../server/contract/access-reviews';
import {
  createReview,
  decideAll,
  itemFor,
  patchItem,
  readReview,
  reviewWorld,
  type ReviewWorld,
} from '../support/access-review-world';
import { auditOf } from '../support/tenancy';

// /access-reviews (spec 1): the five endpoints with their payloads, the state table (pending -> in_progress ->
// completed, then immutable), every error string, users:read vs users:write, and tenant scoping: partner reviews
// cover the partner users, organization reviews the organization users, nobody sees another tenant's reviews, and
// system scope is refused.

let w: ReviewWorld;
beforeAll(async () => {
  w = await reviewWorld();
});
afterAll(async () => {
  await w.server.dispose();
});

describe('create, list and read', () => {
  it('creates a partner review with one pending item per partner user, their permissions and last activity', async () => {
    const { server, tokens, ids } = w;
    const res = await server.api.post(
      '/access-reviews',
      { name: '  Q4 technicians  ', description: 'Quarterly', dueDate: '2026-12-31' },
      tokens.acmeAdmin,
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'Q4 technicians',
      status: 'pending',
      itemCount: 5,
    });

    const review = await readReview(server, res.body.id, tokens.acmeAdmin);
    expect(review).toMatchObject({
      name: 'Q4 technicians',
      description: 'Quarterly',
      status: 'pending',
      partnerId: w.tree.partnerId,
      orgId: null,
      reviewerId: ids.acmeAdmin,
      reviewerName: 'admin',
      dueDate: '2026-12-31T23:59:59.999Z',
      completedAt: null,
      overdue: false,
      itemCount: 5,
      decidedCount: 0,
      revokedCount: null,
    });
    // Partner users only: Contoso's organization users are not in a partner review, Other MSP's admin neither.
    expect(review.items.map((i) => i.userId).sort()).toEqual(
      [ids.acmeAdmin, ids.acmeAdmin2, ids.acmeTech, ids.acmeTech2, ids.acmeLimited].sort(),
    );
    const tech = itemFor(review, ids.acmeTech);
    expect(tech).toMatchObject({
      userName: 'tech',
      userEmail: 'tech@acme.test',
      roleName: 'Partner Technician',
      decision: 'pending',
      notes: null,
      reviewedAt: null,
    });
    // The role's own grants, as resource:action, resolved like every permission check.
    expect(tech.permissions).toEqual(expect.arrayContaining(['devices:view', 'pam:approve', 'audit:read']));
    expect(itemFor(review, ids.acmeAdmin).permissions).toEqual(['*:*']);
    // lastActiveAt is the latest sign-in or session refresh: the seeded tokens started a session for each user.
    expect(Date.parse(tech.lastActiveAt ?? '')).toBeGreaterThan(Date.now() - 60_000);

    const created = await auditOf(server, 'access_review.create', review.id);
    expect(created).toHaveLength(1);
    expect(created[0]?.details).toMatchObject({ itemCount: 5 });
    expect(created[0]?.org_id).toBeNull();
  });

  it('creates an organization review over the organization users only', async () => {
    const { server, tokens, ids } = w;
    const made = await createReview(server, tokens.orgAdmin, { name: 'Contoso users' });
    const review = await readReview(server, made.id, tokens.orgAdmin);
    expect(review.orgId).toBe(w.tree.orgA);
    expect(review.partnerId).toBeNull();
    expect(review.items.map((i) => i.userId).sort()).toEqual(
      [ids.orgAdmin, ids.orgReader, ids.orgTech].sort(),
    );
    expect(itemFor(review, ids.orgReader).roleName).toBe('Organization Read Only');
    expect((await auditOf(server, 'access_review.create', review.id))[0]?.org_id).toBe(w.tree.orgA);
  });

  it('lists the tenant’s reviews oldest first, with the list fields', async () => {
    const { server, tokens } = w;
    const first = await createReview(server, tokens.acmeAdmin, { name: 'List A' });
    const second = await createReview(server, tokens.acmeAdmin, { name: 'List B' });
    const res = await server.api.get<AccessReviewListResponse>('/access-reviews', tokens.acmeAdmin);
    expect(res.status).toBe(200);
    const names = res.body.data.map((r) => r.name);
    expect(names.indexOf('List A')).toBeLessThan(names.indexOf('List B'));
    const createdAts = res.body.data.map((r) => r.createdAt);
    expect([...createdAts].sort()).toEqual(createdAts);
    const row = res.body.data.find((r) => r.id === second.id);
    expect(row).toMatchObject({
      id: second.id,
      name: 'List B',
      description: null,
      status: 'pending',
      reviewerName: 'admin',
      dueDate: null,
      completedAt: null,
    });
    expect(res.body.data.some((r) => r.id === first.id)).toBe(true);
    // Organization reviews are not in the partner's list.
    expect(res.body.data.every((r) => r.partnerId === w.tree.partnerId)).toBe(true);
  });

  it('flags a review whose due date has passed as overdue until it is completed', async () => {
    const { server, tokens } = w;
    const made = await createReview(server, tokens.orgAdmin, {
      name: 'Late',
      dueDate: '2020-01-01T09:00:00Z',
    });
    const review = await readReview(server, made.id, tokens.orgAdmin);
    expect(review.overdue).toBe(true);
    await decideAll(server, review, tokens.orgAdmin, []);
    expect((await server.api.post(`/access-reviews/${made.id}/complete`, {}, tokens.orgAdmin)).status).toBe(
      200,
    );
    expect((await readReview(server, made.id, tokens.orgAdmin)).overdue).toBe(false);
  });

  it('assigns another member as reviewer, and refuses one outside the tenant or not a UUID (400)', async () => {
    const { server, tokens, ids } = w;
    const made = await createReview(server, tokens.acmeAdmin, {
      name: 'Assigned',
      reviewerId: ids.acmeAdmin2,
    });
    expect((await readReview(server, made.id, tokens.acmeAdmin)).reviewerId).toBe(ids.acmeAdmin2);

    for (const reviewerId of [ids.orgAdmin, ids.otherAdmin]) {
      const res = await server.api.post('/access-reviews', { name: 'x', reviewerId }, tokens.acmeAdmin);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('reviewerId must be an active user of this partner or organization');
    }
    const bad = await server.api.post(
      '/access-reviews',
      { name: 'x', reviewerId: 'nobody' },
      tokens.acmeAdmin,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('reviewerId');
  });

  it('validates the body: name 1-255 characters, an ISO 8601 due date', async () => {
    const { server, tokens } = w;
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(256) }]) {
      const res = await server.api.post('/access-reviews', body, tokens.acmeAdmin);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/name/);
    }
    const due = await server.api.post(
      '/access-reviews',
      { name: 'x', dueDate: 'next friday' },
      tokens.acmeAdmin,
    );
    expect(due.status).toBe(400);
    expect(due.body.error).toContain('dueDate must be an ISO 8601 date');
  });

  it('answers 404 Access review not found for an unknown id', async () => {
    const { server, tokens } = w;
    for (const id of ['00000000-0000-4000-8000-00000000dead', 'not-an-id']) {
      const res = await server.api.get(`/access-reviews/${id}`, tokens.acmeAdmin);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Access review not found' });
    }
  });
});

describe('decisions and the state table', () => {
  it('moves pending -> in_progress on the first decision, keeps notes, and resets to pending', async () => {
    const { server, tokens, ids } = w;
    const made = await createReview(server, tokens.acmeAdmin, { name: 'Decisions' });
    const before = await readReview(server, made.id, tokens.acmeAdmin);
    const tech = itemFor(before, ids.acmeTech);

    // Back to pending before any decision: no decision recorded, the review stays pending.
    const noop = await patchItem(server, made.id, tech.id, { decision: 'pending' }, tokens.acmeAdmin);
    expect(noop.status).toBe(200);
    expect((await readReview(server, made.id, tokens.acmeAdmin)).status).toBe('pending');

    const approved = await patchItem(
      server,
      made.id,
      tech.id,
      { decision: 'approved', notes: 'On call rota' },
      tokens.acmeAdmin,
    );
    expect(approved.status).toBe(200);
    expect(approved.body).toEqual({
      id: tech.id,
      decision: 'approved',
      notes: 'On call rota',
      reviewedAt: expect.any(String),
    });
    const during = await readReview(server, made.id, tokens.acmeAdmin);
    expect(during.status).toBe('in_progress');
    expect(during.decidedCount).toBe(1);
    expect(itemFor(during, ids.acmeTech)).toMatchObject({ decision: 'approved', reviewedBy: ids.acmeAdmin });

    // Notes omitted are kept; the reset clears who decided and when, and the review stays in progress.
    const reset = await patchItem(server, made.id, tech.id, { decision: 'pending' }, tokens.acmeAdmin);
    expect(reset.body).toEqual({ id: tech.id, decision: 'pending', notes: 'On call rota', reviewedAt: null });
    const after = await readReview(server, made.id, tokens.acmeAdmin);
    expect(after.status).toBe('in_progress');
    expect(after.decidedCount).toBe(0);

    const audited = await auditOf(server, 'access_review.item.update', made.id);
    expect(audited.map((a) => a.details.decision)).toEqual(['pending', 'approved', 'pending']);
    expect(audited[1]?.details).toMatchObject({ reviewId: made.id, decision: 'approved' });
  });

  it('refuses an item of another review (404), a bad decision (400) and revoking oneself (400)', async () => {
    const { server, tokens, ids } = w;
    const a = await readReview(server, (await createReview(server, tokens.acmeAdmin)).id, tokens.acmeAdmin);
    const b = await readReview(server, (await createReview(server, tokens.acmeAdmin)).id, tokens.acmeAdmin);
    const foreign = await patchItem(server, a.id, b.items[0]!.id, { decision: 'approved' }, tokens.acmeAdmin);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('Access review item not found');

    const bad = await patchItem(server, a.id, a.items[0]!.id, { decision: 'maybe' }, tokens.acmeAdmin);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('decision must be approved, revoked or pending');

    const self = itemFor(a, ids.acmeAdmin);
    const own = await patchItem(server, a.id, self.id, { decision: 'revoked' }, tokens.acmeAdmin);
    expect(own.status).toBe(400);
    expect(own.body.error).toBe('You cannot revoke your own access');
  });

  it('completes only without pending items, then refuses every change', async () => {
    const { server, tokens, ids } = w;
    const made = await createReview(server, tokens.orgAdmin, { name: 'Immutable' });
    const review = await readReview(server, made.id, tokens.orgAdmin);

    const early = await server.api.post(`/access-reviews/${made.id}/complete`, {}, tokens.orgAdmin);
    expect(early.status).toBe(400);
    expect(early.body.error).toBe('Cannot complete review with pending items');

    await decideAll(server, review, tokens.orgAdmin, []);
    const done = await server.api.post(`/access-reviews/${made.id}/complete`, {}, tokens.orgAdmin);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({
      id: made.id,
      status: 'completed',
      completedAt: expect.any(String),
      revokedCount: 0,
    });

    const again = await server.api.post(`/access-reviews/${made.id}/complete`, {}, tokens.orgAdmin);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('Review is already completed');
    const change = await patchItem(
      server,
      made.id,
      itemFor(review, ids.orgTech).id,
      { decision: 'revoked' },
      tokens.orgAdmin,
    );
    expect(change.status).toBe(400);
    expect(change.body.error).toBe('Cannot modify completed review');
    const completed = await readReview(server, made.id, tokens.orgAdmin);
    expect(completed).toMatchObject({ status: 'completed', revokedCount: 0 });
    expect(completed.items.every((i) => i.decision === 'approved')).toBe(true);
    expect((await auditOf(server, 'access_review.complete', made.id))[0]?.details).toEqual({
      revokedCount: 0,
    });
  });
});

describe('who may', () => {
  it('reads with users:read and needs users:write to create, decide and complete', async () => {
    const { server, tokens } = w;
    const made = await createReview(server, tokens.orgAdmin, { name: 'Reader' });
    const review = await readReview(server, made.id, tokens.orgReader);
    expect((await server.api.get('/access-reviews', tokens.orgReader)).status).toBe(200);

    const writes = [
      server.api.post('/access-reviews', { name: 'x' }, tokens.orgReader),
      patchItem(server, made.id, review.items[0]!.id, { decision: 'approved' }, tokens.orgReader),
      server.api.post(`/access-reviews/${made.id}/complete`, {}, tokens.orgReader),
    ];
    for (const res of await Promise.all(writes)) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'PERMISSION_DENIED', required: 'users:write' });
    }
    // A partner technician has neither.
    const tech = await server.api.get('/access-reviews', tokens.acmeTech);
    expect(tech.status).toBe(403);
    expect(tech.body.required).toBe('users:read');
  });

  it('refuses system scope and a partner user without full organization access (403)', async () => {
    const { server, tokens, systemToken } = w;
    for (const [method, path] of [
      ['GET', '/access-reviews'],
      ['POST', '/access-reviews'],
      ['GET', '/access-reviews/00000000-0000-4000-8000-00000000dead'],
    ] as const) {
      const body = method === 'POST' ? { name: 'x' } : undefined;
      const res = await server.api.request(method, path, { token: systemToken, body });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('Partner or organization context required');
    }
    const limited = await server.api.get('/access-reviews', tokens.acmeLimited);
    expect(limited.status).toBe(403);
    expect(limited.body.error).toBe('Full partner organization access required');
  });

  it('keeps another tenant’s reviews invisible (404) and unchangeable', async () => {
    const { server, tokens } = w;
    const acme = await readReview(
      server,
      (await createReview(server, tokens.acmeAdmin)).id,
      tokens.acmeAdmin,
    );
    const contoso = await readReview(
      server,
      (await createReview(server, tokens.orgAdmin)).id,
      tokens.orgAdmin,
    );

    for (const [review, outsider] of [
      [acme, tokens.otherAdmin],
      [acme, tokens.orgAdmin],
      [contoso, tokens.acmeAdmin],
      [contoso, tokens.otherAdmin],
    ] as const) {
      const reads = [
        server.api.get(`/access-reviews/${review.id}`, outsider),
        patchItem(server, review.id, review.items[0]!.id, { decision: 'approved' }, outsider),
        server.api.post(`/access-reviews/${review.id}/complete`, {}, outsider),
      ];
      for (const res of await Promise.all(reads)) {
        expect(res.status).toBe(404);
        expect(res.body.error).toBe('Access review not found');
      }
      const list = await server.api.get<AccessReviewListResponse>('/access-reviews', outsider);
      expect(list.body.data.some((r) => r.id === review.id)).toBe(false);
    }
    // Nothing changed.
    expect((await readReview(server, acme.id, tokens.acmeAdmin)).decidedCount).toBe(0);
    expect((await readReview(server, contoso.id, tokens.orgAdmin)).decidedCount).toBe(0);
  });
});
