import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import type { OsType } from './devices';

// Privileged access (spec 2 "Elevation request", Privileged access endpoints; DESIGN §5 step-up): requests, their
// decisions and approver devices. The policy that decides them (rules, signer groups, configuration) is in
// pam-policy.ts. Field names are the spec's.

export type ElevationFlowType = 'uac_intercept' | 'tech_jit_admin' | 'ai_tool_action';
export type ElevationStatus =
  'pending' | 'approved' | 'auto_approved' | 'denied' | 'expired' | 'revoked' | 'actuating';
/**
 * Device-side actuation state: `pending_dispatch` (approved, not yet sent), `dispatched` (command sent, agent has
 * not confirmed), `active` (agent granted it), `failed` (agent could not), `cleanup_pending` (revoked or expired,
 * cleanup sent), `cleaned_up` (agent removed it), `refused` (the server refused the approve).
 */
export type EnforcementStatus =
  'pending_dispatch' | 'dispatched' | 'active' | 'failed' | 'cleanup_pending' | 'cleaned_up' | 'refused';
/** Spec 2: derived; null while pending and for a denial by the organization default (its reason says so). */
export type DecisionSource = 'software_policy' | 'pam_rule' | 'human';
export type RiskLevel = 'low' | 'medium' | 'high' | 'critical';
/**
 * DESIGN §5: 1 session only; 2 verified platform assertion bound to the request; 3 = 2 plus re-authentication.
 * 0 (method `automation`): an API key holding the explicit `pam:approve` scope decided; no person stands behind
 * it, so it is below every floor.
 */
export type AssuranceLevel = 0 | 1 | 2 | 3;
/** The levels a partner's step-up policy can require (a floor is never "automation"). */
export type StepUpFloor = Exclude<AssuranceLevel, 0>;
export type AssuranceMethod =
  'automation' | 'session' | 'session_reauth' | 'platform_authenticator' | 'platform_authenticator_reauth';

export interface ElevationRequest {
  id: string;
  orgId: string;
  deviceId: string;
  deviceHostname: string;
  /** Gatehouse extension: the organization's name, so a list names it without another read. */
  orgName: string;
  /** Gatehouse extension: the device's platform, so a prompt reads as it does there (UAC, sudo, admin prompt). */
  deviceOsType: OsType;
  siteId: string | null;
  siteName: string | null;
  flowType: ElevationFlowType;
  status: ElevationStatus;
  enforcementStatus: EnforcementStatus | null;
  riskLevel: RiskLevel;
  subjectUsername: string | null;
  subjectAdGroups: string[];
  targetExecutablePath: string | null;
  targetExecutableHash: string | null;
  targetExecutableSigner: string | null;
  targetSignerThumbprint: string | null;
  pid: number | null;
  parentImage: string | null;
  commandLine: string | null;
  observedAt: string | null;
  requestedAt: string;
  toolName: string | null;
  riskTier: number | null;
  actionDigest: string | null;
  decisionSource: DecisionSource | null;
  matchedPolicyName: string | null;
  pamRuleId: string | null;
  pamRuleName: string | null;
  durationMinutes: number | null;
  expiresAt: string | null;
  decidedAt: string | null;
  approvedByName: string | null;
  deniedByName: string | null;
  revokedByName: string | null;
  decisionReason: string | null;
  refusalReason: string | null;
  revokeReason: string | null;
  assuranceLevel: AssuranceLevel | null;
  assuranceMethod: AssuranceMethod | null;
  /** The approver device (WebAuthn credential) that signed the decision, when one did. */
  assuranceDeviceId: string | null;
  /** Approved below the partner's step-up floor under a `grace` policy. */
  assuranceFlagged: boolean;
}

export interface ElevationRequestList {
  success: true;
  requests: ElevationRequest[];
  pagination: { page: number; limit: number; total: number };
}

/** One state change of a request, as the audit export and the request view's timeline show it. */
export interface ElevationEvent {
  seq: number;
  id: string;
  elevationRequestId: string;
  eventType: ElevationEventType;
  status: ElevationStatus;
  enforcementStatus: EnforcementStatus | null;
  actorType: 'user' | 'api_key' | 'agent' | 'system';
  actorId: string | null;
  actorName: string | null;
  details: Record<string, unknown>;
  occurredAt: string;
}

/** The longest reason a decision (approve, deny, revoke) records, in characters. */
export const DECISION_REASON_MAX = 2000;

/** The longest name of an approver device (a WebAuthn platform credential), in characters. */
export const APPROVER_DEVICE_NAME_MAX = 100;

/** Spec 2 limits of the elevation audit export: 1-1000 rows a page, a window of at most 366 days. */
export const ELEVATION_EXPORT_LIMITS = { defaultLimit: 1000, maxLimit: 1000, maxWindowDays: 366 } as const;

