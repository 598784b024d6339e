import type { AppContext } from '../../context';
import type { AgentBuildCount, DeviceFacets, FacetCount } from '../../contract';
import type { AuthContext } from '../../http/auth-context';
import { facetRows, matchingDeviceCount } from './facet-store';
import type { DeviceFacetsQuery } from './schemas';
import { deviceListClauses } from './service';

// GET /devices/facets: how many devices the caller may see per organization, status, operating system, agent
// version or agent build, in one request. The clauses are the device list's own (scope, site and device-group
// restrictions, live organizations, the same filters), so the console's header, status chips and adoption
// counts always agree with the list they describe.

export function deviceFacets(ctx: AppContext, auth: AuthContext, query: DeviceFacetsQuery): DeviceFacets {
  const { by, ...filter } = query;
  const clauses = deviceListClauses(ctx, auth, filter);
  const facets: DeviceFacets['facets'] = {};
  for (const facet of by) {
    const rows = facetRows(ctx.db, clauses, facet);
    if (facet === 'agentBuild') {
      facets.agentBuild = rows.map((r): AgentBuildCount => ({
        value: r.value,
        osType: r.os_type as AgentBuildCount['osType'],
        architecture: r.architecture as AgentBuildCount['architecture'],
        count: r.n,
      }));
    } else {
      facets[facet] = rows.map((r): FacetCount => ({ value: r.value, count: r.n }));
    }
  }
  return { total: matchingDeviceCount(ctx.db, clauses), facets };
}
