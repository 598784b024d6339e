import type { IconName } from '../ui/Icon';

export interface Section {
  id: string;
  label: string;
  path: string;
  icon: IconName;
  group: string;
  /** What the section is for; the placeholder page says it plainly until it ships. */
  summary: string;
  /** Built in this release. */
  ready: boolean;
}

export const SECTIONS: Section[] = [
  { id: 'home', label: 'Overview', path: '/', icon: 'home', group: 'Console', summary: '', ready: true },
  {
    id: 'approvals',
    label: 'Approvals',
    path: '/approvals',
    icon: 'approvals',
    group: 'Operations',
    summary:
      'Privileged-access elevation requests raised by agents and technicians, decided here with a platform-authenticator step-up.',
    ready: true,
  },
  {
    id: 'pam-policy',
    label: 'Elevation policy',
    path: '/pam',
    icon: 'lock',
    group: 'Operations',
    summary:
      'Rules that decide elevation requests at once, signer groups, the organization default and the elevation audit export.',
    ready: true,
  },
  {
    id: 'devices',
    label: 'Devices',
    path: '/devices',
    icon: 'devices',
    group: 'Operations',
    summary:
      'Enrolled devices across organizations and sites: heartbeat, health, posture and live event logs.',
    ready: true,
  },
  {
    id: 'filters',
    label: 'Saved filters',
    path: '/filters',
    icon: 'search',
    group: 'Operations',
    summary: 'Reusable device filters: conditions on inventory, state and hierarchy, with a live count.',
    ready: true,
  },
  {
    id: 'audit',
    label: 'Audit',
    path: '/audit',
    icon: 'audit',
    group: 'Operations',
    summary: 'The hash-chained audit log of every change, per organization, with chain verification.',
    ready: false,
  },
  {
    id: 'webhooks',
    label: 'Webhooks',
    path: '/webhooks',
    icon: 'webhooks',
    group: 'Automation',
    summary: 'Outbound webhooks for elevation, device and review events, with delivery history and retries.',
    ready: false,
  },
  {
    id: 'access-reviews',
    label: 'Access reviews',
    path: '/access-reviews',
    icon: 'reviews',
    group: 'Governance',
    summary: 'Periodic reviews of who holds which role, item by item, with approve and revoke decisions.',
    ready: false,
  },
  {
    id: 'tenants',
    label: 'Tenants',
    path: '/tenants',
    icon: 'tenants',
    group: 'Administration',
    summary: 'Partners, organizations and sites within your scope.',
    ready: true,
  },
  {
    id: 'users',
    label: 'Users & roles',
    path: '/users',
    icon: 'users',
    group: 'Administration',
    summary: 'Invite technicians, assign roles and permissions, and manage account status.',
    ready: true,
  },
  {
    id: 'keys',
    label: 'Keys',
    path: '/keys',
    icon: 'keys',
    group: 'Administration',
    summary: 'API keys and agent enrollment keys: create, rotate and revoke.',
    ready: true,
  },
  {
    id: 'settings',
    label: 'Settings',
    path: '/settings',
    icon: 'settings',
    group: 'Administration',
    summary: 'Security policy, approval step-up, single sign-on and notification settings.',
    ready: true,
  },
  {
    id: 'profile',
    label: 'Profile',
    path: '/profile',
    icon: 'profile',
    group: 'Account',
    summary: '',
    ready: true,
  },
];

export function sectionFor(pathname: string): Section | undefined {
  return SECTIONS.find((s) =>
    s.path === '/' ? pathname === '/' : pathname === s.path || pathname.startsWith(`${s.path}/`),
  );
}
