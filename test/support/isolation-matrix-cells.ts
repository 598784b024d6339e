import { randomUUID } from 'node:crypto';
import { type Cell, ids, row } from './isolation-matrix-world';

// The cells of the tenant isolation matrix (test/integration/isolation-matrix.test.ts): every resource of spec 1's
// identity and tenancy, read and written by the five callers of test/support/isolation-matrix-world.ts, with the
// status the spec gives each caller (row: system, partner all, partner selected, partner none, organization user).

export const READS: Cell[] = [
  // Partners: system scope only; /partners/me is the partner's own.
  {
    name: 'list partners',
    method: 'GET',
    path: () => '/orgs/partners',
    expect: row(200, 403, 403, 403, 403),
  },
  {
    name: 'read partner P1',
    method: 'GET',
    path: () => `/orgs/partners/${ids.p1}`,
    expect: row(200, 403, 403, 403, 403),
  },
  {
    name: 'read own partner',
    method: 'GET',
    path: () => '/orgs/partners/me',
    expect: row(403, 200, 200, 200, 403),
  },
  // Organizations: partner callers get 404 outside their access; organization callers are refused the
  // partner/system routes.
  {
    name: 'read org A',
    method: 'GET',
    path: () => `/orgs/organizations/${ids.orgA}`,
    expect: row(200, 200, 200, 404, 403),
  },
  {
    name: 'read org B',
    method: 'GET',
    path: () => `/orgs/organizations/${ids.orgB}`,
    expect: row(200, 200, 404, 404, 403),
  },
  {
    name: 'read org C (other partner)',
    method: 'GET',
    path: () => `/orgs/organizations/${ids.orgC}`,
    expect: row(200, 404, 404, 404, 403),
  },
  // Sites: checked against the parent organization; 403 outside the caller's organizations.
  {
    name: 'read site A',
    method: 'GET',
    path: () => `/orgs/sites/${ids.siteA}`,
    expect: row(200, 200, 200, 403, 200),
  },
  {
    name: 'read site B',
    method: 'GET',
    path: () => `/orgs/sites/${ids.siteB}`,
    expect: row(200, 200, 403, 403, 403),
  },
  {
    name: 'read site C',
    method: 'GET',
    path: () => `/orgs/sites/${ids.siteC}`,
    expect: row(200, 403, 403, 403, 403),
  },
  // Keys: 404 when the key's organization is outside the scope.
  {
    name: 'read API key A',
    method: 'GET',
    path: () => `/api-keys/${ids.keyA}`,
    expect: row(200, 200, 200, 404, 200),
  },
  {
    name: 'read API key B',
    method: 'GET',
    path: () => `/api-keys/${ids.keyB}`,
    expect: row(200, 200, 404, 404, 404),
  },
  {
    name: 'read API key C',
    method: 'GET',
    path: () => `/api-keys/${ids.keyC}`,
    expect: row(200, 404, 404, 404, 404),
  },
  {
    name: 'read enrollment key A',
    method: 'GET',
    path: () => `/enrollment-keys/${ids.enrollA}`,
    expect: row(200, 200, 200, 404, 200),
  },
  {
    name: 'read enrollment key B',
    method: 'GET',
    path: () => `/enrollment-keys/${ids.enrollB}`,
    expect: row(200, 200, 404, 404, 404),
  },
  {
    name: 'read enrollment key C',
    method: 'GET',
    path: () => `/enrollment-keys/${ids.enrollC}`,
    expect: row(200, 404, 404, 404, 404),
  },
  // Users: partner users without full organization access may not administer users at all.
  {
    name: 'read user of org B',
    method: 'GET',
    path: () => `/users/${ids.userB}`,
    expect: row(200, 200, 403, 403, 404),
  },
  {
    name: 'read user of org C',
    method: 'GET',
    path: () => `/users/${ids.userC}`,
    expect: row(200, 404, 403, 403, 404),
  },
  // Roles: a tenant's custom roles are invisible to other tenants.
  {
    name: 'read custom role of P1',
    method: 'GET',
    path: () => `/roles/${ids.roleP1}`,
    expect: row(200, 200, 200, 200, 404),
  },
  {
    name: 'read custom role of P2',
    method: 'GET',
    path: () => `/roles/${ids.roleP2}`,
    expect: row(200, 404, 404, 404, 404),
  },
];

export const WRITES: Cell[] = [
  {
    name: 'rename partner P2',
    method: 'PATCH',
    path: () => `/orgs/partners/${ids.p2}`,
    body: () => ({ billingEmail: 'billing@fabrikam.test' }),
    expect: row(200, 403, 403, 403, 403),
  },
  {
    name: 'rename org B',
    method: 'PATCH',
    path: () => `/orgs/organizations/${ids.orgB}`,
    body: () => ({ name: 'Bravo Legal LLP' }),
    expect: row(200, 200, 404, 404, 403),
  },
  {
    name: 'rename org C',
    method: 'PATCH',
    path: () => `/orgs/organizations/${ids.orgC}`,
    body: () => ({ name: 'Charlie Foods Inc' }),
    expect: row(200, 404, 404, 404, 403),
  },
  {
    name: 'create site in org B',
    method: 'POST',
    path: () => '/orgs/sites',
    body: () => ({ orgId: ids.orgB, name: `Branch ${randomUUID().slice(0, 6)}` }),
    expect: row(201, 201, 404, 404, 403),
  },
  {
    name: 'rename site C',
    method: 'PATCH',
    path: () => `/orgs/sites/${ids.siteC}`,
    body: () => ({ name: 'Warehouse' }),
    expect: row(200, 403, 403, 403, 403),
  },
  {
    name: 'rename API key B',
    method: 'PATCH',
    path: () => `/api-keys/${ids.keyB}`,
    body: () => ({ name: 'Renamed' }),
    expect: row(200, 200, 404, 404, 404),
  },
  {
    name: 'rename API key C',
    method: 'PATCH',
    path: () => `/api-keys/${ids.keyC}`,
    body: () => ({ name: 'Renamed' }),
    expect: row(200, 404, 404, 404, 404),
  },
  {
    name: 'create API key in org B',
    method: 'POST',
    path: () => '/api-keys',
    body: () => ({ orgId: ids.orgB, name: 'Cross-tenant' }),
    expect: row(201, 201, 404, 404, 403),
  },
  {
    name: 'create enrollment key in org C',
    method: 'POST',
    path: () => '/enrollment-keys',
    body: () => ({ orgId: ids.orgC, name: 'Cross-tenant' }),
    expect: row(201, 404, 404, 404, 403),
  },
  {
    name: 'rename user of org C',
    method: 'PATCH',
    path: () => `/users/${ids.userC}`,
    body: () => ({ name: 'Renamed' }),
    expect: row(200, 404, 403, 403, 404),
  },
  {
    name: 'rename custom role of P2',
    method: 'PATCH',
    path: () => `/roles/${ids.roleP2}`,
    body: () => ({ description: 'Edited' }),
    expect: row(200, 404, 403, 403, 404),
  },
];
