import type { Request } from 'express';
import { transaction } from '../../db/after-commit';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { AppContext } from '../../context';
import type {
  ActuateResponse,
  AssuranceLevel,
  AssuranceMethod,
  MobileApproveResponse,
  RespondResponse,
  RevokeResponse,
} from '../../contract';
import type { AuthContext } from '../../http/auth-context';
import { conflict, forbidden, HttpError, notFound } from '../../http/errors';
import { assertPermission, PERMISSIONS } from '../../http/permissions';
import { auditCaller } from '../audit';
import { requireDevice } from '../devices';
import type { UserRow } from '../users';
import {
  ACTUATOR_DISABLED,
  cancelUndeliveredActuation,
  queueActuation,
  queueCleanup,
  refusalOf,
} from './actuation';
import { settleApprovalSlots } from './approval-store';
import { isSubject } from './approvers';
import { pamConfigFor } from './config-store';
import { expirePending } from './enforcement';
import { logEvent, publish, userActor } from './events';
import { requireRequest, REQUEST_NOT_FOUND } from './requests';
import type { RespondBody } from './schemas';
import {
  assurance,
  AUTOMATED_ASSURANCE,
  automationCannotApproveCritical,
  checkReauth,
  sharedReauthDetails,
  stepUpPolicyFor,
  type SharedReauth,
} from './step-up';
import { approvalOf, linkCommand, requestRow, transition, type ElevationRow } from './store';
import { verifyApprovalProof } from './webauthn';
import { userById } from '../users';

// Deciding, revoking and actuating elevation requests (spec 2 state table; DESIGN §5). Every change is a
// compare-and-swap on the request's status inside a transaction that also writes its event log, so of two
// technicians approving at once exactly one wins and the other gets 409.

export const NOT_PENDING = 'Elevation request is no longer pending';

function callerName(ctx: AppContext, auth: AuthContext): string {
  return auth.kind === 'user' ? (userById(ctx.db, auth.userId)?.name ?? auth.email) : auth.keyName;
}

const callerId = (auth: AuthContext) => (auth.kind === 'user' ? auth.userId : auth.apiKeyId);

/** Audit details naming the API key behind an automated change (its id is the audit actor). */
const automationDetails = (auth: AuthContext) =>
  auth.kind === 'api_key' ? { automated: true, apiKeyName: auth.keyName } : {};

interface Assurance {
  level: AssuranceLevel;
  method: AssuranceMethod;
  deviceId: string | null;
  flagged: boolean;
  /** The re-authentication of a set this decision used (bulk, decide similar); null when its own or none. */
  shared: SharedReauth | null;
}

/**
 * The step-up checks of a decision: their own request, the proof, the re-authentication a critical approve
 * needs, then the partner's floor. The proof comes before anything else can fail, so every attempt that carries
 * one spends its challenge: a captured assertion cannot be replayed across password guesses or retries. A deny
 * is never blocked, but a proof sent with one is still verified (and recorded).
 */