/** `eventType` values of the elevation audit export (an unknown one is a 400). */
export const ELEVATION_EVENT_TYPES = [
  'elevation.requested',
  'elevation.auto_approved',
  'elevation.approved',
  'elevation.denied',
  'elevation.actuating',
  'elevation.enforcement_changed',
  'elevation.revoked',
  'elevation.expired',
] as const;
export type ElevationEventType = (typeof ELEVATION_EVENT_TYPES)[number];

/** `GET /pam/elevation-requests/:id` (Gatehouse extension): what a technician needs to decide. */
export interface ElevationRequestDetail {
  success: true;
  request: ElevationRequest;
  /** Earlier requests in the organization for the same executable (same hash, else same path), newest first. */
  history: ElevationRequest[];
  timeline: ElevationEvent[];
  /** The caller's own approval slot, when they were notified. */
  approval: ElevationApproval | null;
  /** What approving would need from the caller right now. */
  stepUp: StepUpRequirement;
}

export interface StepUpRequirement {
  riskLevel: RiskLevel;
  mode: 'off' | 'grace' | 'enforce';
  /** The partner floor for this risk. */
  requiredLevel: StepUpFloor;
  /** Critical requests need a fresh password (or MFA code for accounts without one). */
  reauthRequired: boolean;
  /** Which re-authentication the caller can give. */
  reauthMethod: 'password' | 'mfa_code' | null;
  /** The caller has at least one approver device. */
  hasApproverDevice: boolean;
  /** The caller is the subject of the request (they cannot approve it). */
  selfApproval: boolean;
}

export interface ElevationApproval {
  id: string;
  elevationRequestId: string;
  approverUserId: string;
  status: 'pending' | 'approved' | 'denied' | 'expired';
  decidedAt: string | null;
  refusalReason: string | null;
  createdAt: string;
}

export interface RespondResponse {
  success: true;
  id: string;
  status: ElevationStatus;
  enforcementStatus: EnforcementStatus | null;
  /** Present when the approve was refused. */
  reason?: string;
  assuranceLevel: AssuranceLevel;
  assuranceMethod: AssuranceMethod;
  assuranceFlagged: boolean;
}

/**
 * `GET /pam/elevation-requests/:id/similar` (Gatehouse extension): the other pending requests in the caller's
 * scope for the same file (executable hash) from the same signer, critical first then the longest waiting, each
 * with what approving it would need (step-up is per request). Empty when the request reported no hash.
 */
export interface SimilarRequests {
  success: true;
  items: Array<{ request: ElevationRequest; stepUp: StepUpRequirement }>;
  /** All that match; `items` holds at most 100 of them. */
  total: number;
}

/** One request's outcome in a bulk decision. */
export type BulkRespondResult =
  | ({ id: string; outcome: 'decided' } & Omit<RespondResponse, 'success' | 'id'>)
  /** Decided by someone else meanwhile, expired, or no longer visible: nothing was done to it. */
  | { id: string; outcome: 'skipped'; error: string; code?: string }
  /** Its own checks refused it (step-up, re-authentication, self-approval, site restriction). */
  | { id: string; outcome: 'failed'; status: number; error: string; code?: string; requiredLevel?: number };

/** `POST /pam/elevation-requests/bulk-respond` (Gatehouse extension): each request decided on its own. */
export interface BulkRespondResponse {
  success: true;
  decided: number;
  skipped: number;
  failed: number;
  /** In the order the request named them. */
  results: BulkRespondResult[];
}

export interface MobileApproveResponse extends RespondResponse {
  approval: ElevationApproval | null;
}

export interface RevokeResponse {
  success: true;
  id: string;
  status: 'revoked';
  enforcementStatus: 'cleanup_pending';
}

export interface ActuateResponse {
  success: true;
  commandId: string;
  elevationRequestId: string;
}

export interface ActiveElevations {
  success: true;
  active: ElevationRequest[];
}

/** `POST /agents/:id/elevation-requests` answers. */
export interface IngestResponse {
  id: string | null;
  status: 'pending' | 'auto_approved' | 'denied' | 'ignored';
  /** Gatehouse extension: when an auto-approved elevation ends, so the agent can actuate it on its own. */
  expiresAt?: string | null;
}

// ---- Approver devices (DESIGN §5) -----------------------------------------------------------------------------

export interface ApproverDevice {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  /** `singleDevice` or `multiDevice` (a synced passkey), as the authenticator reported. */
  deviceType: string | null;
  backedUp: boolean;
}

export interface ApproverDeviceList {
  success: true;
  devices: ApproverDevice[];
}

/** `POST /pam/approver-devices/registration-options`: what the browser's authenticator registers against. */
export interface ApproverDeviceRegistrationOptions {
  success: true;
  options: PublicKeyCredentialCreationOptionsJSON;
}

/** `POST /pam/approver-devices`: the device just registered. */
export interface ApproverDeviceRegistered {
  success: true;
  device: ApproverDevice;
}

/** `POST /pam/elevation-requests/:id/assertion-challenge`: the challenge for the caller's approver devices. */
export interface AssertionChallengeResponse {
  success: true;
  options: PublicKeyCredentialRequestOptionsJSON;
}
