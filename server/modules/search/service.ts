import type { AppContext } from '../../context';
import type { SearchResponse, SearchResult } from '../../contract/filters';
import type { AuthContext } from '../../http/auth-context';
import { HttpError } from '../../http/errors';
import { callerHolds, PERMISSIONS } from '../../http/permissions';
import { resolveOrgScope, scopeFilter } from '../../http/scope';
import { deviceVisibility, onDeviceRows, visibilityClauses } from '../devices';
import { listUsers, requireAdminContext, userVisibility } from '../users';
import { CONSOLE_PAGES, pageRank } from './pages';
import { matchingDevices, matchingOrganizations, matchingRequests, matchingRules } from './store';

// GET /search (spec 2, Search): a case-insensitive substring match over what exists in Gatehouse: console pages
// (the spec's `settings` kind, by title and synonyms), devices (hostname, displayName, lastUser), and the kinds the
// endpoint catalog names without a shape (users, organizations) plus elevation requests and rules. Every kind is
// read within the caller's scope and only with the permission of the list it comes from; scripts and alerts do
// not exist in Gatehouse, so they are never returned. Kinds outside the spec's four carry `href`, their console
// path, as pages do.

type Finder = (ctx: AppContext, auth: AuthContext, q: string, limit: number) => SearchResult[];

function pageResults(ctx: AppContext, auth: AuthContext, q: string): SearchResult[] {
  // A console page means nothing to an integration calling with an API key.
  if (auth.kind !== 'user') return [];
  const needle = q.toLowerCase();
  return CONSOLE_PAGES.flatMap((page) => {
    const rank = pageRank(page, needle);
    if (rank === null) return [];
    if (page.scope && page.scope !== auth.scope) return [];
    if (page.permission && !callerHolds(ctx.db, auth, page.permission)) return [];
    return [{ page, rank }];
  })
    .sort((a, b) => a.rank - b.rank)
    .map(({ page }) => ({
      id: page.id,
      type: 'settings' as const,
      title: page.title,
      description: page.description,
      href: page.href,
    }));
}

/** Devices first where one of the three fields starts with `q` (hostname prefix before the others), then by hostname. */
const deviceResults: Finder = (ctx, auth, q, limit) => {
  if (!callerHolds(ctx.db, auth, PERMISSIONS.DEVICES_READ)) return [];
  const clauses = visibilityClauses(deviceVisibility(ctx, auth));
  return matchingDevices(ctx.db, clauses, q, limit).map((r) => ({
    id: r.id,
    type: 'devices' as const,
    title: r.hostname,
    description: [r.os_version, r.org_name, r.last_user].filter((part) => part).join(' · '),
  }));
};

const RISK_WORD: Record<string, string> = {
  low: 'Low',
  medium: 'Medium',
  high: 'High',
  critical: 'Critical',
};

/** The executable's file name (either slash), or the AI tool, or what kind of request it was. */
function requestTitle(path: string | null, tool: string | null, flow: string): string {
  if (path) return path.split(/[\\/]/).pop() || path;
  if (tool) return tool;
  return flow === 'tech_jit_admin' ? 'Technician admin session' : 'Elevation request';
}

/** Words that name the requests themselves: "elevation" or "request" lists the ones waiting for a decision. */
const REQUEST_WORDS = ['elevation', 'elevations', 'elevation request', 'request', 'requests', 'pending'];
const namesRequests = (q: string) => {
  const needle = q.toLowerCase();
  return needle.length >= 4 && REQUEST_WORDS.some((word) => word.startsWith(needle));
};

/** Elevation requests on devices the caller sees, as the approvals inbox reads them (devices:read). */
const requestResults: Finder = (ctx, auth, q, limit) => {
  if (!callerHolds(ctx.db, auth, PERMISSIONS.DEVICES_READ)) return [];
  const clauses = visibilityClauses(deviceVisibility(ctx, auth), onDeviceRows('r'));
  return matchingRequests(ctx.db, clauses, q, limit, namesRequests(q)).map((r) => ({
    id: r.id,
    type: 'elevation_requests' as const,
    title: requestTitle(r.target_executable_path, r.tool_name, r.flow_type),
    description: [r.hostname, r.subject_username, `${RISK_WORD[r.risk_level] ?? r.risk_level} risk`, r.status]
      .filter((part) => part)
      .join(' · '),
    href: `/approvals/${encodeURIComponent(r.id)}`,
  }));
};

