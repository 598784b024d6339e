import type { PamRulePreview } from '../../../contract';
import type { AppContext } from '../../../context';
import type { AuthContext } from '../../../http/auth-context';
import { badRequest } from '../../../http/errors';
import { requireSiteAccess } from '../../../http/scope';
import { deviceVisibility, onDeviceRows, restrictionClauses } from '../../devices';
import type { Observation } from '../observation';
import { targetOrg } from './access';
import { loadSignerGroups, ruleMatcher } from './match';
import { recentRequests, type PreviewRow } from './preview-store';
import type { PreviewBody } from './schemas';
import { criteriaFromBody, validateRule } from './validate';

// POST /pam/rules/preview: what a rule would have matched in the organization's recent elevation requests, run
// through the same matcher as ingest, with each time window read at the request's own requested_at. The scan
// walks newest first and stops at PREVIEW_SCAN_CAP rows (`truncated`), so its cost is bounded whatever the
// window. A restricted caller previews over the requests of the devices they see (their sites and device
// groups); criteria naming a site scan that site, as the rule would only ever see its requests.

export const PREVIEW_SCAN_CAP = 50_000;
export const PREVIEW_SAMPLE_SIZE = 20;
const DAY_MS = 86_400_000;

function adGroupsOf(json: string | null): string[] {
  if (!json) return [];
  try {
    const parsed = JSON.parse(json) as unknown;
    return Array.isArray(parsed) ? parsed.filter((g): g is string => typeof g === 'string') : [];
  } catch {
    return [];
  }
}

export function observationOf(row: PreviewRow): Observation {
  return {
    flowType: row.flow_type,
    subjectUsername: row.subject_username,
    subjectAdGroups: adGroupsOf(row.subject_ad_groups),
    targetExecutablePath: row.target_executable_path,
    targetExecutableHash: row.target_executable_hash,
    targetExecutableSigner: row.target_executable_signer,
    targetSignerThumbprint: row.target_signer_thumbprint,
    parentImage: row.parent_image,
    commandLine: row.command_line,
    toolName: row.tool_name,
    riskTier: row.risk_tier,
  };
}

export function previewRule(
  ctx: AppContext,
  auth: AuthContext,
  body: PreviewBody,
  options: { now?: Date; scanCap?: number } = {},
): PamRulePreview {
  const orgId = targetOrg(ctx, auth, body.orgId);
  const criteria = criteriaFromBody(body);
  validateRule(ctx.db, orgId, criteria);

  const where = ['r.org_id = ?', 'r.requested_at >= ?'];
  const now = options.now ?? new Date();
  const params: unknown[] = [orgId, new Date(now.getTime() - body.windowDays * DAY_MS).toISOString()];
  if (body.siteId) {
    const site = requireSiteAccess(ctx.db, auth, body.siteId);
    if (site.org_id !== orgId)
      throw badRequest("siteId: must be a site of the rule's organization", 'VALIDATION_ERROR');
    where.push('r.site_id = ?');
    params.push(body.siteId);
  }
  for (const clause of restrictionClauses(deviceVisibility(ctx, auth), onDeviceRows('r'))) {
    where.push(clause.sql);
    params.push(...clause.params);
  }
  if (body.flowType) {
    where.push('r.flow_type = ?');
    params.push(body.flowType);
  }
  const cap = options.scanCap ?? PREVIEW_SCAN_CAP;
  params.push(cap + 1);

  let matches: ReturnType<typeof ruleMatcher>;
  try {
    matches = ruleMatcher(criteria, criteria.matchSignerGroupId ? loadSignerGroups(ctx.db, orgId) : null);
  } catch (err) {
    // Validated criteria compile; what can still fail is stored data (a signer group whose list is unreadable).
    throw badRequest(`The criteria cannot be evaluated: ${(err as Error).message}`, 'VALIDATION_ERROR');
  }
  const rows = recentRequests(ctx.db, where, params);

  let totalScanned = 0;
  let totalMatched = 0;
  let truncated = false;
  const statusBreakdown: PamRulePreview['statusBreakdown'] = {};
  const sample: PamRulePreview['sample'] = [];
  for (const row of rows) {
    if (totalScanned === cap) {
      truncated = true;
      break;
    }
    totalScanned++;
    const requestedAt = new Date(row.requested_at);
    if (Number.isNaN(requestedAt.getTime()) || !matches(observationOf(row), requestedAt)) continue;
    totalMatched++;
    statusBreakdown[row.status] = (statusBreakdown[row.status] ?? 0) + 1;
    if (sample.length < PREVIEW_SAMPLE_SIZE)
      sample.push({ id: row.id, requestedAt: row.requested_at, flowType: row.flow_type, status: row.status });
  }
  return {
    success: true,
    totalMatched,
    totalScanned,
    windowDays: body.windowDays,
    truncated,
    statusBreakdown,
    sample,
  };
}
