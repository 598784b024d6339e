import type { ComponentType } from 'react';
import type { IconName } from '../ui';
import { holds } from '../lib/can';
import { lazyPage } from './lazy-page';

// Each page loads with its feature's chunk when it is first opened (lazy-page.tsx).
const AccessReviewsSection = lazyPage(() => import('../features/access-reviews'), 'AccessReviewsSection');
const AgentVersionsPage = lazyPage(() => import('../features/agent-versions'), 'AgentVersionsPage');
const ApprovalsSection = lazyPage(() => import('../features/approvals'), 'ApprovalsSection');
const AuditSection = lazyPage(() => import('../features/audit'), 'AuditSection');
const AcceptInvitePage = lazyPage(() => import('../features/auth'), 'AcceptInvitePage', 'bare');
const ForgotPasswordPage = lazyPage(() => import('../features/auth'), 'ForgotPasswordPage', 'bare');
const LoginPage = lazyPage(() => import('../features/auth'), 'LoginPage', 'bare');
const MfaEnrollPage = lazyPage(() => import('../features/auth'), 'MfaEnrollPage', 'bare');
const RegisterPage = lazyPage(() => import('../features/auth'), 'RegisterPage', 'bare');
const ResetPasswordPage = lazyPage(() => import('../features/auth'), 'ResetPasswordPage', 'bare');
const SetupPage = lazyPage(() => import('../features/auth'), 'SetupPage', 'bare');
const VerifyEmailPage = lazyPage(() => import('../features/auth'), 'VerifyEmailPage', 'bare');
const DevicesSection = lazyPage(() => import('../features/devices'), 'DevicesSection');
const DeviceGroupsSection = lazyPage(() => import('../features/device-groups'), 'DeviceGroupsSection');
const FiltersPage = lazyPage(() => import('../features/filters'), 'FiltersPage');
const HomePage = lazyPage(() => import('../features/home'), 'HomePage');
const ImportSection = lazyPage(() => import('../features/imports'), 'ImportSection');
const KeysPage = lazyPage(() => import('../features/keys'), 'KeysPage');
const PamPolicySection = lazyPage(() => import('../features/pam-policy'), 'PamPolicySection');
const PeoplePage = lazyPage(() => import('../features/people'), 'PeoplePage');
const PosturePage = lazyPage(() => import('../features/posture'), 'PosturePage');
const ProfilePage = lazyPage(() => import('../features/profile'), 'ProfilePage');
const SettingsPage = lazyPage(() => import('../features/settings'), 'SettingsPage');
const SsoSection = lazyPage(() => import('../features/sso'), 'SsoSection');
const TenantsPage = lazyPage(() => import('../features/tenants'), 'TenantsPage');
const WebhooksSection = lazyPage(() => import('../features/webhooks'), 'WebhooksSection');

// The one route table: every page is declared here once. The sidebar draws its groups from it, the top bar its
// title, and App renders the page whose path matches. A section without a component is announced ("arrives in
// a later release") until it ships. `permission` is what the section's main list asks of the caller: the nav and
// the global search offer the section only to callers who hold it, and a deep link still opens the page, which
// explains the refusal itself.

export interface Section {
  id: string;
  label: string;
  /** The section owns this path and every path below it. */
  path: string;
  icon: IconName;
  group: string;
  /** What the section is for; the placeholder page says it plainly until it ships. */
  summary: string;
  /** The page; none yet for a section still to come. */
  component?: ComponentType;
  permission?: string;
}

/** A page outside the console frame: sign-in, first run, email links and MFA enrollment. */
export interface BareRoute {
  path: string;
  component: ComponentType;
  /** Reachable without a session. */
  public: boolean;
  /** Start afresh when only the fragment changes (a new `#token=` link on the same page). */
  keyByHash?: boolean;
}

