import { useMemo } from 'react';
import { useOrganizations, useOwnPartner, usePartnerList } from '../../lib/directory';
import { navigate, useRouter } from '../../lib/router';
import { useSession } from '../../lib/session';
import type { SsoOwner } from './model';

// Whose single sign-on the screen shows. A provider belongs to exactly one owner (spec 1 "SSO provider"
// ownerScope): an organization (its users, auto-provisioned or not) or a partner (the partner's own
// technicians). The choice is `?owner=organization:<id>` or `?owner=partner:<id>` in the URL, so a link or a reload
// keeps it; without one the first choice is shown (the partner's own technicians first for a partner caller).

export interface OwnerChoice extends SsoOwner {
  /** What the picker shows: the organization's name, or "<partner> technicians". */
  label: string;
  /** For organizations: the partner the organization belongs to. */
  partnerId: string | null;
}

export interface OwnerPick {
  owner: OwnerChoice | null;
  choices: OwnerChoice[];
  loaded: boolean;
  setOwner: (choice: SsoOwner) => void;
}

export const ownerKey = (owner: SsoOwner): string => `${owner.kind}:${owner.id}`;

function parseOwner(text: string | null): SsoOwner | null {
  const [kind, id] = (text ?? '').split(':');
  return (kind === 'organization' || kind === 'partner') && id ? { kind, id } : null;
}

export function useSsoOwner(): OwnerPick {
  const scope = useSession((s) => s.user?.scope ?? 'organization');
  const search = useRouter((s) => s.search);
  const { orgs, loading } = useOrganizations();
  const ownPartner = useOwnPartner(scope === 'partner');
  const partners = usePartnerList(scope === 'system');

  const choices = useMemo(() => {
    const partnerList =
      scope === 'partner' ? (ownPartner.data ? [ownPartner.data] : []) : (partners.data?.data ?? []);
    const partnerChoices: OwnerChoice[] = partnerList.map((p) => ({
      kind: 'partner',
      id: p.id,
      label: `${p.name} technicians`,
      partnerId: p.id,
    }));
    const orgChoices: OwnerChoice[] = orgs.map((o) => ({
      kind: 'organization',
      id: o.id,
      label: o.name,
      partnerId: o.partnerId,
    }));
    return [...partnerChoices, ...orgChoices];
  }, [scope, ownPartner.data, partners.data, orgs]);

  const wanted = parseOwner(new URLSearchParams(search).get('owner'));
  const owner =
    (wanted && choices.find((c) => c.kind === wanted.kind && c.id === wanted.id)) ?? choices[0] ?? null;
  const loaded = !loading && !ownPartner.loading && !partners.loading;

  return {
    owner,
    choices,
    loaded,
    setOwner: (next) => {
      const params = new URLSearchParams(window.location.search);
      params.set('owner', ownerKey(next));
      navigate(`${window.location.pathname}?${params.toString()}`, { replace: true });
    },
  };
}
