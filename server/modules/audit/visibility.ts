import type { Restrictions } from '../../http/scope';
import { onDeviceRows, onDevices, restrictionClauses } from '../devices';

// The audit log is organization-wide, but an organization user limited to sites or device groups must not learn
// about the devices their limit leaves out (hostnames, elevation requests, who touched them). Entries whose
// resource is a device, an elevation request or a device group follow the device visibility rule
// (devices/access.ts); every other entry of the organization stays readable. The SQL form serves the lists and, run
// on one entry (store.ts, auditEntryVisible), the console pushes.

const isRestricted = (r: Restrictions) => r.sites !== null || r.deviceGroups !== null;

/** SQL over `audit_logs a`: true for the entries a restricted caller may read (null when unrestricted). */
export function auditRestrictionClause(r: Restrictions): { sql: string; params: unknown[] } | null {
  if (!isRestricted(r)) return null;
  const onDevice = restrictionClauses(r, onDevices('d'));
  const onRequest = restrictionClauses(r, onDeviceRows('r'));
  const where = (clauses: typeof onDevice) => clauses.map((c) => c.sql).join(' AND ');
  const params: unknown[] = [...onDevice.flatMap((c) => c.params), ...onRequest.flatMap((c) => c.params)];
  // A group-restricted caller reads only their groups' entries; a site-restricted one the groups of their sites.
  const groupTest = r.deviceGroups
    ? 'a.resource_id IN (SELECT value FROM json_each(?))'
    : 'a.resource_id IN (SELECT g.id FROM device_groups g WHERE g.site_id IN (SELECT value FROM json_each(?)))';
  params.push(JSON.stringify([...(r.deviceGroups ?? r.sites ?? [])]));
  return {
    sql: `(CASE a.resource_type
      WHEN 'device' THEN a.resource_id IN (SELECT d.id FROM devices d WHERE ${where(onDevice)})
      WHEN 'elevation_request' THEN a.resource_id IN (SELECT r.id FROM elevation_requests r WHERE ${where(onRequest)})
      WHEN 'device_group' THEN ${groupTest}
      ELSE 1 END)`,
    params,
  };
}
