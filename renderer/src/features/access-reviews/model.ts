import type {
  AccessReviewDecision,
  AccessReviewStatus,
  AccessReviewSummary,
  UserSummary,
} from '../../../../server/contract';
import type { Tone } from '../../ui';
import { useSession } from '../../lib/session';

// What the access-review screens derive from the contract: words and tones for states, progress, permissions
// grouped by resource, and what the caller may do.

export const STATUS_LABEL: Record<AccessReviewStatus, string> = {
  pending: 'Not started',
  in_progress: 'In progress',
  completed: 'Completed',
};

export const STATUS_TONE: Record<AccessReviewStatus, Tone> = {
  pending: 'muted',
  in_progress: 'warn',
  completed: 'ok',
};

export const DECISION_LABEL: Record<AccessReviewDecision, string> = {
  pending: 'Undecided',
  approved: 'Keeps access',
  revoked: 'Loses access',
};

export const DECISION_TONE: Record<AccessReviewDecision, Tone> = {
  pending: 'muted',
  approved: 'ok',
  revoked: 'bad',
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

export function useCanWriteReviews(): boolean {
  return useSession((s) => s.user?.permissions.includes('users:write') ?? false);
}

/** The signed-in user's id (their own row cannot be revoked). */
export function useSelfId(): string | null {
  return useSession((s) => s.user?.id ?? null);
}

/**
 * Who may review: active members of the caller's own tenant (a partner's partner users, an organization's
 * users), which is what the server accepts as reviewerId.
 */
export function useReviewerFilter(): (user: UserSummary) => boolean {
  const tenant = useSession((s) => s.user);
  return (user) => {
    if (!tenant || user.status !== 'active') return false;
    const a = user.association;
    if (tenant.scope === 'partner') return a.scope === 'partner' && a.partnerId === tenant.partnerId;
    return a.scope === 'organization' && a.orgId === tenant.orgId;
  };
}
