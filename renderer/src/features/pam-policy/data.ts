import { useEffect, useState } from 'react';
import type {
  AiToolCatalogEntry,
  PamConfigResponse,
  PamRuleList,
  SignerGroupList,
} from '../../../../server/contract';
import { ApiError, api } from '../../lib/api/client';
import { useResource, type Resource } from '../../lib/resource';
import type { PolicyOrg } from './org';

// Reads shared by the policy screens. Each waits for the organization to be known (partner and system callers
// name it in the query) so no request goes out for "no organization".

export const RULES_FORBIDDEN = {
  title: 'Rules are not available to you',
  text: "Your account cannot read this organization's elevation rules.",
};

export function useRules(org: PolicyOrg): Resource<PamRuleList> {
  return useResource<PamRuleList>(org.orgId ? `/pam/rules${org.query}` : null);
}

export function useSignerGroups(org: PolicyOrg): Resource<SignerGroupList> {
  return useResource<SignerGroupList>(org.orgId ? `/pam/signer-groups${org.query}` : null);
}

export function usePamConfig(org: PolicyOrg): Resource<PamConfigResponse> {
  return useResource<PamConfigResponse>(org.orgId ? `/pam/config${org.query}` : null);
}

interface AiToolsResponse {
  success: true;
  tools: AiToolCatalogEntry[];
}

// The catalog is fixed by the server build: one fetch per console session is enough.
let toolsCache: Promise<AiToolCatalogEntry[]> | null = null;

/** The AI tools this server build knows (empty until loaded, or when the server cannot say). */
export function useAiTools(): AiToolCatalogEntry[] {
  const [tools, setTools] = useState<AiToolCatalogEntry[]>([]);
  useEffect(() => {
    let cancelled = false;
    toolsCache ??= api<AiToolsResponse>('/pam/ai-tools').then(
      (r) => r.tools,
      (err: unknown) => {
        // A transient failure should not stick for the whole session.
        if (!(err instanceof ApiError) || err.status >= 500 || err.status === 0) toolsCache = null;
        return [];
      },
    );
    void toolsCache.then((list) => {
      if (!cancelled) setTools(list);
    });
    return () => {
      cancelled = true;
    };
  }, []);
  return tools;
}
