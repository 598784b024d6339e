import type {
  ActiveElevations,
  ActuateResponse,
  ApproverDeviceList,
  ApproverDeviceRegistered,
  ApproverDeviceRegistrationOptions,
  AssertionChallengeResponse,
  BulkRespondResponse,
  ElevationFlowType,
  ElevationRequestDetail,
  ElevationRequestList,
  ElevationStatus,
  RespondResponse,
  RevokeResponse,
  SimilarRequests,
} from '../pam';
import type { Endpoint } from './endpoint';

// The Approvals section (spec 2 Privileged access; DESIGN §5): elevation requests, their decisions, actuation and
// the caller's approver devices.

/** `GET /pam/elevation-requests`, with Gatehouse's inbox extensions (filters, search and triage order). */
export interface ElevationRequestListQuery {
  status?: ElevationStatus;
  flowType?: ElevationFlowType;
  order?: 'risk' | 'newest' | 'oldest';
  limit: number;
  page?: number;
  q?: string;
  /** Comma-separated risk levels. */
  riskLevel?: string;
  orgId?: string;
  /** One device's requests (its history tab). */
  deviceId?: string;
  /** The device's hostname contains this. */
  device?: string;
  /** The user the request is for contains this. */
  user?: string;
}

/**
 * A WebAuthn ceremony's answer as @simplewebauthn's browser half gives it (an assertion or a registration): the
 * server reads these fields; the rest is the library's to check.
 */
export type WebAuthnResponseJSON = {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string };
};

export interface RespondBody {
  decision: 'approve' | 'deny';
  reason?: string;
  durationMinutes?: number;
  /** The assertion for this request's challenge. */
  proof?: WebAuthnResponseJSON;
  reauthPassword?: string;
  reauthMfaCode?: string;
}

/** One decision for several requests, each still decided on its own; `proof` is per request. */
export interface BulkRespondBody {
  decision: 'approve' | 'deny';
  reason?: string;
  durationMinutes?: number;
  reauthPassword?: string;
  reauthMfaCode?: string;
  items: Array<{ id: string; proof?: WebAuthnResponseJSON }>;
}

/** The password or the authenticator code that registering an approver device asks for again. */
export type ApproverDeviceReauth = { reauthPassword: string } | { reauthMfaCode: string };

export type RegisterApproverDeviceBody = {
  name: string;
  response: WebAuthnResponseJSON;
} & ApproverDeviceReauth;

export interface ApprovalEndpoints {
  'GET /pam/elevation-requests': Endpoint<ElevationRequestList, undefined, ElevationRequestListQuery>;
  'GET /pam/elevation-requests/:id': Endpoint<ElevationRequestDetail>;
  'GET /pam/elevation-requests/:id/similar': Endpoint<SimilarRequests>;
  'POST /pam/elevation-requests/bulk-respond': Endpoint<BulkRespondResponse, BulkRespondBody>;
  'POST /pam/elevation-requests/:id/assertion-challenge': Endpoint<AssertionChallengeResponse>;
  'POST /pam/elevation-requests/:id/respond': Endpoint<RespondResponse, RespondBody>;
  'POST /pam/elevation-requests/:id/revoke': Endpoint<RevokeResponse, { reason: string }>;
  'GET /pam/active': Endpoint<ActiveElevations>;
  'POST /devices/:id/actuate-elevation': Endpoint<ActuateResponse, { elevationRequestId: string }>;
  'GET /pam/approver-devices': Endpoint<ApproverDeviceList>;
  'POST /pam/approver-devices/registration-options': Endpoint<ApproverDeviceRegistrationOptions>;
  'POST /pam/approver-devices': Endpoint<ApproverDeviceRegistered, RegisterApproverDeviceBody>;
  'DELETE /pam/approver-devices/:id': Endpoint<{ success: true }>;
}
