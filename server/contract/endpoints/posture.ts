import type { PostureDevices, PostureSummary } from '../agent-versions';
import type { Endpoint } from './endpoint';

// The management posture report (spec 3): third-party management products per organization, and the devices
// behind one product and status.

/** One organization's product and status, as the report's drill-down asks for them. */
export interface PostureDrill {
  orgId: string;
  product: string;
  status: string;
}

export interface PostureEndpoints {
  'GET /devices/management-posture/summary': Endpoint<PostureSummary, undefined, { stalenessDays: number }>;
  'GET /devices/management-posture/devices': Endpoint<
    PostureDevices,
    undefined,
    PostureDrill & { page: number; limit: number }
  >;
}