async function stepUp(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  user: UserRow | null,
  row: ElevationRow,
  body: RespondBody,
  shared: SharedReauth | null,
): Promise<Assurance> {
  const approving = body.decision === 'approve';
  if (approving && user && isSubject(user.email, row.subject_username)) {
    throw forbidden('You cannot approve your own elevation request', 'self_approval_forbidden');
  }
  let device: { deviceId: string } | null = null;
  if (body.proof) {
    if (auth.kind !== 'user') {
      throw new HttpError(
        401,
        'Step-up proof could not be verified: API keys have no approver devices',
        'assertion_failed',
      );
    }
    device = await verifyApprovalProof(
      ctx,
      auth.userId,
      row.id,
      body.proof as unknown as AuthenticationResponseJSON,
    );
  }
  const automated = auth.kind === 'api_key';
  if (approving && automated && row.risk_level === 'critical') throw automationCannotApproveCritical();
  // A deny is never blocked: re-authentication is only checked (and only counted) when approving. A set's shared
  // one counts only for the requests it was checked for.
  const usesShared = approving && shared !== null && shared.requestIds.has(row.id);
  const reauthenticated =
    usesShared || (approving && user !== null && (await checkReauth(ctx, req, user, body)));
  if (approving && row.risk_level === 'critical' && !reauthenticated) {
    throw new HttpError(
      401,
      user?.password_hash
        ? 'Critical requests need your password again'
        : 'Critical requests need a fresh MFA code',
      'reauth_required',
    );
  }
  const { level, method } = automated ? AUTOMATED_ASSURANCE : assurance(device !== null, reauthenticated);
  const policy = stepUpPolicyFor(ctx, row.org_id);
  const requiredLevel = policy.floors[row.risk_level];
  const below = approving && policy.mode !== 'off' && level < requiredLevel;
  if (below && policy.mode === 'enforce') {
    throw forbidden(
      automated
        ? `This ${row.risk_level}-risk request needs assurance level ${requiredLevel}; an API key's approval has level 0 (automation) and the partner enforces step-up`
        : `This ${row.risk_level}-risk request needs assurance level ${requiredLevel}; your approval has level ${level}`,
      'step_up_required',
      { requiredLevel, level },
    );
  }
  return {
    level,
    method,
    deviceId: device?.deviceId ?? null,
    flagged: below,
    shared: usesShared ? shared : null,
  };
}

/** Expires a pending request that can no longer be decided, ahead of the expiry sweep, and says why. */
function expireUndecidable(ctx: AppContext, row: ElevationRow, reason: string): void {
  transaction(ctx.db, () => expirePending(ctx, row, reason));
}

/**
 * A pending request is decidable while nobody is done waiting for it: the linked AI session (409
 * AI_EXECUTION_TIMED_OUT) and the pending window of PAM_PENDING_TTL_MINUTES (409, as if the sweep had run).
 */
function assertStillDecidable(ctx: AppContext, row: ElevationRow): void {
  if (row.action_expires_at && Date.parse(row.action_expires_at) <= Date.now()) {
    expireUndecidable(ctx, row, 'AI tool execution timed out');
    throw conflict('Linked AI tool execution already timed out', 'AI_EXECUTION_TIMED_OUT');
  }
  if (Date.parse(row.requested_at) <= Date.now() - ctx.config.pamPendingTtlMinutes * 60_000) {
    expireUndecidable(ctx, row, 'Nobody decided in time');
    throw conflict(NOT_PENDING, 'NOT_PENDING');
  }
}

