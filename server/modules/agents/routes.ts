import type { Request } from 'express';
import type { AppContext } from '../../context';
import { defineRoute, type AnyRoute } from '../../http/route';
import { authenticateAgent, type AgentAccess } from './auth';
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
import { enroll, heartbeat, replaceSoftware, submitDiagnosticLogs, submitEventLogs } from './service';

// The agent protocol over HTTP (DESIGN §3; spec 2 log submission). These routes are `public` to the user/API-key
// authenticator: agents carry their own bearer credential, checked here against the device's stored hash.

const AGENT_ERRORS = {
  401: 'Missing or invalid agent credentials, or credentials severed (partner churned)',
  403: 'Partner inactive (PARTNER_INACTIVE) or device decommissioned (DEVICE_DECOMMISSIONED)',
  404: 'Agent not found',
};

export function agentRoutes(ctx: AppContext): AnyRoute[] {
  const agent = (req: Request, agentId: string, access: AgentAccess) =>
    authenticateAgent(ctx.db, agentId, req.get('authorization'), access);

  return [
    defineRoute({
      method: 'post',
      path: '/agents/enroll',
      tag: 'agents',
      summary:
        'Enroll a device with an enrollment key (and the server enrollment secret when configured); returns the agent credential once',
      auth: 'public',
      body: enrollBody,
      status: 201,
      responses: {
        401: 'Invalid enrollment key (reason enrollment_key_not_found | enrollment_key_expired | enrollment_key_exhausted)',
        403: 'Invalid enrollment secret, PARTNER_INACTIVE or DEVICE_LIMIT_REACHED',
        429: 'Too many enrollment attempts',
      },
      handler: ({ req, body }) => enroll(ctx, req, body),
    }),
    defineRoute({
      method: 'post',
      path: '/agents/:agentId/heartbeat',
      tag: 'agents',
      summary:
        'Agent heartbeat: status, metrics, last user, posture; claims pending commands and may offer upgradeTo',
      auth: 'public',
      params: agentIdParams,
      body: heartbeatBody,
      responses: AGENT_ERRORS,
      handler: ({ req, params, body }) => heartbeat(ctx, req, agent(req, params.agentId, 'heartbeat'), body),
    }),
    defineRoute({
      method: 'put',
      path: '/agents/:agentId/software',
      tag: 'agents',
      summary:
        'Gatehouse extension: the agent reports its installed software (up to 5000 entries), replacing the previous report; saved filters on software.installed read it',
      auth: 'public',
      params: agentIdParams,
      body: softwareBody,
      responses: AGENT_ERRORS,
      handler: ({ req, params, body }) => replaceSoftware(ctx, agent(req, params.agentId, 'full'), body),
    }),
    defineRoute({
      method: 'post',
      path: '/agents/:agentId/commands/:commandId/result',
      tag: 'agents',
      summary:
        "The result of one of the agent's commands; repeating a result for a finished command changes nothing",
      auth: 'public',
      params: commandParams,
      body: commandResultBody,
      responses: { ...AGENT_ERRORS, 404: 'Agent not found, or the command is not one of this agent' },
      handler: ({ req, params, body }) =>
        recordCommandResult(ctx, agent(req, params.agentId, 'result').device, params.commandId, body),
    }),
    defineRoute({
      method: 'post',
      path: '/agents/:agentId/logs',
      tag: 'agents',
      summary: 'Agent diagnostic logs: at most 500 entries per request, stored in groups of 100',
      auth: 'public',
      params: agentIdParams,
      body: diagnosticLogsBody,
      status: 201,
      responses: AGENT_ERRORS,
      handler: ({ req, params, body }) => submitDiagnosticLogs(ctx, agent(req, params.agentId, 'full'), body),
    }),
    defineRoute({
      method: 'put',
      path: '/agents/:agentId/eventlogs',
      tag: 'agents',
      summary:
        'Device event logs: at most 1000 events per request; duplicates per (device, source, eventId) are ignored; count = events accepted',
      auth: 'public',
      params: agentIdParams,
      body: eventLogsBody,
      responses: AGENT_ERRORS,
      handler: ({ req, params, body }) => submitEventLogs(ctx, req, agent(req, params.agentId, 'full'), body),
    }),
  ];
}
