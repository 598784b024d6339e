import { useSession } from './session';

// What the signed-in user may do, from the route permissions the server lists on the session's user (`/auth/me`).
// The console hides what the user cannot use (a section, a write button); the server still decides every call.

/** Whether `permissions` holds `permission`; no permission asked means anyone signed in may. */
export function holds(permissions: readonly string[] | undefined, permission: string | undefined): boolean {
  if (!permission) return true;
  return permissions?.includes(permission) ?? false;
}

/** Whether the signed-in user holds `permission` (re-renders when the session's user changes). */
export function useCan(permission: string | undefined): boolean {
  return useSession((s) => holds(s.user?.permissions, permission));
}
