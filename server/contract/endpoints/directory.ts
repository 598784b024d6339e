import type { Paginated } from '../common';
import type { DeviceGroup } from '../devices';
import type { OrganizationListResponse, Partner, Site } from '../tenancy';
import type { Endpoint } from './endpoint';

// The tenancy directory every screen names things from: organizations, sites, device groups and partners in the
// caller's scope. The queries also cover the screens that page through these lists (tenants, device groups, people).

export interface SiteListQuery {
  orgId?: string;
  page?: number;
  limit?: number;
}

export interface DirectoryEndpoints {
  'GET /orgs/': Endpoint<OrganizationListResponse>;
  'GET /orgs/sites': Endpoint<Paginated<Site>, undefined, SiteListQuery>;
  'GET /groups': Endpoint<Paginated<DeviceGroup>, undefined, { page?: number; limit?: number }>;
  'GET /orgs/partners': Endpoint<Paginated<Partner>, undefined, { page?: number; limit?: number }>;
  'GET /orgs/partners/me': Endpoint<Partner>;
}
