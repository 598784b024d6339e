import { useEffect, useMemo } from 'react';
import type { Organization, PamOrgQuery, Scope, Site } from '../../../../server/contract';
import { navigate, useRouter } from '../../lib/router';
import { useSession } from '../../lib/session';
import type { Lookups } from '../../lib/directory';

// Which organization the policy screens show. Rules, signer groups and the default verdict belong to one
// organization each (rule priorities only make sense within one), so partner and system callers work on one
// organization at a time: `?orgId=` in the URL (shareable, survives reloads), remembered between visits.
// Organization callers have theirs implicitly and send no orgId.

const REMEMBER_KEY = 'gatehouse.pam-policy.orgId';

export interface PolicyOrg {
  scope: Scope;
  /** The organization on screen; null while the list loads or when the caller has none. */
  orgId: string | null;
  org: Organization | null;
  orgs: Organization[];
  /** Sites of the organization on screen (what the caller may see). */
  sites: Site[];
  /** The caller picks the organization (partner and system scope). */
  picks: boolean;
  /** The query of a read: `orgId`, none for organization callers. */
  query: PamOrgQuery;
  /** Adds `orgId` to a write body when the caller must name it. */
  withOrg: <T extends object>(body: T) => T & { orgId?: string };
  /** A path inside /pam that keeps the organization. */
  link: (path: string, extra?: Record<string, string>) => string;
  setOrgId: (orgId: string) => void;
  loaded: boolean;
}

function remembered(): string | null {
  try {
    return window.localStorage.getItem(REMEMBER_KEY);
  } catch {
    return null;
  }
}

function remember(orgId: string): void {
  try {
    window.localStorage.setItem(REMEMBER_KEY, orgId);
  } catch {
    // Private windows may refuse storage; the URL still carries the choice.
  }
}

export function usePolicyOrg(lookups: Lookups): PolicyOrg {
  const scope = useSession((s) => s.user?.scope ?? 'organization');
  const ownOrgId = useSession((s) => s.user?.orgId ?? null);
  const search = useRouter((s) => s.search);
  const pathname = useRouter((s) => s.pathname);
  const picks = scope !== 'organization';
  const fromUrl = new URLSearchParams(search).get('orgId');

  const orgId = useMemo(() => {
    if (!picks) return ownOrgId ?? lookups.orgs[0]?.id ?? null;
    if (fromUrl) return fromUrl;
    if (!lookups.loaded) return null;
    const saved = remembered();
    if (saved && lookups.orgs.some((o) => o.id === saved)) return saved;
    return lookups.orgs[0]?.id ?? null;
  }, [picks, ownOrgId, fromUrl, lookups]);

  // Put the chosen organization in the URL, so links and reloads keep it.
  useEffect(() => {
    if (!picks || fromUrl || !orgId) return;
    const params = new URLSearchParams(window.location.search);
    params.set('orgId', orgId);
    navigate(`${window.location.pathname}?${params.toString()}`, { replace: true });
  }, [picks, fromUrl, orgId, pathname]);

  useEffect(() => {
    if (picks && fromUrl && lookups.orgs.some((o) => o.id === fromUrl)) remember(fromUrl);
  }, [picks, fromUrl, lookups.orgs]);

  return useMemo(() => {
    const org = lookups.orgs.find((o) => o.id === orgId) ?? null;
    const link = (path: string, extra: Record<string, string> = {}) => {
      const params = new URLSearchParams();
      if (picks && orgId) params.set('orgId', orgId);
      for (const [k, v] of Object.entries(extra)) params.set(k, v);
      const text = params.toString();
      return text ? `${path}?${text}` : path;
    };
    return {
      scope,
      orgId,
      org,
      orgs: lookups.orgs,
      sites: orgId ? lookups.sites.filter((s) => s.orgId === orgId) : [],
      picks,
      query: picks && orgId ? { orgId } : {},
      withOrg: <T extends object>(body: T) => (picks && orgId ? { ...body, orgId } : body),
      link,
      setOrgId: (next: string) => {
        const params = new URLSearchParams(window.location.search);
        params.set('orgId', next);
        params.delete('saved');
        remember(next);
        navigate(`${window.location.pathname}?${params.toString()}`, { replace: true });
      },
      loaded: lookups.loaded,
    };
  }, [scope, orgId, picks, lookups]);
}
