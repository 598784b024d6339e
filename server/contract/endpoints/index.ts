// The console's endpoints, one map: for each `METHOD /path` the console calls, what it sends and what comes back.
// Both sides are held to it by the compiler. On the server, defineRoute (server/http/route.ts) makes a declared
// route's handler answer with the endpoint's response and its schemas accept the endpoint's body and query; in
// the console, the one typed caller (renderer/src/lib/api/endpoints.ts) takes its argument and result types from
// here, so no call site names a type of its own. test/unit/endpoint-map.test.ts checks that every key is a route.
import type { WebhookEndpoints } from './webhooks';
import type { ApprovalEndpoints } from './approvals';
import type { PamPolicyEndpoints } from './pam-policy';
import type { AuditEndpoints } from './audit';
import type { KeyEndpoints } from './keys';
import type { PeopleEndpoints } from './people';

export type { Endpoint } from './endpoint';
export type * from './webhooks';
export type * from './approvals';
export type * from './pam-policy';
export type * from './audit';
export type * from './keys';
export type * from './people';

export type ApiEndpoints = WebhookEndpoints &
  ApprovalEndpoints &
  PamPolicyEndpoints &
  AuditEndpoints &
  KeyEndpoints &
  PeopleEndpoints;

export type EndpointKey = keyof ApiEndpoints & string;
