import { useQuery } from '@tanstack/react-query';
import type {
  AiToolCatalogEntry,
  ElevationExportQuery,
  PamConfigBody,
  PamRuleBody,
  PamRulePatch,
  PamRulePreviewBody,
  SignerGroupBody,
  StepUpPolicy,
} from '../../../../server/contract';
import { ApiError } from '../../lib/api/client';
import { call, stream } from '../../lib/api/endpoints';
import { useApiQuery } from '../../lib/query';
import type { PolicyOrg } from './org';

export type { StepUpPolicy };

// The PAM policy endpoints (spec 5: rules, signer groups, configuration; the partner's step-up policy lives in
// the partner settings), typed by the contract, and their cached reads. Every key starts with 'pam-policy'.

/** A partner as the step-up card names it: the caller's own (partner callers) or one by id (administrators). */
export type PolicyPartner = 'me' | { id: string };

export const pamPolicyKeys = {
  rules: (org: PolicyOrg) => ['pam-policy', 'rules', org.query] as const,
  rule: (id: string) => ['pam-policy', 'rule', id] as const,
  signerGroups: (org: PolicyOrg) => ['pam-policy', 'signer-groups', org.query] as const,
  config: (org: PolicyOrg) => ['pam-policy', 'config', org.query] as const,
  request: (id: string) => ['pam-policy', 'request', id] as const,
  partner: (partner: PolicyPartner) => ['pam-policy', 'partner', partner] as const,
  aiTools: ['pam-policy', 'ai-tools'] as const,
};

export const pamPolicyApi = {
  createRule: (body: PamRuleBody & { orgId?: string }) => call('POST /pam/rules', { body }),
  updateRule: (id: string, patch: PamRulePatch) =>
    call('PATCH /pam/rules/:id', { params: { id }, body: patch }),
  deleteRule: (id: string) => call('DELETE /pam/rules/:id', { params: { id } }),
  /** What the criteria would have matched over the last `windowDays` days. */
  previewRule: (body: PamRulePreviewBody, signal: AbortSignal) =>
    call('POST /pam/rules/preview', { body, signal }),

  createSignerGroup: (body: SignerGroupBody & { orgId?: string }) =>
    call('POST /pam/signer-groups', { body }),
  updateSignerGroup: (id: string, body: SignerGroupBody) =>
    call('PATCH /pam/signer-groups/:id', { params: { id }, body }),
  deleteSignerGroup: (id: string) => call('DELETE /pam/signer-groups/:id', { params: { id } }),

  saveConfig: (body: PamConfigBody) => call('PUT /pam/config', { body }),
  partner: (partner: PolicyPartner) =>
    partner === 'me'
      ? call('GET /orgs/partners/me')
      : call('GET /orgs/partners/:id', { params: { id: partner.id } }),
  saveStepUp: (partner: PolicyPartner, policy: StepUpPolicy) => {
    const body = { settings: { security: { approvalStepUp: policy } } };
    return partner === 'me'
      ? call('PATCH /orgs/partners/me', { body })
      : call('PATCH /orgs/partners/:id', { params: { id: partner.id }, body });
  },

  aiTools: () => call('GET /pam/ai-tools').then((r) => r.tools),

  /** One page of the elevation audit export, unread: its body is CSV or JSONL, its paging in the headers. */
  exportPage: (query: ElevationExportQuery, signal: AbortSignal) =>
    stream('GET /pam/elevation-audit/export', { query, headers: { accept: '*/*' }, signal }),
};

// Each list waits for the organization to be known (partner and system callers name it in the query) so no
// request goes out for "no organization".

export function useRules(org: PolicyOrg) {
  return useApiQuery(org.orgId ? pamPolicyKeys.rules(org) : null, () =>
    call('GET /pam/rules', { query: org.query }),
  );
}

export function useSignerGroups(org: PolicyOrg) {
  return useApiQuery(org.orgId ? pamPolicyKeys.signerGroups(org) : null, () =>
    call('GET /pam/signer-groups', { query: org.query }),
  );
}

export function usePamConfig(org: PolicyOrg) {
  return useApiQuery(org.orgId ? pamPolicyKeys.config(org) : null, () =>
    call('GET /pam/config', { query: org.query }),
  );
}

export function useRule(id: string | null) {
  return useApiQuery(id ? pamPolicyKeys.rule(id) : null, () =>
    call('GET /pam/rules/:id', { params: { id: id ?? '' } }),
  );
}

/** The request a new rule is built from (null: none). */
export function useElevationRequest(id: string | null) {
  return useApiQuery(id ? pamPolicyKeys.request(id) : null, () =>
    call('GET /pam/elevation-requests/:id', { params: { id: id ?? '' } }),
  );
}

/** The partner whose step-up policy is shown (null: none to show). */
export function usePolicyPartner(partner: PolicyPartner | null) {
  return useApiQuery(partner === null ? null : pamPolicyKeys.partner(partner), () =>
    pamPolicyApi.partner(partner ?? 'me'),
  );
}

/**
 * The AI tools this server build knows (empty until loaded, or when the server cannot say). The catalog is fixed
 * by the server build, so one answer serves the whole console session; a refusal is such an answer too, while a
 * transient failure (server error, unreachable) is asked again by the next screen that needs the catalog.
 */
export function useAiTools(): AiToolCatalogEntry[] {
  const tools = useQuery({
    queryKey: pamPolicyKeys.aiTools,
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
