import type { AnyRoute } from '../http/route';
import { defineRoute } from '../http/route';
import type { ConsoleHub } from './console-hub';

export function consoleSocketRoutes(hub: ConsoleHub): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/ws/ticket',
      tag: 'live',
      summary: 'A single-use ticket (valid 30 s) to open the console WebSocket at /api/v1/ws?ticket=',
      auth: 'user',
      handler: ({ auth }) => hub.issueTicket(auth),
    }),
  ];
}
