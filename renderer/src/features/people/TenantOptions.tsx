import type { Directory } from './directory';

// The partners and organizations a new user or role can belong to, as <optgroup>s of one <select>: partners as
// `p:<id>`, organizations as `o:<id>` (the select adds its own first options, e.g. the caller's own partner).

export function TenantOptions({
  dir,
  partners,
  organizations,
  withPartner = false,
}: {
  dir: Directory;
  /** The label of the partner group, or null when the caller cannot choose a partner. */
  partners: string | null;
  organizations: string;
  /** Name each organization's partner beside it (a platform administrator sees every partner's). */
  withPartner?: boolean;
}) {
  return (
    <>
      {partners !== null && dir.partners.length > 0 ? (
        <optgroup label={partners}>
          {dir.partners.map((p) => (
            <option key={p.id} value={`p:${p.id}`}>
              {p.name}
            </option>
          ))}
        </optgroup>
      ) : null}
      {dir.orgs.length > 0 ? (
        <optgroup label={organizations}>
          {dir.orgs.map((o) => (
            <option key={o.id} value={`o:${o.id}`}>
              {o.name}
              {withPartner ? ` — ${dir.partnerName(o.partnerId) ?? 'partner'}` : ''}
            </option>
          ))}
        </optgroup>
      ) : null}
    </>
  );
}
