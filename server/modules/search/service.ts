import type { AppContext } from '../../context';
import type { SearchResponse, SearchResult } from '../../contract/filters';
import type { AuthContext } from '../../http/auth-context';
import { callerHolds, PERMISSIONS, type Permission } from '../../http/permissions';
import { deviceVisibility, visibilityClauses } from '../devices';
import { matchingDevices } from './store';

// GET /search (spec 2, Search): a case-insensitive substring match over the kinds that exist in this release:
// devices (hostname, displayName, lastUser) and the console's settings pages (by title). Scripts and alerts do
// not exist yet, so they are never returned; users and organizations have no result shape in the spec.

interface SettingsPage {
  id: string;
  title: string;
  description: string;
  href: string;
  /** Shown only to callers who could use the page. */
  permission?: Permission;
  scope?: AuthContext['scope'];
}

/** The console pages a search can jump to, with their paths in renderer/src (sections and tab routes). */
const SETTINGS_PAGES: readonly SettingsPage[] = [
  {
    id: 'devices',
    title: 'Devices',
    description: 'Enrolled devices, their status, inventory and logs',
    href: '/devices',
    permission: PERMISSIONS.DEVICES_READ,
  },
  {
    id: 'saved-filters',
    title: 'Saved filters',
    description: 'Reusable device filters',
    href: '/filters',
    permission: PERMISSIONS.DEVICES_READ,
  },
  {
    id: 'users',
    title: 'Users',
    description: 'Invite technicians and manage account status',
    href: '/users',
    permission: PERMISSIONS.USERS_READ,
  },
  {
    id: 'roles',
    title: 'Roles',
    description: 'Roles and their permissions',
    href: '/users/roles',
    permission: PERMISSIONS.USERS_READ,
  },
  {
    id: 'api-keys',
    title: 'API keys',
    description: 'Keys that let integrations call Gatehouse',
    href: '/keys',
    permission: PERMISSIONS.ORGANIZATIONS_READ,
  },
  {
    id: 'enrollment-keys',
    title: 'Enrollment keys',
    description: 'Keys that let agents join an organization',
    href: '/keys/enrollment',
    permission: PERMISSIONS.ORGANIZATIONS_READ,
  },
  {
    id: 'organizations',
    title: 'Organizations',
    description: 'Organizations and their sites',
    href: '/tenants',
    permission: PERMISSIONS.ORGANIZATIONS_READ,
  },
  {
    id: 'partner-settings',
    title: 'Partner settings',
    description: 'Security policy, business hours, contact and service management',
    href: '/settings',
    permission: PERMISSIONS.ORGANIZATIONS_READ,
    scope: 'partner',
  },
  { id: 'profile', title: 'Profile', description: 'Your name, password and MFA', href: '/profile' },
];

function settingsResults(ctx: AppContext, auth: AuthContext, q: string): SearchResult[] {
  // A console page means nothing to an integration calling with an API key.
  if (auth.kind !== 'user') return [];
  const needle = q.toLowerCase();
  return SETTINGS_PAGES.filter(
    (p) =>
      p.title.toLowerCase().includes(needle) &&
      (!p.scope || p.scope === auth.scope) &&
      (!p.permission || callerHolds(ctx.db, auth, p.permission)),
  ).map((p) => ({
    id: p.id,
    type: 'settings' as const,
    title: p.title,
    description: p.description,
    href: p.href,
  }));
}

/**
 * Devices the caller can see (not decommissioned) whose hostname, display name or last user contains `q`;
 * those where one of the three starts with `q` first (hostname prefix before the others), then by hostname.
 */
function deviceResults(ctx: AppContext, auth: AuthContext, q: string, limit: number): SearchResult[] {
  if (limit <= 0 || !callerHolds(ctx.db, auth, PERMISSIONS.DEVICES_READ)) return [];
  const clauses = visibilityClauses(deviceVisibility(ctx, auth));
  const rows = matchingDevices(ctx.db, clauses, q, limit);
  return rows.map((r) => ({
    id: r.id,
    type: 'devices' as const,
    title: r.hostname,
    description: [r.os_version, r.org_name, r.last_user].filter((part) => part).join(' · '),
  }));
}

/**
 * Devices first, then settings pages, never more than `limit` in all. A quarter of the list is kept for matching
 * pages (a handful at most) so that "users" still finds the Users page when many devices match too; slots that
 * devices leave empty go to further pages.
 */
export function search(ctx: AppContext, auth: AuthContext, q: string, limit: number): SearchResponse {
  const pages = settingsResults(ctx, auth, q);
  const reserved = Math.min(pages.length, Math.floor(limit / 4));
  const devices = deviceResults(ctx, auth, q, limit - reserved);
  return { results: [...devices, ...pages.slice(0, limit - devices.length)] };
}
