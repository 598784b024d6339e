import type { UserSummary } from '../../../../server/contract';
import { useSession } from '../../lib/session';

// What the signed-in user may do on the access-review screens, and whom they may name as reviewer.

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
