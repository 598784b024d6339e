import type { AuthContext } from '../../http/auth-context';
import { PERMISSIONS, type Permission } from '../../http/permissions';

// The console pages a search can jump to (spec 2's `settings` kind), with their paths in renderer/src (sections of
// app/routes.ts and their tab routes). A page is found by its title or by the words a technician would type for
// it ("approval", "elevation", "security", "keys"), and offered only to callers who could use it: its
// permission is the one its section's list asks for (the same as the route table's), so the search never leads
// to a permission wall.

export interface ConsolePage {
  id: string;
  title: string;
  description: string;
  href: string;
  /** Other words that find the page, lowercase. */
  keywords: readonly string[];
  permission?: Permission;
  scope?: AuthContext['scope'];
}

const { DEVICES_READ, USERS_READ, ORGANIZATIONS_READ, AUDIT_READ, PAM_MANAGE_POLICY, PAM_APPROVE } =
  PERMISSIONS;

export const CONSOLE_PAGES: readonly ConsolePage[] = [
  {
    id: 'overview',
    title: 'Overview',
    description: 'What needs attention across your organizations',
    href: '/',
    keywords: ['home', 'dashboard'],
  },
  {
    id: 'approvals',
    title: 'Approvals',
    description: 'Pending elevation requests waiting for a decision',
    href: '/approvals',
    keywords: [
      'approve',
      'elevation',
      'requests',
      'pending',
      'inbox',
      'privileged access',
      'admin rights',
      'uac',
    ],
    permission: DEVICES_READ,
  },
  {
    id: 'active-elevations',
    title: 'Active elevations',
    description: 'Elevations in force, with their time left and Revoke',
    href: '/approvals/active',
    keywords: ['grants', 'revoke', 'admin rights'],
    permission: DEVICES_READ,
  },
  {
    id: 'elevation-history',
    title: 'Elevation history',
    description: 'Every elevation request and how it was decided',
    href: '/approvals/history',
    keywords: ['requests', 'decisions', 'approved', 'denied'],
    permission: DEVICES_READ,
  },
  {
    id: 'approver-devices',
    title: 'Approver devices',
    description: 'Your passkeys for approving elevations',
    href: '/approvals/devices',
    keywords: ['passkey', 'webauthn', 'step-up', 'security', 'elevation'],
    permission: PAM_APPROVE,
  },
  {
    id: 'elevation-policy',
    title: 'Elevation policy',
    description: 'Rules that decide elevation requests before a technician sees them',
    href: '/pam/rules',
    keywords: ['rules', 'pam', 'privileged access', 'auto-approve', 'approval', 'security'],
    permission: PAM_MANAGE_POLICY,
  },
  {
    id: 'signer-groups',
    title: 'Signer groups',
    description: 'Named lists of trusted software publishers for elevation rules',
    href: '/pam/signer-groups',
    keywords: ['publishers', 'certificates', 'elevation'],
    permission: PAM_MANAGE_POLICY,
  },
  {
    id: 'elevation-export',
    title: 'Elevation audit export',
    description: 'Elevation decisions as CSV for auditors',
    href: '/pam/export',
    keywords: ['csv', 'elevation', 'compliance'],
    permission: PAM_MANAGE_POLICY,
  },
  {
    id: 'devices',
    title: 'Devices',
    description: 'Enrolled devices, their status, inventory and logs',
    href: '/devices',
    keywords: ['computers', 'machines', 'endpoints', 'agents', 'fleet'],
    permission: DEVICES_READ,
  },
  {
    id: 'saved-filters',
    title: 'Saved filters',
    description: 'Reusable device filters',
    href: '/filters',
    keywords: ['device filters', 'queries', 'segments'],
    permission: DEVICES_READ,
  },
  {
    id: 'audit',
    title: 'Audit log',
    description: 'Who changed what, with chain verification',
    href: '/audit',
    keywords: ['history', 'changes', 'activity', 'security', 'compliance'],
    permission: AUDIT_READ,
  },
  {
    id: 'webhooks',
    title: 'Webhooks',
    description: 'Signed event notifications to your own systems',
    href: '/webhooks',
    keywords: ['integrations', 'notifications', 'events'],
    permission: ORGANIZATIONS_READ,
  },
  {
    id: 'access-reviews',
    title: 'Access reviews',
    description: 'Periodic reviews of who holds which role',
    href: '/access-reviews',
    keywords: ['certification', 'recertification', 'security', 'compliance'],
    permission: USERS_READ,
  },
  {
    id: 'organizations',
    title: 'Organizations',
    description: 'Organizations and their sites',
    href: '/tenants',
    keywords: ['tenants', 'customers', 'clients', 'sites'],
    permission: ORGANIZATIONS_READ,
  },
  {
    id: 'users',
    title: 'Users',
    description: 'Invite technicians and manage account status',
    href: '/users',
    keywords: ['people', 'technicians', 'accounts', 'invite'],
    permission: USERS_READ,
  },
  {
    id: 'roles',
    title: 'Roles',
    description: 'Roles and their permissions',
    href: '/users/roles',
    keywords: ['permissions', 'rbac'],
    permission: USERS_READ,
  },
  {
    id: 'api-keys',
    title: 'API keys',
    description: 'Keys that let integrations call Gatehouse',
    href: '/keys',
    keywords: ['integrations', 'tokens'],
    permission: ORGANIZATIONS_READ,
  },
  {
    id: 'enrollment-keys',
    title: 'Enrollment keys',
    description: 'Keys that let agents join an organization',
    href: '/keys/enrollment',
    keywords: ['install', 'enroll', 'agents', 'deploy'],
    permission: ORGANIZATIONS_READ,
  },
  {
    id: 'partner-settings',
    title: 'Partner settings',
    description: 'Security policy, business hours, contact and service management',
    href: '/settings',
    keywords: ['security', 'mfa policy', 'ip allowlist', 'business hours', 'service management', 'psa'],
    permission: ORGANIZATIONS_READ,
    scope: 'partner',
  },
  {
    id: 'profile',
    title: 'Profile',
    description: 'Your name, password and two-step verification',
    href: '/profile',
    keywords: ['password', 'mfa', 'two-step', 'account', 'security'],
  },
];

/**
 * How well `page` answers `needle` (lowercase): 0 a title prefix, 1 inside the title, 2 a keyword; null when
 * neither matches. A keyword matches when it contains the needle or the needle contains it ("approvals" finds
 * the page listed under "approval", as "elevations" finds the ones under "elevation").
 */
export function pageRank(page: ConsolePage, needle: string): number | null {
  const title = page.title.toLowerCase();
  if (title.startsWith(needle)) return 0;
  if (title.includes(needle)) return 1;
  const keyword = (k: string) => k.includes(needle) || (k.length >= 4 && needle.includes(k));
  return page.keywords.some(keyword) ? 2 : null;
}
