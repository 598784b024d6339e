import type { DashboardResponse } from '../dashboard';
import type { DemoSeedResponse } from '../demo';
import type { Endpoint } from './endpoint';

// The Overview's own endpoints: the dashboard (issue 16) and the demo data offer (spec 1).

export interface HomeEndpoints {
  'GET /dashboard': Endpoint<DashboardResponse>;
  'POST /demo/seed': Endpoint<DemoSeedResponse>;
}
