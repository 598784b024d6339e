import type {
  AccessReviewDecision,
  AccessReviewDetail,
  AccessReviewItem,
  AccessReviewListResponse,
  AccessReviewStatus,
  AccessReviewSummary,
} from '../../../../server/contract';

// What the access-review screens derive from the contract: words and tones for states, progress, permissions
// grouped by resource, and the cached reads after a push (pure functions; the hooks are in access.ts).

export const STATUS_LABEL: Record<AccessReviewStatus, string> = {
  pending: 'Not started',
  in_progress: 'In progress',
  completed: 'Completed',
};

export const DECISION_LABEL: Record<AccessReviewDecision, string> = {
  pending: 'Undecided',
  approved: 'Keeps access',
  revoked: 'Loses access',
};

/** Decided items as a whole percent of all items (an empty review counts as done). */
export function progressPercent(review: Pick<AccessReviewSummary, 'itemCount' | 'decidedCount'>): number {
  return review.itemCount === 0 ? 100 : Math.round((review.decidedCount / review.itemCount) * 100);
}

export interface PermissionGroup {
  resource: string;
  actions: string[];
}

/** `resource:action` strings grouped by resource, in a stable order; `*` first, since it means everything. */
export function groupPermissions(permissions: readonly string[]): PermissionGroup[] {
  const groups = new Map<string, string[]>();
  for (const permission of permissions) {
    const at = permission.indexOf(':');
    const resource = at < 0 ? permission : permission.slice(0, at);
    const action = at < 0 ? '*' : permission.slice(at + 1);
    groups.set(resource, [...(groups.get(resource) ?? []), action]);
  }
  return [...groups.entries()]
    .map(([resource, actions]) => ({ resource, actions: actions.sort() }))
    .sort((a, b) =>
      a.resource === '*' ? -1 : b.resource === '*' ? 1 : a.resource.localeCompare(b.resource),
    );
}

/** One chip's words: "devices · view, execute"; a wildcard says what it means. */
export function groupLabel(group: PermissionGroup): string {
  if (group.resource === '*') return 'Everything';
  return `${group.resource} · ${group.actions.includes('*') ? 'all actions' : group.actions.join(', ')}`;
}

/** The cached review after a push: the summary fields replaced, and the item (when there is one) swapped in. */
export function patchReview(
  cached: AccessReviewDetail,
  review: AccessReviewSummary,
  item?: AccessReviewItem,
): AccessReviewDetail {
  return {
    ...cached,
    ...review,
    items: item ? cached.items.map((i) => (i.id === item.id ? item : i)) : cached.items,
  };
}

/** The cached list after a push about `review`: replaced in place, or added at the end (oldest first). */
export function patchList(
  list: AccessReviewListResponse,
  review: AccessReviewSummary,
): AccessReviewListResponse {
  const at = list.data.findIndex((r) => r.id === review.id);
  return {
    data: at >= 0 ? list.data.map((r, i) => (i === at ? review : r)) : [...list.data, review],
  };
}
