import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import type {
  ApproverDeviceList,
  ApproverDeviceRegistered,
  ApproverDeviceRegistrationOptions,
  AssertionChallengeResponse,
} from '../../contract';
import type { AppContext } from '../../context';
import { PERMISSIONS } from '../../http/permissions';
import { defineRoute, type AnyRoute } from '../../http/route';
import { auditCaller } from '../audit';
import { requireUser } from '../../http/account';
import { HttpError } from '../../http/errors';
import { checkReauth } from './step-up';
import { actuate, mobileApprove, respond, revoke } from './decisions';
import { INGEST_BODY_LIMIT, ingestElevationRequest } from './ingest';
import { activeElevations, listRequests, requestDetail, requireRequest, similarRequests } from './requests';
import { bulkRespond } from './bulk';
import {
  activeQuery,
  actuateBody,
  actuateParams,
  agentIdParams,
  bulkRespondBody,
  idParams,
  ingestBody,
  listQuery,
  registerDeviceBody,
  respondBody,
  revokeBody,
} from './schemas';
import {
  assertionOptions,
  listApproverDevices,
  registerApproverDevice,
  registrationOptions,
  removeApproverDevice,
} from './webauthn';

// Elevation requests (spec 2 Privileged access; DESIGN §5): agent ingest, reads, decisions with the step-up,
// revoke, actuation, the mobile inbox approve and the caller's approver devices. Rules, signer groups and the
// organization configuration are in policy/routes.ts; the audit export in audit-export/routes.ts.

const TAG = 'pam';
const NOT_FOUND = { 404: 'Elevation request not found' };