export async function respond(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  id: string,
  body: RespondBody,
  /** Given by a decision on a set (bulk.ts): the re-authentication already checked for all of it. */
  shared: SharedReauth | null = null,
): Promise<RespondResponse> {
  const row = requireRequest(ctx, auth, id, 'write');
  if (row.status !== 'pending') throw conflict(NOT_PENDING, 'NOT_PENDING');
  assertStillDecidable(ctx, row);
  const user = auth.kind === 'user' ? (userById(ctx.db, auth.userId) ?? null) : null;
  const proof = await stepUp(ctx, req, auth, user, row, body, shared);

  const approving = body.decision === 'approve';
  const refusal = approving ? refusalOf(row) : null;
  const status = approving && !refusal ? 'approved' : 'denied';
  const name = callerName(ctx, auth);
  const now = new Date();
  const config = pamConfigFor(ctx.db, row.org_id);
  const duration =
    status === 'approved' ? (body.durationMinutes ?? config.defaultApprovalDurationMinutes) : null;
  const enforcement = status === 'approved' ? 'pending_dispatch' : refusal ? 'refused' : null;

  const won = transaction(ctx.db, () => {
    const changed = transition(ctx.db, row.id, ['pending'], {
      status,
      enforcement_status: enforcement,
      decision_source: 'human',
      decided_at: now.toISOString(),
      decided_by_user_id: callerId(auth),
      // A refused approve keeps its approver (spec 2); the refusal reason tells it apart from a denial.
      approved_by_name: approving ? name : null,
      denied_by_name: approving ? null : name,
      decision_reason: body.reason ?? null,
      refusal_reason: refusal,
      duration_minutes: duration,
      expires_at: duration ? new Date(now.getTime() + duration * 60_000).toISOString() : null,
      assurance_level: proof.level,
      assurance_method: proof.method,
      assurance_device_id: proof.deviceId,
      assurance_flagged: proof.flagged ? 1 : 0,
    });
    if (!changed) return false;
    settleApprovalSlots(
      ctx.db,
      row.id,
      row.org_id,
      auth.kind === 'user'
        ? {
            userId: auth.userId,
            status: status === 'approved' ? 'approved' : 'denied',
            refusalReason: refusal,
          }
        : null,
    );
    logEvent(
      ctx.db,
      row.id,
      status === 'approved' ? 'elevation.approved' : 'elevation.denied',
      userActor(auth, name),
      {
        ...(body.reason ? { reason: body.reason } : {}),
        ...(refusal ? { refusalReason: refusal, enforcementStatus: 'refused' } : {}),
        assuranceLevel: proof.level,
        assuranceMethod: proof.method,
        ...(proof.deviceId ? { assuranceDeviceId: proof.deviceId } : {}),
        ...(proof.flagged ? { assuranceFlagged: true } : {}),
        ...(proof.shared ? sharedReauthDetails(proof.shared) : {}),
      },
    );
    publish(ctx, status === 'approved' ? 'elevation.approved' : 'elevation.denied', row.id);
    return true;
  });
  if (!won) throw conflict(NOT_PENDING, 'NOT_PENDING');
  auditCaller(ctx, req, auth, {
    orgId: row.org_id,
    action: approving ? 'pam.elevation_request.approve' : 'pam.elevation_request.deny',
    resourceType: 'elevation_request',
    resourceId: row.id,
    resourceName: row.target_executable_path ?? row.tool_name ?? row.device_hostname,
    result: refusal ? 'denied' : 'success',
    details: {
      deviceId: row.device_id,
      riskLevel: row.risk_level,
      assuranceLevel: proof.level,
      assuranceMethod: proof.method,
      assuranceDeviceId: proof.deviceId,
      assuranceFlagged: proof.flagged,
      ...(proof.shared ? sharedReauthDetails(proof.shared) : {}),
      ...(duration ? { durationMinutes: duration } : {}),
      ...(refusal ? { refusalReason: refusal } : {}),
      ...automationDetails(auth),
    },
  });
  return {
    success: true,
    id: row.id,
    status,
    enforcementStatus: enforcement,
    ...(refusal ? { reason: refusal } : {}),
    assuranceLevel: proof.level,
    assuranceMethod: proof.method,
    assuranceFlagged: proof.flagged,
  };
}

/** `POST /mobile/approvals/:id/approve`: the inbox's approve, answered with the caller's decided approval. */
export async function mobileApprove(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  id: string,
): Promise<MobileApproveResponse> {
  const result = await respond(ctx, req, auth, id, { decision: 'approve' });
  return { ...result, approval: auth.kind === 'user' ? approvalOf(ctx.db, id, auth.userId) : null };
}

const REVOCABLE = ['approved', 'auto_approved', 'actuating'] as const;

