import type { DemoSeedResponse, Paginated, Partner } from '../../../../server/contract';
import { api } from '../../lib/api/client';

// The overview's endpoints (spec 1: demo data), typed by the contract.

export const homeKeys = {
  /** Whether the install has any partner yet (one row is enough to know). */
  anyPartner: ['home', 'any-partner'] as const,
};

export const homeApi = {
  partnerCount: () => api<Paginated<Partner>>('/orgs/partners?limit=1').then((page) => page.pagination.total),
  seedDemo: () => api<DemoSeedResponse>('/demo/seed', { method: 'POST', body: {} }),
};