export const SECTIONS: Section[] = [
  {
    id: 'home',
    label: 'Overview',
    path: '/',
    icon: 'home',
    group: 'Console',
    summary: '',
    component: HomePage,
  },
  {
    id: 'approvals',
    label: 'Approvals',
    path: '/approvals',
    icon: 'approvals',
    group: 'Operations',
    summary:
      'Privileged-access elevation requests raised by agents and technicians, decided here with a platform-authenticator step-up.',
    component: ApprovalsSection,
    permission: 'devices:read',
  },
  {
    id: 'pam-policy',
    label: 'Elevation policy',
    path: '/pam',
    icon: 'lock',
    group: 'Operations',
    summary:
      'Rules that decide elevation requests at once, signer groups, the organization default and the elevation audit export.',
    component: PamPolicySection,
    permission: 'pam:manage_policy',
  },
  {
    id: 'devices',
    label: 'Devices',
    path: '/devices',
    icon: 'devices',
    group: 'Operations',
    summary:
      'Enrolled devices across organizations and sites: heartbeat, health, posture and live event logs.',
    component: DevicesSection,
    permission: 'devices:read',
  },
  {
    id: 'device-groups',
    label: 'Device groups',
    path: '/device-groups',
    icon: 'devices',
    group: 'Operations',
    summary: 'Named sets of devices of one organization or site, with their members.',
    component: DeviceGroupsSection,
    permission: 'devices:read',
  },
  {
    id: 'posture',
    label: 'Management posture',
    path: '/posture',
    icon: 'activity',
    group: 'Operations',
    summary:
      'Third-party management products the agents report, per organization, with the devices behind each count.',
    component: PosturePage,
    permission: 'devices:read',
  },
  {
    id: 'agent-versions',
    label: 'Agent versions',
    path: '/agent-versions',
    icon: 'server',
    group: 'Operations',
    summary:
      'Registered agent builds per platform, the latest one agents update to, and who runs which version.',
    component: AgentVersionsPage,
    permission: 'devices:read',
  },
  {
    id: 'filters',
    label: 'Saved filters',
    path: '/filters',
    icon: 'search',
    group: 'Operations',
    summary: 'Reusable device filters: conditions on inventory, state and hierarchy, with a live count.',
    component: FiltersPage,
    permission: 'devices:read',
  },
  {
    id: 'audit',
    label: 'Audit',
    path: '/audit',
    icon: 'audit',
    group: 'Operations',
    summary: 'The hash-chained audit log of every change, per organization, with chain verification.',
    component: AuditSection,
    permission: 'audit:read',
  },
  {
    id: 'webhooks',
    label: 'Webhooks',
    path: '/webhooks',
    icon: 'webhooks',
    group: 'Automation',
    summary: 'Outbound webhooks for elevation, device and review events, with delivery history and retries.',
    component: WebhooksSection,
    permission: 'organizations:read',
  },
  {
    id: 'access-reviews',
    label: 'Access reviews',
    path: '/access-reviews',
    icon: 'reviews',
    group: 'Governance',
    summary: 'Periodic reviews of who holds which role, item by item, with approve and revoke decisions.',
    component: AccessReviewsSection,
    permission: 'users:read',
  },
  {
    id: 'sso',
    label: 'Single sign-on',
    path: '/sso',
    icon: 'lock',
    group: 'Governance',
    summary: 'Sign-in through your identity provider (OIDC) per organization and for partner technicians.',
    component: SsoSection,
    permission: 'users:read',
  },
  {
    id: 'tenants',
    label: 'Tenants',
    path: '/tenants',
    icon: 'tenants',
    group: 'Administration',
    summary: 'Partners, organizations and sites within your scope.',
    component: TenantsPage,
    permission: 'organizations:read',
  },
  {
    id: 'import',
    label: 'Import',
    path: '/import',
    icon: 'upload',
    group: 'Administration',
    summary:
      'Organizations, sites and contacts from a CSV file, previewed and confirmed before anything is written.',
    component: ImportSection,
    permission: 'organizations:write',
  },
  {
    id: 'users',
    label: 'Users & roles',
    path: '/users',
    icon: 'users',
    group: 'Administration',
    summary: 'Invite technicians, assign roles and permissions, and manage account status.',
    component: PeoplePage,
    permission: 'users:read',
  },
  {
    id: 'keys',
    label: 'Keys',
    path: '/keys',
    icon: 'keys',
    group: 'Administration',
    summary: 'API keys and agent enrollment keys: create, rotate and revoke.',
    component: KeysPage,
    permission: 'organizations:read',
  },
  {
    id: 'settings',
    label: 'Settings',
    path: '/settings',
    icon: 'settings',
    group: 'Administration',
    summary: 'Security policy, approval step-up, single sign-on and notification settings.',
    component: SettingsPage,
  },
  {
    id: 'profile',
    label: 'Profile',
    path: '/profile',
    icon: 'profile',
    group: 'Account',
    summary: '',
    component: ProfilePage,
  },
];

export const BARE_ROUTES: BareRoute[] = [
  { path: '/login', component: LoginPage, public: true },
  { path: '/setup', component: SetupPage, public: true, keyByHash: true },
  { path: '/register', component: RegisterPage, public: true },
  { path: '/verify-email', component: VerifyEmailPage, public: true },
  { path: '/accept-invite', component: AcceptInvitePage, public: true },
  { path: '/forgot-password', component: ForgotPasswordPage, public: true },
  { path: '/reset-password', component: ResetPasswordPage, public: true },
  { path: '/mfa/enroll', component: MfaEnrollPage, public: false },
];

export const PUBLIC_PATHS: ReadonlySet<string> = new Set(
  BARE_ROUTES.filter((r) => r.public).map((r) => r.path),
);

export function bareRouteFor(pathname: string): BareRoute | undefined {
  return BARE_ROUTES.find((r) => r.path === pathname);
}

/** The sections `permissions` may use, in the table's order: what the nav and the page search offer. */
export function sectionsFor(permissions: readonly string[] | undefined): Section[] {
  return SECTIONS.filter((s) => holds(permissions, s.permission));
}

export function sectionFor(pathname: string): Section | undefined {
  return SECTIONS.find((s) =>
    s.path === '/' ? pathname === '/' : pathname === s.path || pathname.startsWith(`${s.path}/`),
  );
}