export function revoke(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  id: string,
  reason: string,
): RevokeResponse {
  const row = requireRequest(ctx, auth, id, 'write');
  const notActive = () => conflict('Elevation is not active', 'NOT_ACTIVE');
  if (!(REVOCABLE as readonly string[]).includes(row.status)) throw notActive();
  const name = callerName(ctx, auth);
  const won = transaction(ctx.db, () => {
    const changed = transition(ctx.db, row.id, REVOCABLE, {
      status: 'revoked',
      enforcement_status: 'cleanup_pending',
      revoked_at: new Date().toISOString(),
      revoked_by_user_id: callerId(auth),
      revoked_by_name: name,
      revoke_reason: reason,
    });
    if (!changed) return false;
    logEvent(ctx.db, row.id, 'elevation.revoked', userActor(auth, name), { reason });
    cancelUndeliveredActuation(ctx, row);
    const commandId = queueCleanup(ctx, row, 'revoked', callerId(auth));
    linkCommand(ctx.db, row.id, 'cleanup', commandId);
    publish(ctx, 'elevation.revoked', row.id);
    return true;
  });
  if (!won) throw notActive();
  auditCaller(ctx, req, auth, {
    orgId: row.org_id,
    action: 'pam.elevation_request.revoke',
    resourceType: 'elevation_request',
    resourceId: row.id,
    resourceName: row.target_executable_path ?? row.tool_name ?? row.device_hostname,
    details: { deviceId: row.device_id, reason, previousStatus: row.status, ...automationDetails(auth) },
  });
  return { success: true, id: row.id, status: 'revoked', enforcementStatus: 'cleanup_pending' };
}

/**
 * `POST /devices/:id/actuate-elevation`: approved -> actuating, once. The claim and the command are one
 * transaction, so a second caller finds the claim taken (`RACE_LOST`) and no second command is ever queued.
 */
export function actuate(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  deviceId: string,
  input: { elevationRequestId: string; timeoutMs: number },
): ActuateResponse {
  // The route asks devices:execute of everyone; a key also needs the explicit pam:approve scope, since
  // sending a grant to a device is part of deciding it.
  if (auth.kind === 'api_key') assertPermission(ctx.db, auth, PERMISSIONS.PAM_APPROVE);
  const device = requireDevice(ctx, auth, deviceId);
  const row = requireRequest(ctx, auth, input.elevationRequestId, 'write');
  if (row.device_id !== device.id) throw notFound(REQUEST_NOT_FOUND);
  if (!pamConfigFor(ctx.db, row.org_id).actuatorEnabled) {
    throw forbidden(ACTUATOR_DISABLED, 'PAM_ACTUATOR_DISABLED');
  }
  // An approval whose window ended is expired, whether or not the sweep has seen it yet.
  const status =
    row.status === 'approved' && row.expires_at && Date.parse(row.expires_at) <= Date.now()
      ? 'expired'
      : row.status;
  if (status !== 'approved') {
    throw new HttpError(409, `Elevation request is ${status}, not approved`, 'wrong_status', { status });
  }
  if (device.status === 'decommissioned')
    throw conflict('Device has been decommissioned', 'DEVICE_DECOMMISSIONED');
  const deadline = new Date(Date.now() + input.timeoutMs).toISOString();
  const commandId = transaction(ctx.db, () => {
    const claimed = transition(
      ctx.db,
      row.id,
      ['approved'],
      { status: 'actuating', enforcement_status: 'dispatched', actuation_deadline: deadline },
      'actuation_command_id IS NULL',
    );
    if (!claimed) return null;
    logEvent(ctx.db, row.id, 'elevation.actuating', userActor(auth, callerName(ctx, auth)));
    const fresh = requestRow(ctx.db, row.id)!;
    const id = queueActuation(ctx, fresh, fresh.expires_at!, callerId(auth));
    linkCommand(ctx.db, row.id, 'actuation', id);
    publish(ctx, 'elevation.actuating', row.id);
    return id;
  });
  if (!commandId) throw conflict('Elevation request was already claimed for actuation', 'RACE_LOST');
  auditCaller(ctx, req, auth, {
    orgId: row.org_id,
    action: 'pam.elevation_request.actuate',
    resourceType: 'elevation_request',
    resourceId: row.id,
    resourceName: row.target_executable_path ?? row.tool_name ?? row.device_hostname,
    details: { deviceId: row.device_id, commandId, ...automationDetails(auth) },
  });
  return { success: true, commandId, elevationRequestId: row.id };
}
