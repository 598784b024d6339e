import type { AppContext } from '../../context';
import { PERMISSIONS } from '../../http/permissions';
import { defineRoute, type AnyRoute } from '../../http/route';
import { liveEvent, liveLogInfo, listLiveLogs, queryLiveEvents } from './live';
import {
  deviceParams,
  diagnosticLogsQuery,
  eventLogsQuery,
  liveEventsQuery,
  logParams,
  recordParams,
} from './schemas';
import { queryDiagnosticLogs, queryEventLogs } from './service';

// Device logs (spec 2, Agent and device logs), the query side: stored diagnostic and event logs, and live
// event-log queries sent to the agent. Agents submit logs through the agents module. JWT or API key with
// devices:read; a device outside the caller's scope is 404.

const TAG = 'device-logs';
const DEVICE_404 = { 404: 'Device not found' };
const LIVE_ERRORS = {
  404: 'Device not found; Event log not found; Event not found',
  409: 'Device is offline (DEVICE_OFFLINE)',
  502: 'The agent answered with an error or a malformed answer (AGENT_ERROR)',
  504: 'The device did not answer within 30 seconds (LIVE_QUERY_TIMEOUT)',
};

export function logRoutes(ctx: AppContext): AnyRoute[] {
  // Declared under /system-tools/devices/:deviceId, the console's paths, so defineRoute holds them to the
  // console's endpoints; the same routes answer under /devices/:deviceId too (all but the list of logs).
  const live: AnyRoute[] = [
    defineRoute({
      method: 'get',
      path: '/system-tools/devices/:deviceId/eventlogs/:name',
      tag: TAG,
      summary: 'Live: one event log of the device (name matched case-insensitively by the agent)',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_READ,
      params: logParams,
      responses: LIVE_ERRORS,
      handler: ({ auth, params }) => liveLogInfo(ctx, auth, params.deviceId, params.name),
    }),
    defineRoute({
      method: 'get',
      path: '/system-tools/devices/:deviceId/eventlogs/:name/events',
      tag: TAG,
      summary:
        'Live: events of one log, newest first, filtered by level, source, eventId and time (limit 1-500)',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_READ,
      params: logParams,
      query: liveEventsQuery,
      responses: LIVE_ERRORS,
      handler: ({ auth, params, query }) => queryLiveEvents(ctx, auth, params.deviceId, params.name, query),
    }),
    defineRoute({
      method: 'get',
      path: '/system-tools/devices/:deviceId/eventlogs/:name/events/:recordId',
      tag: TAG,
      summary: 'Live: one event by record id',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_READ,
      params: recordParams,
      responses: LIVE_ERRORS,
      handler: ({ auth, params }) => liveEvent(ctx, auth, params.deviceId, params.name, params.recordId),
    }),
  ];
  const underDevices = live.map((route) => ({ ...route, path: route.path.replace(/^\/system-tools/, '') }));

  return [
    defineRoute({
      method: 'get',
      path: '/devices/:deviceId/diagnostic-logs',
      tag: TAG,
      summary:
        "Stored: the agent's diagnostic log, newest first; level (comma list), component (exact), since, until, " +
        'search (message substring); limit up to 1000',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_READ,
      params: deviceParams,
      query: diagnosticLogsQuery,
      responses: DEVICE_404,
      handler: ({ auth, params, query }) => queryDiagnosticLogs(ctx, auth, params.deviceId, query),
    }),
    defineRoute({
      method: 'get',
      path: '/devices/:deviceId/eventlogs',
      tag: TAG,
      summary:
        'Stored: operating-system events the agent submitted, newest first; category, level (comma lists), ' +
        'source (exact), startDate, endDate; limit up to 500. This path is the stored query of spec 2; the live ' +
        'list of event logs is only at /system-tools/devices/:deviceId/eventlogs',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_READ,
      params: deviceParams,
      query: eventLogsQuery,
      responses: DEVICE_404,
      handler: ({ auth, params, query }) => queryEventLogs(ctx, auth, params.deviceId, query),
    }),
    defineRoute({
      method: 'get',
      path: '/system-tools/devices/:deviceId/eventlogs',
      tag: TAG,
      summary:
        'Live: the event logs the device has (asked of the agent, answered within 30 s). Only under ' +
        '/system-tools: /devices/:deviceId/eventlogs is the stored event-log query',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_READ,
      params: deviceParams,
      responses: LIVE_ERRORS,
      handler: ({ auth, params }) => listLiveLogs(ctx, auth, params.deviceId),
    }),
    ...live,
    ...underDevices,
  ];
}
