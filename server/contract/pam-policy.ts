import type { ElevationFlowType, ElevationStatus } from './pam';

// PAM policy (spec 2 "PAM rule", "Signer group", "PAM organization configuration"): the rules that decide elevation
// requests, the signer groups they name, an organization's configuration and the AI tool catalog. Field names are
// the spec's.

/** Limits of PAM policy (rules and signer groups) that the console checks before it sends. */
export const PAM_POLICY_LIMITS = {
  /** A rule's or signer group's name, in characters. */
  name: 255,
  /** A signer group's description, in characters. */
  description: 2000,
  /** Signers in one signer group. */
  signers: 500,
  /** A rule's priority lies between minus this and this. */
  priority: 1_000_000,
  /** The longest approval a rule grants, in minutes. */
  grantMinutes: 1440,
} as const;

export type PamVerdict = 'auto_approve' | 'auto_deny' | 'require_approval' | 'ignore';
export const NEGATABLE_CRITERIA = [
  'signer',
  'signerGroup',
  'hash',
  'pathGlob',
  'parentImage',
  'commandLine',
  'user',
  'adGroup',
  'toolName',
  'riskTier',
] as const;
export type NegatableCriterion = (typeof NEGATABLE_CRITERIA)[number];

export interface PamTimeWindow {
  /** HH:MM, 24 hour. A window whose end is before its start runs over midnight. */
  start: string;
  end: string;
  /** 0-6, Sunday to Saturday; all days when absent. */
  days?: number[];
  /** IANA time zone; UTC when absent. */
  timezone?: string;
}

export interface PamRule {
  id: string;
  orgId: string;
  siteId: string | null;
  name: string;
  verdict: PamVerdict;
  suspendedVerdict: PamVerdict | null;
  priority: number;
  enabled: boolean;
  matchSigner: string | null;
  matchSignerGroupId: string | null;
  matchSignerThumbprint: string | null;
  matchHash: string | null;
  matchPathGlob: string | null;
  matchParentImage: string | null;
  matchCommandLine: string | null;
  matchUser: string | null;
  matchAdGroup: string | null;
  matchToolName: string | null;
  matchRiskTier: number | null;
  matchNegate: NegatableCriterion[] | null;
  timeWindow: PamTimeWindow | null;
  approvalDurationMinutes: number | null;
  reapprovedAt: string | null;
  reapprovedByUserId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The criterion fields of a rule: what the matcher reads and what a preview sends. */
export type PamRuleCriteria = Pick<
  PamRule,
  | 'matchSigner'
  | 'matchSignerGroupId'
  | 'matchSignerThumbprint'
  | 'matchHash'
  | 'matchPathGlob'
  | 'matchParentImage'
  | 'matchCommandLine'
  | 'matchUser'
  | 'matchAdGroup'
  | 'matchToolName'
  | 'matchRiskTier'
  | 'matchNegate'
  | 'timeWindow'
>;

/** A row of `GET /pam/rules`. */
export interface PamRuleListRow extends PamRule {
  /** The rule pins a risk tier its tool can no longer reach in this server build. */
  matchRiskTierStale: boolean;
  matchRiskTierValidTiers: number[] | null;
}

export interface PamRuleList {
  success: true;
  rules: PamRuleListRow[];
}

export interface PamRuleResponse extends PamRule {
  success: true;
}

export interface PamRulePreview {
  success: true;
  totalMatched: number;
  totalScanned: number;
  windowDays: number;
  truncated: boolean;
  statusBreakdown: Partial<Record<ElevationStatus, number>>;
  sample: Array<{ id: string; requestedAt: string; flowType: ElevationFlowType; status: ElevationStatus }>;
}

export interface SignerGroup {
  id: string;
  orgId: string;
  name: string;
  description: string | null;
  signers: string[];
  createdAt: string;
  updatedAt: string;
}

export interface SignerGroupList {
  success: true;
  signerGroups: SignerGroup[];
}

/** The answer of a signer group create, update or delete: the group as written (as it was, for a delete). */
export interface SignerGroupResponse {
  success: true;
  signerGroup: SignerGroup;
}

export interface PamConfig {
  orgId: string;
  defaultUnmatchedVerdict: 'require_approval' | 'auto_deny';
  /** Gatehouse extension: the window of an approval when neither the rule nor the approver names one. */
  defaultApprovalDurationMinutes: number;
  /** Gatehouse extension: a kill switch; while off, approvals are recorded but never actuated. */
  actuatorEnabled: boolean;
}

export interface PamConfigResponse {
  success: true;
  config: PamConfig;
}

/** The AI tools this server build knows and the risk tiers each can carry (spec: tiers are set by the build). */
export interface AiToolCatalogEntry {
  toolName: string;
  description: string;
  tiers: number[];
}

/** `GET /pam/ai-tools`. */
export interface AiToolsResponse {
  success: true;
  tools: AiToolCatalogEntry[];
}
