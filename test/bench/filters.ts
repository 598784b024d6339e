import type { RunningServer } from '../../server/index';
import type { FilterConditionGroup } from '../../server/contract';
import { insertFleet } from '../support/fleet';
import { login, BENCH_ADMIN } from './identity';
import { measure, ok, type Result } from './measure';

// Saved-filter previews over a 50,000-device fleet (two organizations): the condition language compiled to SQL,
// each preview counting every match and returning the first ten. Baseline: GET /health through the same stack.

export const FLEET_SIZE = 50_000;

const FILTERS: Array<{ name: string; conditions: FilterConditionGroup }> = [
  {
    name: 'osType = windows AND cpu > 50',
    conditions: {
      operator: 'AND',
      conditions: [
        { field: 'osType', operator: 'equals', value: 'windows' },
        { field: 'metrics.cpuPercent', operator: 'greaterThan', value: 50 },
      ],
    },
  },
  {
    name: 'hostname contains "web" OR lastUser startsWith "a"',
    conditions: {
      operator: 'OR',
      conditions: [
        { field: 'hostname', operator: 'contains', value: 'web' },
        { field: 'lastUser', operator: 'startsWith', value: 'a' },
      ],
    },
  },
  {
    name: 'nested: tags, software, daysSinceLastSeen',
    conditions: {
      operator: 'AND',
      conditions: [
        { field: 'tags', operator: 'hasAny', value: ['finance', 'kiosk'] },
        {
          operator: 'OR',
          conditions: [
            { field: 'software.installed', operator: 'contains', value: 'chrome' },
            { field: 'daysSinceLastSeen', operator: 'greaterThan', value: 7 },
          ],
        },
      ],
    },
  },
  {
    name: 'hostname matches regex',
    conditions: {
      operator: 'AND',
      conditions: [{ field: 'hostname', operator: 'matches', value: '^(WEB|DC)[0-9]*7$' }],
    },
  },
];

export async function filtersBench(server: RunningServer, orgIds: string[]): Promise<Result[]> {
  const { db } = server.context;
  insertFleet(db, { orgIds, count: FLEET_SIZE, seed: 7 });
  db.exec('ANALYZE');
  const api = `${server.url}/api/v1`;
  const auth = {
    'content-type': 'application/json',
    authorization: `Bearer ${await login(api, BENCH_ADMIN.email, BENCH_ADMIN.password)}`,
  };
  const results: Result[] = [
    await measure('GET /health (baseline)', 2000, 8, () => ok('health', fetch(`${api}/health`))),
  ];
  for (const filter of FILTERS) {
    results.push(
      await measure(`preview: ${filter.name}`, 60, 2, () =>
        ok(
          'preview',
          fetch(`${api}/filters/preview`, {
            method: 'POST',
            headers: auth,
            body: JSON.stringify({ conditions: filter.conditions, limit: 10 }),
          }),
        ),
      ),
    );
  }
  return results;
}
