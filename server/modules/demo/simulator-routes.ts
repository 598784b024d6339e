import { z } from 'zod';
import {
  SIMULATED_ELEVATION_KINDS,
  type SimulatorElevationResponse,
  type SimulatorStatus,
} from '../../contract';
import type { AppContext } from '../../context';
import type { UserAuth } from '../../http/auth-context';
import { forbidden } from '../../http/errors';
import { PERMISSIONS } from '../../http/permissions';
import { defineRoute, type AnyRoute } from '../../http/route';
import { requireFullPartnerAccess, requireOrgAccess } from '../../http/scope';
import { auditCaller } from '../audit';
import { MAX_SIMULATED_AGENTS } from '../../contract/demo';
import { demoSimulator, SIMULATOR_UNAVAILABLE } from './simulator';

// The console's simulator panel (demo mode only): status, start, stop, and "raise an elevation request" (one
// simulated agent reports a request of the chosen kind through the real agent endpoint, issue 5). Who may use it: platform administrators
// (system scope) and administrators of the demo partner with access to all of its organizations. Both need
// `devices:write` (the built-in technician role lacks it: technicians use the fleet, they do not spawn one);
// start and stop need an MFA session, like every other write that changes what a tenant's device list holds.
// Outside demo mode the status says `available: false` and start/stop answer 409 SIMULATOR_UNAVAILABLE.

const startBody = z.object({
  count: z.number().int().min(1).max(MAX_SIMULATED_AGENTS),
  orgId: z.uuid().optional(),
});

const raiseBody = z.object({
  orgId: z.uuid().optional(),
  kind: z.enum(SIMULATED_ELEVATION_KINDS, `kind must be one of ${SIMULATED_ELEVATION_KINDS.join(', ')}`),
});

const NOT_ALLOWED = 'The simulator is for platform administrators and demo partner administrators';

export function simulatorRoutes(ctx: AppContext): AnyRoute[] {
  const sim = demoSimulator(ctx);

  const requireCaller = (auth: UserAuth): void => {
    if (auth.scope === 'system') return;
    const demoPartner = sim.demoPartnerId();
    if (auth.scope !== 'partner' || !demoPartner || auth.partnerId !== demoPartner)
      throw forbidden(NOT_ALLOWED, 'SIMULATOR_FORBIDDEN');
    requireFullPartnerAccess(ctx.db, auth);
  };

  return [
    defineRoute({
      method: 'get',
      path: '/demo/simulator',
      tag: 'demo',
      summary: 'Demo simulator status: whether it is available (demo mode), running, and its fleet counters',
      auth: 'user',
      permission: PERMISSIONS.DEVICES_WRITE,
      responses: { 403: NOT_ALLOWED },
      handler: ({ auth }): SimulatorStatus => {
        requireCaller(auth);
        return sim.status();
      },
    }),
    defineRoute({
      method: 'post',
      path: '/demo/simulator/start',
      tag: 'demo',
      summary: `Start 1-${MAX_SIMULATED_AGENTS} simulated agents in a demo organization (default Contoso Dental); a running fleet is replaced`,
      auth: 'user',
      permission: PERMISSIONS.DEVICES_WRITE,
      mfa: true,
      body: startBody,
      responses: {
        403: NOT_ALLOWED,
        404: 'Organization not found (or not a demo organization)',
        409: 'The simulator runs only in demo mode (SIMULATOR_UNAVAILABLE)',
      },
      handler: async ({ req, auth, body }): Promise<SimulatorStatus> => {
        requireCaller(auth);
        if (!sim.available) throw SIMULATOR_UNAVAILABLE();
        if (body.orgId) requireOrgAccess(ctx.db, auth, body.orgId);
        const status = await sim.start({ count: body.count, orgId: body.orgId, startedBy: auth.userId });
        auditCaller(ctx, req, auth, {
          orgId: status.orgId,
          action: 'demo.simulator.start',
          resourceType: 'simulator',
          resourceId: null,
          resourceName: 'Demo simulator',
          details: { count: body.count },
        });
        return status;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/demo/simulator/stop',
      tag: 'demo',
      summary:
        'Stop the simulated agents (their devices go offline; credentials are kept for the next start)',
      auth: 'user',
      permission: PERMISSIONS.DEVICES_WRITE,
      mfa: true,
      responses: { 403: NOT_ALLOWED, 409: 'The simulator runs only in demo mode (SIMULATOR_UNAVAILABLE)' },
      handler: async ({ req, auth }): Promise<SimulatorStatus> => {
        requireCaller(auth);
        if (!sim.available) throw SIMULATOR_UNAVAILABLE();
        const stopped = await sim.stop();
        if (stopped) {
          auditCaller(ctx, req, auth, {
            orgId: stopped.orgId,
            action: 'demo.simulator.stop',
            resourceType: 'simulator',
            resourceId: null,
            resourceName: 'Demo simulator',
            details: { agents: stopped.agents },
          });
        }
        return sim.status();
      },
    }),
    defineRoute({
      method: 'post',
      path: '/demo/simulator/elevation-requests',
      tag: 'demo',
      summary:
        'Make one running simulated agent (in `orgId` when given) report an elevation request of `kind`; answers with the server’s decision',
      auth: 'user',
      permission: PERMISSIONS.DEVICES_WRITE,
      mfa: true,
      body: raiseBody,
      responses: {
        403: NOT_ALLOWED,
        404: 'Organization not found',
        409: 'No simulated agent is running in this organization (SIMULATOR_NOT_RUNNING); not in demo mode (SIMULATOR_UNAVAILABLE)',
        429: 'Too many elevation requests from this device',
      },
      handler: async ({ req, auth, body }): Promise<SimulatorElevationResponse> => {
        requireCaller(auth);
        if (!sim.available) throw SIMULATOR_UNAVAILABLE();
        if (body.orgId) requireOrgAccess(ctx.db, auth, body.orgId);
        const { orgId, ...raised } = await sim.raiseElevation({ orgId: body.orgId, kind: body.kind });
        auditCaller(ctx, req, auth, {
          orgId,
          action: 'demo.simulator.elevation_request',
          resourceType: 'simulator',
          resourceId: null,
          resourceName: 'Demo simulator',
          details: {
            kind: body.kind,
            elevationRequestId: raised.id,
            status: raised.status,
            deviceId: raised.deviceId,
            hostname: raised.hostname,
          },
        });
        return raised;
      },
    }),
  ];
}
