import { useQuery } from '@tanstack/react-query';
import type {
  AiToolCatalogEntry,
  AiToolsResponse,
  ElevationRequestDetail,
  PamConfig,
  PamConfigResponse,
  PamRuleList,
  PamRulePreview,
  PamRuleResponse,
  Partner,
  SignerGroupList,
  SignerGroupResponse,
} from '../../../../server/contract';
import { api, apiResponse, ApiError } from '../../lib/api/client';
import { apiKey, useApiQuery, type QueryState } from '../../lib/query';
import type { RuleBody } from './model';
import type { PolicyOrg } from './org';

// The PAM policy endpoints (spec 5: rules, signer groups, configuration; the partner's step-up policy lives in
// the partner settings), typed by the contract. Reads are cached under their path (`apiKey`), as every plain GET
// of the console is, so pushes and writes elsewhere reach them the same way.

/** What a rule's PATCH may carry: changed fields, or the re-approval of a suspended verdict. */
export type RulePatch = Partial<RuleBody> | { reapprove: true };

/** A new signer group, or the changed fields of one. */
export interface SignerGroupBody {
  name: string;
  description: string | null;
  signers: string[];
}

/** The step-up policy stored under the partner's `settings.security.approvalStepUp`. */
export interface StepUpPolicy {
  mode: 'off' | 'grace' | 'enforce';
  floors: Record<'low' | 'medium' | 'high' | 'critical', 1 | 2 | 3>;
}

const rulePath = (id: string) => `/pam/rules/${encodeURIComponent(id)}`;
const requestPath = (id: string) => `/pam/elevation-requests/${encodeURIComponent(id)}`;

export const pamPolicyApi = {
  createRule: (body: RuleBody & { orgId?: string }) =>
    api<PamRuleResponse>('/pam/rules', { method: 'POST', body }),
  updateRule: (id: string, patch: RulePatch) =>
    api<PamRuleResponse>(rulePath(id), { method: 'PATCH', body: patch }),
  deleteRule: (id: string) => api<PamRuleResponse>(rulePath(id), { method: 'DELETE' }),
  /** What the criteria would have matched over the last `windowDays` days. */
  previewRule: (body: Record<string, unknown>, signal: AbortSignal) =>
    api<PamRulePreview>('/pam/rules/preview', { method: 'POST', body, signal }),

  createSignerGroup: (body: SignerGroupBody & { orgId?: string }) =>
    api<SignerGroupResponse>('/pam/signer-groups', { method: 'POST', body }),
  updateSignerGroup: (id: string, body: SignerGroupBody) =>
    api<SignerGroupResponse>(`/pam/signer-groups/${id}`, { method: 'PATCH', body }),
  deleteSignerGroup: (id: string) =>
    api<SignerGroupResponse>(`/pam/signer-groups/${id}`, { method: 'DELETE' }),

  saveConfig: (body: Omit<PamConfig, 'orgId'> & { orgId?: string }) =>
    api<PamConfigResponse>('/pam/config', { method: 'PUT', body }),
  /** `partnerPath`: `/orgs/partners/me` for partner callers, `/orgs/partners/<id>` for platform administrators. */
  saveStepUp: (partnerPath: string, policy: StepUpPolicy) =>
    api<Partner>(partnerPath, {
      method: 'PATCH',
      body: { settings: { security: { approvalStepUp: policy } } },
    }),

  aiTools: () => api<AiToolsResponse>('/pam/ai-tools').then((r) => r.tools),

  /** One page of the elevation audit export, unread: its body is CSV or JSONL, its paging in the headers. */
  exportPage: (query: URLSearchParams, signal: AbortSignal) =>
    apiResponse(`/pam/elevation-audit/export?${query.toString()}`, { headers: { accept: '*/*' }, signal }),
};

function useGet<T>(path: string | null): QueryState<T> {
  return useApiQuery<T>(path === null ? null : apiKey(path), () => api<T>(path ?? ''));
}

// Each list waits for the organization to be known (partner and system callers name it in the query) so no
// request goes out for "no organization".

export function useRules(org: PolicyOrg): QueryState<PamRuleList> {
  return useGet(org.orgId ? `/pam/rules${org.query}` : null);
}

export function useSignerGroups(org: PolicyOrg): QueryState<SignerGroupList> {
  return useGet(org.orgId ? `/pam/signer-groups${org.query}` : null);
}

export function usePamConfig(org: PolicyOrg): QueryState<PamConfigResponse> {
  return useGet(org.orgId ? `/pam/config${org.query}` : null);
}

export function useRule(id: string | null): QueryState<PamRuleResponse> {
  return useGet(id ? rulePath(id) : null);
}

/** The request a new rule is built from (null: none). */
export function useElevationRequest(id: string | null): QueryState<ElevationRequestDetail> {
  return useGet(id ? requestPath(id) : null);
}

/** The partner whose step-up policy is shown, by its path (null: none to show). */
export function usePolicyPartner(partnerPath: string | null): QueryState<Partner> {
  return useGet(partnerPath);
}

/**
 * The AI tools this server build knows (empty until loaded, or when the server cannot say). The catalog is fixed
 * by the server build, so one answer serves the whole console session; a refusal is such an answer too, while a
 * transient failure (server error, unreachable) is asked again by the next screen that needs the catalog.
 */
export function useAiTools(): AiToolCatalogEntry[] {
  const tools = useQuery({
    queryKey: ['pam-policy', 'ai-tools'],
    queryFn: () =>
      pamPolicyApi.aiTools().catch((err: unknown) => {
        if (err instanceof ApiError && err.status > 0 && err.status < 500) return [];
        throw err;
      }),
    staleTime: Infinity,
    gcTime: Infinity,
  });
  return tools.data ?? [];
}
