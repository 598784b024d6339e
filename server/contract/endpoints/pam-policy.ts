import type { ElevationEventType, ElevationFlowType } from '../pam';
import type {
  AiToolsResponse,
  PamConfig,
  PamConfigResponse,
  PamRule,
  PamRuleCriteria,
  PamRuleList,
  PamRulePreview,
  PamRuleResponse,
  SignerGroupList,
  SignerGroupResponse,
} from '../pam-policy';
import type { Endpoint, StreamedFile } from './endpoint';

// PAM policy (spec 2 "Privileged access": rules, signer groups, the organization's configuration) and the
// partner's approval step-up policy, which lives in the partner's settings. Partner and system callers name the
// organization: `orgId` in the query of a read, in the body of a write.

export interface PamOrgQuery {
  orgId?: string;
}

/** What a rule save sends: the criteria and the rest of the rule's writable fields. */
export type PamRuleBody = PamRuleCriteria &
  Pick<PamRule, 'name' | 'verdict' | 'priority' | 'enabled' | 'siteId' | 'approvalDurationMinutes'>;

/** What a rule's PATCH may carry: changed fields, or the re-approval of a suspended verdict. */
export type PamRulePatch = Partial<PamRuleBody> | { reapprove: true };

/** The criteria as the rule would store them, with what the preview needs to count their matches. */
export type PamRulePreviewBody = PamRuleCriteria & {
  orgId?: string;
  windowDays: number;
  verdict: PamRule['verdict'];
  siteId?: string;
  /** Only a tool-shaped rule is limited to tool actions. */
  flowType?: ElevationFlowType;
};

/** A new signer group, or the changed fields of one. */
export interface SignerGroupBody {
  name: string;
  description: string | null;
  signers: string[];
}

export type PamConfigBody = Omit<PamConfig, 'orgId'> & { orgId?: string };

/** The step-up policy stored under the partner's `settings.security.approvalStepUp`. */
export interface StepUpPolicy {
  mode: 'off' | 'grace' | 'enforce';
  floors: Record<'low' | 'medium' | 'high' | 'critical', 1 | 2 | 3>;
}

/** The partner settings patch that sets the step-up policy (settings are merged key by key). */
export interface StepUpPartnerPatch {
  settings: { security: { approvalStepUp: StepUpPolicy } };
}

/** One page of the elevation audit export (CSV or JSONL); the next page is asked for with the last one's cursor. */
export interface ElevationExportQuery {
  from: string;
  to: string;
  format: 'csv' | 'jsonl';
  limit: number;
  orgId?: string;
  siteId?: string;
  deviceId?: string;
  elevationRequestId?: string;
  eventType?: ElevationEventType;
  cursor?: string;
}

export interface PamPolicyEndpoints {
  'GET /pam/elevation-audit/export': Endpoint<StreamedFile, undefined, ElevationExportQuery>;
  'GET /pam/rules': Endpoint<PamRuleList, undefined, PamOrgQuery>;
  'POST /pam/rules': Endpoint<PamRuleResponse, PamRuleBody & { orgId?: string }>;
  'POST /pam/rules/preview': Endpoint<PamRulePreview, PamRulePreviewBody>;
  'GET /pam/rules/:id': Endpoint<PamRuleResponse>;
  'PATCH /pam/rules/:id': Endpoint<PamRuleResponse, PamRulePatch>;
  'DELETE /pam/rules/:id': Endpoint<PamRuleResponse>;
  'GET /pam/signer-groups': Endpoint<SignerGroupList, undefined, PamOrgQuery>;
  'POST /pam/signer-groups': Endpoint<SignerGroupResponse, SignerGroupBody & { orgId?: string }>;
  'PATCH /pam/signer-groups/:id': Endpoint<SignerGroupResponse, SignerGroupBody>;
  'DELETE /pam/signer-groups/:id': Endpoint<SignerGroupResponse>;
  'GET /pam/config': Endpoint<PamConfigResponse, undefined, PamOrgQuery>;
  'PUT /pam/config': Endpoint<PamConfigResponse, PamConfigBody>;
  'GET /pam/ai-tools': Endpoint<AiToolsResponse>;
}