export function pamRoutes(ctx: AppContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/agents/:agentId/elevation-requests',
      tag: TAG,
      summary:
        'Agent report of an elevation prompt: decided at once by rules or the organization default, or left pending for a technician; `ignore` rules create no row (200)',
      auth: 'agent',
      params: agentIdParams,
      body: ingestBody,
      bodyLimit: INGEST_BODY_LIMIT,
      status: 201,
      responses: {
        401: 'Missing or invalid agent credentials',
        403: 'Partner inactive or device decommissioned',
        404: 'Agent not found',
        413: 'Body over 32 KB',
        429: 'More than about 10 reports per second from this device',
      },
      handler: ({ res, auth, body }) => {
        const answer = ingestElevationRequest(ctx, auth, body);
        res.status(answer.status).json(answer.body);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/pam/elevation-requests',
      tag: TAG,
      summary:
        'Elevation requests in scope; Gatehouse extensions: filters `orgId`, `riskLevel` (comma list), `user` and `device` (hostname) contain, search `q`, and `order` (`risk`: critical first then longest waiting, the default for `status=pending`; else `newest`; or `oldest`); each names its organization and site; limit max 100',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_READ,
      query: listQuery,
      handler: ({ auth, query }) => listRequests(ctx, auth, query),
    }),
    defineRoute({
      method: 'get',
      path: '/pam/elevation-requests/:id',
      tag: TAG,
      summary:
        'Gatehouse extension: one request with its event timeline, earlier requests for the same executable, the caller’s approval slot and what approving needs',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_READ,
      params: idParams,
      responses: NOT_FOUND,
      handler: ({ auth, params }) => requestDetail(ctx, auth, params.id),
    }),
    defineRoute({
      method: 'get',
      path: '/pam/elevation-requests/:id/similar',
      tag: TAG,
      summary:
        'Gatehouse extension: the other pending requests in scope for the same executable hash and signer, critical first then longest waiting, each with what approving it needs (at most 100, with the total)',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_READ,
      params: idParams,
      responses: NOT_FOUND,
      handler: ({ auth, params }) => similarRequests(ctx, auth, params.id),
    }),
    defineRoute({
      method: 'post',
      path: '/pam/elevation-requests/bulk-respond',
      tag: TAG,
      summary:
        'Gatehouse extension: approve or deny up to 100 pending requests, each decided on its own exactly as by respond (its own step-up, `proof` per item, audit entry and push); a request decided meanwhile is skipped and reported; a wrong re-authentication stops the rest. Denying needs a reason',
      auth: 'user_or_key',
      permission: PERMISSIONS.PAM_APPROVE,
      mfa: true,
      body: bulkRespondBody,
      handler: ({ req, auth, body }) => bulkRespond(ctx, req, auth, body),
    }),
    defineRoute({
      method: 'post',
      path: '/pam/elevation-requests/:id/assertion-challenge',
      tag: TAG,
      summary:
        'A 120-second platform-authenticator challenge bound to this request and caller; allowCredentials lists the caller’s approver devices (none: plain session approval)',
      auth: 'user',
      permission: [PERMISSIONS.PAM_APPROVE, PERMISSIONS.DEVICES_EXECUTE],
      params: idParams,
      responses: { ...NOT_FOUND, 403: 'Access to this site denied' },
      handler: async ({ auth, params }): Promise<AssertionChallengeResponse> => {
        requireRequest(ctx, auth, params.id, 'write');
        return { success: true, options: await assertionOptions(ctx, auth.userId, params.id) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/pam/elevation-requests/:id/respond',
      tag: TAG,
      summary:
        'Approve or deny a pending request (first decision wins); `proof` is the assertion for the challenge, critical approvals need `reauthPassword` (or `reauthMfaCode`)',
      auth: 'user_or_key',
      permission: PERMISSIONS.PAM_APPROVE,
      mfa: true,
      params: idParams,
      body: respondBody,
      responses: {
        ...NOT_FOUND,
        401: 'assertion_failed, reauth_required or reauth_failed',
        403: 'step_up_required (with requiredLevel), self_approval_forbidden, site access denied',
        409: 'No longer pending, or AI_EXECUTION_TIMED_OUT',
      },
      handler: ({ req, auth, params, body }) => respond(ctx, req, auth, params.id, body),
    }),
    defineRoute({
      method: 'post',
      path: '/pam/elevation-requests/:id/revoke',
      tag: TAG,
      summary: 'Revoke an approved, auto-approved or actuating elevation; the agent is told to clean up',
      auth: 'user_or_key',
      permission: PERMISSIONS.PAM_APPROVE,
      mfa: true,
      params: idParams,
      body: revokeBody,
      responses: { ...NOT_FOUND, 409: 'Elevation is not active' },
      handler: ({ req, auth, params, body }) => revoke(ctx, req, auth, params.id, body.reason),
    }),
    defineRoute({
      method: 'get',
      path: '/pam/active',
      tag: TAG,
      summary: 'Up to 500 approved, auto-approved or actuating elevations whose window has not ended',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_READ,
      query: activeQuery,
      handler: ({ auth, query }) => activeElevations(ctx, auth, query.orgId),
    }),
    defineRoute({
      method: 'post',
      path: '/devices/:id/actuate-elevation',
      tag: TAG,
      summary:
        'Send an approved elevation to its device (single use): approved -> actuating with the agent command queued in the same transaction',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_EXECUTE,
      mfa: true,
      params: actuateParams,
      body: actuateBody,
      status: 201,
      responses: {
        403: 'PAM_ACTUATOR_DISABLED or site access denied',
        404: 'Device or elevation request not found',
        409: 'wrong_status (not approved) or RACE_LOST (already claimed)',
      },
      handler: ({ req, auth, params, body }) => actuate(ctx, req, auth, params.id, body),
    }),
    defineRoute({
      method: 'post',
      path: '/mobile/approvals/:id/approve',
      tag: TAG,
      summary:
        'Approvals inbox: approve the request with this id as the caller (session assurance); a refused approve returns enforcementStatus refused and the reason next to the decided approval',
      auth: 'user',
      permission: PERMISSIONS.PAM_APPROVE,
      mfa: true,
      params: idParams,
      responses: { ...NOT_FOUND, 409: 'No longer pending' },
      handler: ({ req, auth, params }) => mobileApprove(ctx, req, auth, params.id),
    }),
    defineRoute({
      method: 'get',
      path: '/pam/approver-devices',
      tag: TAG,
      summary: 'The caller’s approver devices (platform authenticators registered for approvals)',
      auth: 'user',
      handler: ({ auth }): ApproverDeviceList => ({
        success: true,
        devices: listApproverDevices(ctx, auth.userId),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/pam/approver-devices/registration-options',
      tag: TAG,
      summary:
        'WebAuthn registration options for a platform authenticator with user verification required, excluding the caller’s registered ones',
      auth: 'user',
      mfa: true,
      handler: async ({ auth }): Promise<ApproverDeviceRegistrationOptions> => {
        const user = requireUser(ctx, auth.userId);
        return { success: true, options: await registrationOptions(ctx, user) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/pam/approver-devices',
      tag: TAG,
      summary:
        'Register this computer as an approver device from the authenticator’s registration response, with the password (or an MFA code) again',
      auth: 'user',
      mfa: true,
      body: registerDeviceBody,
      status: 201,
      responses: {
        400: 'Challenge expired or registration not verified',
        401: 'reauth_required or reauth_failed: the password (or an MFA code) again',
        409: 'Already registered',
      },
      handler: async ({ req, auth, body }): Promise<ApproverDeviceRegistered> => {
        // A stolen session alone must not be able to add an authenticator that then proves presence (L2).
        const user = requireUser(ctx, auth.userId);
        if (!(await checkReauth(ctx, req, user, body))) {
          throw new HttpError(
            401,
            user.password_hash
              ? 'Registering an approver device needs your password again'
              : 'Registering an approver device needs a fresh MFA code',
            'reauth_required',
          );
        }
        const device = await registerApproverDevice(
          ctx,
          auth.userId,
          body.name,
          body.response as unknown as RegistrationResponseJSON,
        );
        auditCaller(ctx, req, auth, {
          orgId: auth.orgId,
          partnerId: auth.partnerId,
          action: 'pam.approver_device.register',
          resourceType: 'approver_device',
          resourceId: device.id,
          resourceName: device.name,
          details: { deviceType: device.deviceType, backedUp: device.backedUp },
        });
        return { success: true, device };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/pam/approver-devices/:id',
      tag: TAG,
      summary: 'Remove one of the caller’s approver devices',
      auth: 'user',
      mfa: true,
      params: idParams,
      responses: { 404: 'Approver device not found' },
      handler: ({ req, auth, params }): { success: true } => {
        const device = removeApproverDevice(ctx, auth.userId, params.id);
        auditCaller(ctx, req, auth, {
          orgId: auth.orgId,
          partnerId: auth.partnerId,
          action: 'pam.approver_device.remove',
          resourceType: 'approver_device',
          resourceId: device.id,
          resourceName: device.name,
        });
        return { success: true };
      },
    }),
  ];
}
