import type { RequestHandler } from 'express';
import { safeEqual, sha256Hex } from '../../crypto';
import { HttpError, notFound, unauthorized } from '../../http/errors';
import { agentDeviceByAgentId, settleAgentCredential, type AgentDeviceRow } from './device-store';
import type { Db } from '../../db/connection';

// Agent authentication (DESIGN §3): `Authorization: Bearer <authToken>` on every agent endpoint, the device found
// by the agent id in the path, the token compared by its SHA-256. Then the tenant's state narrows what the agent
// may do (spec 1, Partner status):
// - partner `offboarding`: heartbeat (claiming only queued self_uninstall commands) and command results; the rest
//   403 PARTNER_INACTIVE; the WebSocket is refused;
// - partner `churned` or deleted, organization deleted: the credential is severed (401);
// - partner `pending` / `suspended`: 403 PARTNER_INACTIVE, like the partner guard does for users;
// - device decommissioned: heartbeat (to collect its self_uninstall) and command results only.

/** What the request wants to do; `heartbeat` and `result` survive offboarding and decommissioning. */
export type AgentAccess = 'full' | 'heartbeat' | 'result' | 'socket';

export interface AgentCaller {
  device: AgentDeviceRow;
  /** Offboarding partner or decommissioned device: only self_uninstall commands are handed out. */
  narrowed: boolean;
}

const INACTIVE_MESSAGES: Record<string, string> = {
  pending: 'Partner account is pending activation',
  suspended: 'Partner account is suspended',
  offboarding: 'Partner account is being offboarded',
};

declare module 'express-serve-static-core' {
  interface Request {
    /** The agent of an `auth: 'agent'` route, set before its body is read. */
    agent?: AgentCaller;
  }
}

export const AGENT_NOT_FOUND = 'Agent not found';
export const INVALID_AGENT_TOKEN = 'Invalid agent credentials';

export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

export function authenticateAgent(
  db: Db,
  agentId: string,
  authorization: string | undefined,
  access: AgentAccess,
): AgentCaller {
  const device = agentDeviceByAgentId(db, agentId);
  if (!device) throw notFound(AGENT_NOT_FOUND);
  const token = bearerToken(authorization);
  if (!token) throw unauthorized(INVALID_AGENT_TOKEN);
  const hash = sha256Hex(token);
  const current = safeEqual(hash, device.agent_token_hash);
  // Two enrollments of the install crossed (migration 0020): the credential used first is kept, the other dies.
  const waiting =
    !current && device.agent_token_prev_hash !== null && safeEqual(hash, device.agent_token_prev_hash);
  if (!current && !waiting) throw unauthorized(INVALID_AGENT_TOKEN);
  if (waiting || device.agent_token_fresh) {
    settleAgentCredential(db, device.id, hash);
    device.agent_token_hash = hash;
    device.agent_token_prev_hash = null;
    device.agent_token_fresh = 0;
  }
  if (device.tenant_deleted || device.partner_status === 'churned') {
    throw unauthorized('Agent credentials have been revoked');
  }
  const survivesNarrowing = access === 'heartbeat' || access === 'result';
  if (device.partner_status !== 'active') {
    if (device.partner_status !== 'offboarding' || !survivesNarrowing) {
      throw new HttpError(
        403,
        INACTIVE_MESSAGES[device.partner_status] ?? 'Partner account is not active',
        'PARTNER_INACTIVE',
      );
    }
  }
  if (device.status === 'decommissioned' && !survivesNarrowing) {
    throw new HttpError(403, 'Device has been decommissioned', 'DEVICE_DECOMMISSIONED');
  }
  return {
    device,
    narrowed: device.partner_status === 'offboarding' || device.status === 'decommissioned',
  };
}

/** Route middleware for `auth: 'agent'`: the credential is checked before the body is read (route.ts). */
export function agentAuthenticator(db: Db, access: AgentAccess): RequestHandler {
  return (req, _res, next) => {
    const agentId = req.params.agentId;
    if (typeof agentId !== 'string' || !agentId) throw notFound(AGENT_NOT_FOUND);
    req.agent = authenticateAgent(db, agentId, req.get('authorization'), access);
    next();
  };
}
