import { randomUUID } from 'node:crypto';
import type { DemoSeedResponse } from '../../contract';
import type { AppContext } from '../../context';
import { transaction } from '../../db/after-commit';
import { randomToken } from '../../crypto';
import { conflict } from '../../http/errors';
import { hashPassword } from '../auth';
import { insertPlatformAdmin } from '../users';
import { insertEnrollmentKey } from '../enrollment-keys';
import { insertOrganization, insertPartner, insertSite } from '../tenancy';
import { seedExampleWebhook } from '../webhooks';
import {
  deleteEnrollmentKeysNamed,
  insertActivePerson,
  insertOrgLink,
  insertPartnerLink,
  insertPartnerRole,
  orgIdOfPartner,
  partnerBySlug,
  platformAdminExists,
} from './store';

// Demo data for demos, training rooms and UI tests (DESIGN §2 SEED_DEMO / `serve --demo`): one MSP with four
// customers, their sites, technicians at every level of access, a custom role, and an enrollment key for the
// simulated fleet. The tenant tree is created once; every call mints a fresh fleet enrollment key (the raw key
// cannot be read back) and replaces the previous one. An install without a platform administrator gets one too:
// the demo's people make the first-run setup page close (it is for empty installs only), so without it nobody
// could reach the platform screens.

const DEMO_SLUG = 'northwind-demo';
const FLEET_KEY_NAME = 'Demo fleet';
const FLEET_KEY_DAYS = 30;
const FLEET_KEY_USES = 10_000;
const ROLE = {
  partnerTechnician: '00000000-0000-4000-8000-000000000002',
  orgAdmin: '00000000-0000-4000-8000-000000000003',
  orgReadOnly: '00000000-0000-4000-8000-000000000005',
};

const ORGANIZATIONS = [
  {
    name: 'Contoso Dental',
    slug: 'contoso-dental',
    type: 'customer',
    status: 'active',
    sites: [
      ['Main Street Clinic', 'America/New_York'],
      ['Riverside Clinic', 'America/New_York'],
    ],
  },
  {
    name: 'Fabrikam Legal',
    slug: 'fabrikam-legal',
    type: 'customer',
    status: 'active',
    sites: [['Downtown Office', 'America/Chicago']],
  },
  {
    name: 'Tailspin Logistics',
    slug: 'tailspin-logistics',
    type: 'customer',
    status: 'trial',
    sites: [
      ['Headquarters', 'America/Denver'],
      ['Warehouse 1', 'America/Denver'],
    ],
  },
  {
    name: 'Northwind Internal',
    slug: 'northwind-internal',
    type: 'internal',
    status: 'active',
    sites: [['Head Office', 'America/New_York']],
  },
] as const;

const PLATFORM_ADMIN = { name: 'Platform Administrator', email: 'platform.admin@gatehouse.demo' };

interface DemoPerson {
  name: string;
  email: string;
  /** What the account may do, in the words the console's roles use (printed beside the account). */
  role: string;
  /** Partner users: their org access (`selected` lists organization slugs). Organization users: their org. */
  link:
    | { kind: 'partner'; role: 'admin' | 'technician' | 'helpdesk'; access: 'all' | { selected: string[] } }
    | { kind: 'organization'; org: string; roleId: string };
}

const PEOPLE: DemoPerson[] = [
  {
    name: 'Riley Chen',
    email: 'riley.chen@northwind.demo',
    role: 'Partner administrator, all organizations',
    link: { kind: 'partner', role: 'admin', access: 'all' },
  },
  {
    name: 'Sam Ortiz',
    email: 'sam.ortiz@northwind.demo',
    role: 'Partner technician, all organizations',
    link: { kind: 'partner', role: 'technician', access: 'all' },
  },
  {
    name: 'Jordan Lee',
    email: 'jordan.lee@northwind.demo',
    role: 'Helpdesk Tier 1, Contoso Dental and Fabrikam Legal',
    link: { kind: 'partner', role: 'helpdesk', access: { selected: ['contoso-dental', 'fabrikam-legal'] } },
  },
  {
    name: 'Priya Natarajan',
    email: 'priya.natarajan@contoso.demo',
    role: 'Organization administrator, Contoso Dental',
    link: { kind: 'organization', org: 'contoso-dental', roleId: ROLE.orgAdmin },
  },
  {
    name: 'Morgan Blake',
    email: 'morgan.blake@fabrikam.demo',
    role: 'Read-only organization user, Fabrikam Legal',
    link: { kind: 'organization', org: 'fabrikam-legal', roleId: ROLE.orgReadOnly },
  },
];

