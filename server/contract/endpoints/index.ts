// The console's endpoints, one map: for each `METHOD /path` the console calls, what it sends and what comes back.
// Both sides are held to it by the compiler. On the server, defineRoute (server/http/route.ts) makes a declared
// route's handler answer with the endpoint's response and its schemas accept the endpoint's body and query; in
// the console, the one typed caller (renderer/src/lib/api/endpoints.ts) takes its argument and result types from
// here, so no call site names a type of its own. test/integration/endpoint-map.test.ts checks that every key is
// a route.
import type { WebhookEndpoints } from './webhooks';
import type { AuthEndpoints } from './auth';
import type { SessionEndpoints } from './session';
import type { ProfileEndpoints } from './profile';
import type { DirectoryEndpoints } from './directory';
import type { TenantEndpoints } from './tenants';
import type { SettingsEndpoints } from './settings';
import type { PeopleEndpoints } from './people';
import type { KeyEndpoints } from './keys';
import type { HomeEndpoints } from './home';
import type { DeviceEndpoints } from './devices';
import type { DeviceHistoryEndpoints } from './device-history';
import type { FilterEndpoints } from './filters';
import type { DeviceGroupEndpoints } from './device-groups';
import type { PostureEndpoints } from './posture';
import type { AgentVersionEndpoints } from './agent-versions';
import type { ApprovalEndpoints } from './approvals';
import type { PamPolicyEndpoints } from './pam-policy';
import type { AuditEndpoints } from './audit';
import type { SsoEndpoints } from './sso';
import type { AccessReviewEndpoints } from './access-reviews';
import type { ImportEndpoints } from './imports';

export type { Endpoint, StreamedFile } from './endpoint';
export type * from './webhooks';
export type * from './auth';
export type * from './session';
export type * from './profile';
export type * from './directory';
export type * from './tenants';
export type * from './settings';
export type * from './people';
export type * from './keys';
export type * from './home';
export type * from './devices';
export type * from './device-history';
export type * from './filters';
export type * from './device-groups';
export type * from './posture';
export type * from './agent-versions';
export type * from './approvals';
export type * from './pam-policy';
export type * from './audit';
export type * from './sso';
export type * from './access-reviews';
export type * from './imports';

export type ApiEndpoints = WebhookEndpoints &
  AuthEndpoints &
  SessionEndpoints &
  ProfileEndpoints &
  DirectoryEndpoints &
  TenantEndpoints &
  SettingsEndpoints &
  PeopleEndpoints &
  KeyEndpoints &
  HomeEndpoints &
  DeviceEndpoints &
  DeviceHistoryEndpoints &
  FilterEndpoints &
  DeviceGroupEndpoints &
  PostureEndpoints &
  AgentVersionEndpoints &
  ApprovalEndpoints &
  PamPolicyEndpoints &
  AuditEndpoints &
  SsoEndpoints &
  AccessReviewEndpoints &
  ImportEndpoints;

export type EndpointKey = keyof ApiEndpoints & string;
