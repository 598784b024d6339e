import type { Organization, Partner, Role, UserAssociation } from '../../../../server/contract';
import { asList } from '../../lib/query';
import { useScope } from '../../lib/session';
import { useOrganizationList, useOwnPartner, usePartnerList } from '../../lib/directory';
import { plural } from '../../lib/format';

// Names for the ids that users and roles carry (partner, organization), loaded once per screen from the lists the
// caller can read. A caller who cannot read them still gets a working screen, with fewer names.

export interface Directory {
  orgs: Organization[];
  partners: Partner[];
  orgName: (id: string | null | undefined) => string | null;
  partnerName: (id: string | null | undefined) => string | null;
}

export function useDirectory(): Directory {
  const scope = useScope();
  const orgs = useOrganizationList();
  const partners = usePartnerList(scope === 'system');
  const own = useOwnPartner(scope === 'partner');
  const orgList = asList(orgs.data);
  const partnerList = own.data ? [own.data] : asList(partners.data);
  return {
    orgs: orgList,
    partners: partnerList,
    orgName: (id) => (id ? (orgList.find((o) => o.id === id)?.name ?? null) : null),
    partnerName: (id) => (id ? (partnerList.find((p) => p.id === id)?.name ?? null) : null),
  };
}

/** Where a user belongs and how far their access reaches, in a few words. */
export function accessSummary(a: UserAssociation, dir: Directory, callerScope: string | null): string {
  if (a.scope === 'system') return 'Platform';
  if (a.scope === 'partner') {
    const who = callerScope === 'system' ? (dir.partnerName(a.partnerId) ?? 'Partner') : 'Partner';
    const reach =
      a.orgAccess === 'all'
        ? 'all organizations'
        : a.orgAccess === 'selected'
          ? plural(a.orgIds?.length ?? 0, 'organization')
          : 'no organizations';
    return `${who} · ${reach}`;
  }
  const org = dir.orgName(a.orgId) ?? 'Organization';
  const sites = a.siteIds?.length ? ` · ${plural(a.siteIds.length, 'site')}` : '';
  return `${org}${sites}`;
}

/** The tenant query naming a user's or role's tenant, for lists of roles it may hold. */
export function tenantQueryOf(a: { scope: string; partnerId: string | null; orgId: string | null }): {
  partnerId?: string;
  orgId?: string;
} {
  if (a.scope === 'organization' && a.orgId) return { orgId: a.orgId };
  if (a.scope === 'partner' && a.partnerId) return { partnerId: a.partnerId };
  return {};
}

export function roleTenantLabel(role: Role, dir: Directory): string {
  if (role.scope === 'system') return 'Platform';
  if (role.scope === 'partner')
    return role.partnerId ? (dir.partnerName(role.partnerId) ?? 'Partner') : 'Every partner';
  return role.orgId ? (dir.orgName(role.orgId) ?? 'Organization') : 'Every organization';
}

export const SCOPE_LABEL: Record<string, string> = {
  system: 'Platform',
  partner: 'Partner',
  organization: 'Organization',
};