/** Seeds the demo tenant (once) and issues a fresh fleet enrollment key. */
export async function seedDemo(
  ctx: AppContext,
  actor: { id: string; email: string | null } | null,
): Promise<DemoSeedResponse> {
  const { db } = ctx;
  const before = partnerBySlug(db, DEMO_SLUG);
  // Passwords are hashed before the transaction: argon2 is asynchronous and a transaction must not await.
  const password = before ? null : `Demo-${randomToken(9)}`;
  const passwordHash = password ? await hashPassword(password) : null;
  const adminPassword = platformAdminExists(db) ? null : `Admin-${randomToken(12)}`;
  const adminHash = adminPassword ? await hashPassword(adminPassword) : null;
  const createdBy = actor?.id ?? 'system';

  const result = transaction(db, () => {
    // Looked up again inside the transaction: a concurrent seed may have created it while we hashed.
    const existing = partnerBySlug(db, DEMO_SLUG);
    // A deleted demo tenant keeps its slug reserved (slugs are unique for good); say so rather than fail.
    if (existing?.deleted_at)
      throw conflict('The demo tenant was deleted; its slug stays reserved', 'DEMO_DELETED');
    const at = new Date().toISOString();
    // Checked again for the same reason; an administrator created meanwhile wins and none is added.
    const adminId = adminHash && !platformAdminExists(db) ? randomUUID() : null;
    if (adminId && adminHash)
      insertPlatformAdmin(db, { id: adminId, ...PLATFORM_ADMIN, passwordHash: adminHash }, at);
    let partnerId = existing?.id;
    if (!partnerId) {
      partnerId = randomUUID();
      const adminRoleId = insertPartner(db, {
        id: partnerId,
        name: 'Northwind IT Services',
        slug: DEMO_SLUG,
        type: 'msp',
        plan: 'pro',
        max_organizations: null,
        // Room for a 10,000-agent demo or benchmark (`npm run bench -- scale`) with the seeded devices beside it.
        max_devices: 25_000,
        settings: JSON.stringify({
          timezone: 'America/New_York',
          dateFormat: 'MM/DD/YYYY',
          timeFormat: '12h',
          language: 'en',
          businessHours: { preset: 'business' },
          contact: { name: 'Riley Chen', email: 'support@northwind.demo', phone: '+12125550100' },
        }),
        service_management_mode: 'native',
        service_management_psa_connection_id: null,
        sso_config: '{}',
        billing_email: 'billing@northwind.demo',
        status: 'active',
        created_at: at,
        updated_at: at,
      });
      const helpdeskRoleId = randomUUID();
      insertPartnerRole(db, {
        id: helpdeskRoleId,
        partnerId,
        parentRoleId: ROLE.partnerTechnician,
        name: 'Helpdesk Tier 1',
        description: 'Triage: sees devices and alerts, acknowledges alerts',
        at,
      });
      const orgIds = new Map<string, string>();
      for (const org of ORGANIZATIONS) {
        const orgId = randomUUID();
        orgIds.set(org.slug, orgId);
        insertOrganization(db, {
          id: orgId,
          partner_id: partnerId,
          name: org.name,
          slug: org.slug,
          type: org.type,
          status: org.status,
          max_devices: null,
          settings: JSON.stringify(org.slug === 'contoso-dental' ? { security: { requireMfa: true } } : {}),
          sso_config: '{}',
          contract_start: at,
          contract_end: null,
          billing_contact: '{}',
          created_at: at,
          updated_at: at,
        });
        for (const [name, timezone] of org.sites) {
          insertSite(db, {
            id: randomUUID(),
            org_id: orgId,
            name,
            address: '{}',
            timezone,
            contact: '{}',
            settings: '{}',
            created_at: at,
            updated_at: at,
          });
        }
      }
      for (const person of PEOPLE) {
        const userId = randomUUID();
        insertActivePerson(db, { id: userId, email: person.email, name: person.name, passwordHash, at });
        if (person.link.kind === 'partner') {
          const roleId =
            person.link.role === 'admin'
              ? adminRoleId
              : person.link.role === 'helpdesk'
                ? helpdeskRoleId
                : ROLE.partnerTechnician;
          const access = person.link.access;
          const selected = access === 'all' ? [] : access.selected.map((slug) => orgIds.get(slug));
          insertPartnerLink(db, {
            partnerId,
            userId,
            roleId,
            orgAccess: access === 'all' ? 'all' : 'selected',
            orgIds: JSON.stringify(selected),
            at,
          });
        } else {
          insertOrgLink(db, { orgId: orgIds.get(person.link.org), userId, roleId: person.link.roleId, at });
        }
      }
    }
    const fleetOrg = { id: orgIdOfPartner(db, partnerId, 'contoso-dental')! };
    deleteEnrollmentKeysNamed(db, fleetOrg.id, FLEET_KEY_NAME);
    const fleetKey = insertEnrollmentKey(ctx, {
      orgId: fleetOrg.id,
      siteId: null,
      name: FLEET_KEY_NAME,
      maxUsage: FLEET_KEY_USES,
      expiresAt: new Date(Date.now() + FLEET_KEY_DAYS * 86_400_000).toISOString(),
      createdBy,
    });
    // A paused example webhook, so a training room sees the webhook screens filled in without sending anything.
    seedExampleWebhook(ctx, fleetOrg.id);
    return { partnerId, fleetOrgId: fleetOrg.id, fleetKey, created: !existing, adminId };
  });

  ctx.audit.record({
    orgId: null,
    actorType: actor ? 'user' : 'system',
    actorId: createdBy,
    actorEmail: actor?.email ?? null,
    action: result.created ? 'demo.seed' : 'demo.enrollment_key.reissue',
    resourceType: 'partner',
    resourceId: result.partnerId,
    resourceName: 'Northwind IT Services',
    details: { organizations: ORGANIZATIONS.length, technicians: PEOPLE.length },
  });
  if (result.adminId) {
    ctx.audit.record({
      orgId: null,
      actorType: actor ? 'user' : 'system',
      actorId: createdBy,
      actorEmail: actor?.email ?? null,
      action: 'demo.platform_admin.create',
      resourceType: 'user',
      resourceId: result.adminId,
      resourceName: PLATFORM_ADMIN.email,
    });
  }

  return {
    created: result.created,
    partnerId: result.partnerId,
    technicians: PEOPLE.map((p) => ({ name: p.name, email: p.email, role: p.role })),
    password: result.created ? password : null,
    platformAdmin: result.adminId && adminPassword ? { ...PLATFORM_ADMIN, password: adminPassword } : null,
    enrollmentKey: {
      id: result.fleetKey.row.id,
      orgId: result.fleetOrgId,
      key: result.fleetKey.key,
      expiresAt: result.fleetKey.row.expires_at,
    },
  };
}
