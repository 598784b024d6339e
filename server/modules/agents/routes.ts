import type { AppContext } from '../../context';
import { defineRoute, type AnyRoute } from '../../http/route';
import { recordCommandResult } from './commands';
import {
  agentIdParams,
  commandParams,
  commandResultBody,
  diagnosticLogsBody,
  enrollBody,
  eventLogsBody,
  heartbeatBody,
  softwareBody,
} from './schemas';
import { enroll } from './enroll';
import { heartbeat, replaceSoftware, submitDiagnosticLogs, submitEventLogs } from './service';

// The agent protocol over HTTP (DESIGN §3; spec 2 log submission). Enrollment is public; every other route is
// `auth: 'agent'`: the agent's bearer credential is checked against the device's stored hash before the body is
// read, and `agentAccess` says what an offboarding partner's or decommissioned device's agent may still do.

const AGENT_ERRORS = {
  401: 'Missing or invalid agent credentials, or credentials severed (partner churned)',
  403: 'Partner inactive (PARTNER_INACTIVE) or device decommissioned (DEVICE_DECOMMISSIONED)',
  404: 'Agent not found',
};

export function agentRoutes(ctx: AppContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/agents/enroll',
      tag: 'agents',
      summary:
        'Enroll a device with an enrollment key (and the server enrollment secret when configured); returns the agent credential once. Enrolling again with the same key and installId returns the same device with a new credential, without using the key again',
      auth: 'public',
      body: enrollBody,
      status: 201,
      responses: {
        401: 'Invalid enrollment key (reason enrollment_key_not_found | enrollment_key_expired | enrollment_key_exhausted)',
        403: 'Invalid enrollment secret, PARTNER_INACTIVE or DEVICE_LIMIT_REACHED',
        429: 'Too many enrollment attempts (Retry-After: when to come back, spread over a few seconds)',
      },
      handler: ({ req, body }) => enroll(ctx, req, body),
    }),
    defineRoute({
      method: 'post',
      path: '/agents/:agentId/heartbeat',
      tag: 'agents',
      summary:
        'Agent heartbeat: status, metrics, last user, posture; claims pending commands and may offer upgradeTo',
      auth: 'agent',
      agentAccess: 'heartbeat',
      params: agentIdParams,
      body: heartbeatBody,
      responses: AGENT_ERRORS,
      handler: ({ req, auth, body }) => heartbeat(ctx, req, auth, body),
    }),
    defineRoute({
      method: 'put',
      path: '/agents/:agentId/software',
      tag: 'agents',
      summary:
        'Gatehouse extension: the agent reports its installed software (up to 5000 entries), replacing the previous report; saved filters on software.installed read it',
      auth: 'agent',
      params: agentIdParams,
      body: softwareBody,
      responses: AGENT_ERRORS,
      handler: ({ auth, body }) => replaceSoftware(ctx, auth, body),
    }),
    defineRoute({
      method: 'post',
      path: '/agents/:agentId/commands/:commandId/result',
      tag: 'agents',
      summary:
        "The result of one of the agent's commands; repeating a result for a finished command changes nothing",
      auth: 'agent',
      agentAccess: 'result',
      params: commandParams,
      body: commandResultBody,
      responses: { ...AGENT_ERRORS, 404: 'Agent not found, or the command is not one of this agent' },
      handler: ({ auth, params, body }) => recordCommandResult(ctx, auth.device, params.commandId, body),
    }),
    defineRoute({
      method: 'post',
      path: '/agents/:agentId/logs',
      tag: 'agents',
      summary: 'Agent diagnostic logs: at most 500 entries per request, stored in groups of 100',
      auth: 'agent',
      params: agentIdParams,
      body: diagnosticLogsBody,
      status: 201,
      responses: AGENT_ERRORS,
      handler: ({ auth, body }) => submitDiagnosticLogs(ctx, auth, body),
    }),
    defineRoute({
      method: 'put',
      path: '/agents/:agentId/eventlogs',
      tag: 'agents',
      summary:
        'Device event logs: at most 1000 events per request; duplicates per (device, source, eventId) are ignored; count = events accepted',
      auth: 'agent',
      params: agentIdParams,
      body: eventLogsBody,
      responses: AGENT_ERRORS,
      handler: ({ req, auth, body }) => submitEventLogs(ctx, req, auth, body),
    }),
  ];
}
