// What the console's access-review screens derive (renderer/src/features/access-reviews/model.ts): permissions
// grouped into chips, progress, and the cached review and list after a push, which is how two reviewers see each
// other's decisions without a reload.
import { describe, expect, it } from 'vitest';
import type {
  AccessReviewDetail,
  AccessReviewItem,
  AccessReviewSummary,
} from '../../server/contract/access-reviews';
import {
  groupLabel,
  groupPermissions,
  patchList,
  patchReview,
  progressPercent,
} from '../../renderer/src/features/access-reviews/model';

const summary = (over: Partial<AccessReviewSummary> = {}): AccessReviewSummary => ({
  id: 'r1',
  partnerId: 'p1',
  orgId: null,
  name: 'Q4',
  description: null,
  status: 'pending',
  reviewerId: 'u1',
  reviewerName: 'Riley',
  dueDate: null,
  createdAt: '2026-11-27T06:00:00.000Z',
  updatedAt: '2026-11-27T06:00:00.000Z',
  completedAt: null,
  overdue: false,
  itemCount: 2,
  decidedCount: 0,
  revokedCount: null,
  ...over,
});

const item = (id: string, over: Partial<AccessReviewItem> = {}): AccessReviewItem => ({
  id,
  userId: `user-${id}`,
  userName: id,
  userEmail: `${id}@acme.test`,
  lastActiveAt: null,
  roleId: 'role',
  roleName: 'Technician',
  decision: 'pending',
  notes: null,
  reviewedAt: null,
  reviewedBy: null,
  permissions: [],
  ...over,
});

describe('permission chips', () => {
  it('groups resource:action by resource, wildcard first, actions sorted', () => {
    const groups = groupPermissions(['sites:view', 'devices:view', 'devices:execute', '*:*', 'audit:read']);
    expect(groups).toEqual([
      { resource: '*', actions: ['*'] },
      { resource: 'audit', actions: ['read'] },
      { resource: 'devices', actions: ['execute', 'view'] },
      { resource: 'sites', actions: ['view'] },
    ]);
    expect(groups.map(groupLabel)).toEqual([
      'Everything',
      'audit · read',
      'devices · execute, view',
      'sites · view',
    ]);
    expect(groupLabel({ resource: 'devices', actions: ['*'] })).toBe('devices · all actions');
  });
});

describe('progress', () => {
  it('is decided of all, and an empty review counts as done', () => {
    expect(progressPercent({ itemCount: 3, decidedCount: 1 })).toBe(33);
    expect(progressPercent({ itemCount: 0, decidedCount: 0 })).toBe(100);
  });
});

describe('cache after a push', () => {
  it('swaps the decided item in and takes the review’s new status and counts', () => {
    const cached: AccessReviewDetail = { ...summary(), items: [item('a'), item('b')] };
    const decided = item('b', { decision: 'revoked', reviewedBy: 'u2' });
    const next = patchReview(cached, summary({ status: 'in_progress', decidedCount: 1 }), decided);
    expect(next.status).toBe('in_progress');
    expect(next.decidedCount).toBe(1);
    expect(next.items.map((i) => i.decision)).toEqual(['pending', 'revoked']);
    expect(cached.items[1]?.decision).toBe('pending'); // the cached value itself is left alone
  });

  it('replaces a listed review in place and adds a new one at the end', () => {
    const list = { data: [summary({ id: 'r1' }), summary({ id: 'r2' })] };
    expect(patchList(list, summary({ id: 'r1', status: 'completed' })).data.map((r) => r.status)).toEqual([
      'completed',
      'pending',
    ]);
    expect(patchList(list, summary({ id: 'r3' })).data.map((r) => r.id)).toEqual(['r1', 'r2', 'r3']);
  });
});
