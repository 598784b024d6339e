import type { SsoCheckResponse, SsoDiscoveryResponse } from '../../contract';
import type { Db } from '../../db/connection';
import { organizationsWithVerifiedDomain, signInPartner } from './governance-store';
import { activeProviderOf } from './provider-store';

// What the sign-in page may learn before anyone signs in (rules 14 and `GET /sso/check/:orgId`).

/**
 * Rule 14: keyed on the email's domain only, never on users. A provider is offered only when exactly one
 * organization proved the domain by DNS and that organization's oldest active provider is OIDC.
 */
export function discoverForEmail(db: Db, email: string): SsoDiscoveryResponse {
  const domain = email
    .slice(email.lastIndexOf('@') + 1)
    .trim()
    .toLowerCase();
  const orgs = organizationsWithVerifiedDomain(db, domain);
  const orgId = orgs.length === 1 ? orgs[0] : undefined;
  const provider = orgId ? activeProviderOf(db, { orgId }) : undefined;
  if (!orgId || !provider || provider.type !== 'oidc') return { sso: null };
  return {
    sso: {
      providerName: provider.name,
      loginUrl: `/api/v1/sso/login/${orgId}`,
      enforceSSO: provider.enforce_sso === 1,
    },
  };
}

/** The organization's active provider; an unknown organization answers like one without a provider. */
export function checkOrganization(db: Db, orgId: string): SsoCheckResponse {
  const provider = activeProviderOf(db, { orgId });
  if (!provider) return { enabled: false, providerName: null, type: null, enforceSSO: false };
  return {
    enabled: true,
    providerName: provider.name,
    type: provider.type,
    enforceSSO: provider.enforce_sso === 1,
  };
}

/**
 * Rule 15: the partner button of a sign-in page. With a slug, the per-partner page; without, the shared page of a
 * single-partner (self-hosted) deployment. An unknown slug, a suspended or deleted partner, or one without an
 * active OIDC provider answer `{sso: null}`, and the page stays the stock one.
 */
export function partnerSignIn(db: Db, slug: string | null): SsoDiscoveryResponse {
  const partner = signInPartner(db, slug);
  const provider = partner ? activeProviderOf(db, { partnerId: partner.id }) : undefined;
  if (!partner || !provider || provider.type !== 'oidc') return { sso: null };
  return {
    sso: {
      providerName: provider.name,
      loginUrl: `/api/v1/sso/login/partner/${partner.id}`,
      enforceSSO: provider.enforce_sso === 1,
    },
  };
}