const VERDICT_WORD: Record<string, string> = {
  auto_approve: 'Auto-approve',
  require_approval: 'Require approval',
  auto_deny: 'Auto-deny',
  ignore: 'Ignore',
};

/** Elevation rules, for callers who manage elevation policy (the page a rule opens in). */
const ruleResults: Finder = (ctx, auth, q, limit) => {
  if (!callerHolds(ctx.db, auth, PERMISSIONS.PAM_MANAGE_POLICY)) return [];
  const scoped = scopeFilter(resolveOrgScope(ctx.db, auth), 'r.org_id');
  return matchingRules(ctx.db, { sql: scoped.clause, params: scoped.params }, q, limit).map((r) => ({
    id: r.id,
    type: 'elevation_rules' as const,
    title: r.name,
    description: [VERDICT_WORD[r.verdict] ?? r.verdict, r.enabled ? null : 'disabled', r.org_name]
      .filter((part) => part)
      .join(' · '),
    href: `/pam/rules/${encodeURIComponent(r.id)}?orgId=${encodeURIComponent(r.org_id)}`,
  }));
};

const organizationResults: Finder = (ctx, auth, q, limit) => {
  if (!callerHolds(ctx.db, auth, PERMISSIONS.ORGANIZATIONS_READ)) return [];
  const scoped = scopeFilter(resolveOrgScope(ctx.db, auth), 'o.id');
  return matchingOrganizations(ctx.db, { sql: scoped.clause, params: scoped.params }, q, limit).map((o) => ({
    id: o.id,
    type: 'organizations' as const,
    title: o.name,
    description: o.status === 'active' ? o.partner_name : `${o.partner_name} · ${o.status}`,
    href: `/tenants/orgs/${encodeURIComponent(o.id)}`,
  }));
};

/** People by name or email, as the Users page lists them (console users only, users:read, an admin context). */
const userResults: Finder = (ctx, auth, q, limit) => {
  if (auth.kind !== 'user' || !callerHolds(ctx.db, auth, PERMISSIONS.USERS_READ)) return [];
  try {
    requireAdminContext(ctx.db, auth, { fullPartnerAccess: true });
  } catch (err) {
    // The Users page refuses this caller (a partner user limited to some organizations): so does its search.
    if (err instanceof HttpError) return [];
    throw err;
  }
  const { rows } = listUsers(ctx.db, userVisibility(ctx.db, auth), { q }, { page: 1, limit });
  return rows.map(({ user, association }) => ({
    id: user.id,
    type: 'users' as const,
    title: user.name,
    description: [user.email, association.roleName, user.status === 'active' ? null : user.status]
      .filter((part) => part)
      .join(' · '),
    href: `/users?q=${encodeURIComponent(user.email)}`,
  }));
};

/** The kinds after pages, in the order results list them. */
const FINDERS: readonly Finder[] = [
  deviceResults,
  requestResults,
  ruleResults,
  organizationResults,
  userResults,
];

/**
 * Shares `limit` among the lists in turns, one result each per round, so that no kind crowds out the others
 * ("users" finds the Users page and people even when many devices match); what a short list leaves goes to the
 * longer ones.
 */
export function shareLimit<T>(lists: readonly T[][], limit: number): T[][] {
  const taken = lists.map(() => 0);
  let left = limit;
  while (left > 0) {
    let progressed = false;
    lists.forEach((list, i) => {
      if (left > 0 && (taken[i] ?? 0) < list.length) {
        taken[i] = (taken[i] ?? 0) + 1;
        left -= 1;
        progressed = true;
      }
    });
    if (!progressed) break;
  }
  return lists.map((list, i) => list.slice(0, taken[i]));
}

/** Pages first (a handful at most), then devices, requests, rules, organizations and people; `limit` in all. */
export function search(ctx: AppContext, auth: AuthContext, q: string, limit: number): SearchResponse {
  const lists = [pageResults(ctx, auth, q), ...FINDERS.map((find) => find(ctx, auth, q, limit))];
  return { results: shareLimit(lists, limit).flat() };
}
