import { useSession } from '../../lib/session';

// Whether the signed-in technician holds a permission, from the route permissions the server lists on the
// session's user (`/auth/me`). The console only hides what the user cannot use; the server still decides.

const holds = (permissions: readonly string[] | undefined, permission: string) =>
  permissions?.includes(permission) ?? false;

export function useCanApprove(): boolean {
  return useSession((s) => holds(s.user?.permissions, 'pam:approve'));
}

/** pam:manage_policy, for "Create rule from this request". */
export function useCanManagePolicy(): boolean {
  return useSession((s) => holds(s.user?.permissions, 'pam:manage_policy'));
}

/** The same answer outside React (the desktop notifier). */
export function canApproveNow(): boolean {
  return holds(useSession.getState().user?.permissions, 'pam:approve');
}
