import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sha256Hex } from '../../server/crypto';
import { createServer } from '../../server/index';

// `npm run bench`: throughput and latency of the identity core over real HTTP against a real SQLite file, as
// ratios to a baseline (GET /health) measured in the same run, because absolute figures on a shared two-core
// machine say little. Loops are bounded in count and time and only ever target this machine's loopback.

const EMAIL = 'bench@gatehouse.test';
const PASSWORD = 'Throughput-Probe-2026';

interface Result {
  name: string;
  requests: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function measure(
  name: string,
  total: number,
  concurrency: number,
  request: (i: number, worker: number) => Promise<Response>,
  maxSeconds = 20,
): Promise<Result> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const deadline = started + maxSeconds * 1000;
  const worker = async (_: unknown, id: number) => {
    while (next < total && performance.now() < deadline) {
      const i = next++;
      const t = performance.now();
      const res = await request(i, id);
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`${name}: HTTP ${res.status}`);
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    name,
    requests: latencies.length,
    seconds,
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-'));
  const server = await createServer({
    dataDir,
    port: 0,
    env: {
      LOG_LEVEL: 'silent',
      BOOTSTRAP_ADMIN_EMAIL: EMAIL,
      BOOTSTRAP_ADMIN_PASSWORD: PASSWORD,
      SEED_DEMO: 'true',
    },
  });
  const api = `${server.url}/api/v1`;
  const json = { 'content-type': 'application/json' };
  try {
    const login = (await (
      await fetch(`${api}/auth/login`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
      })
    ).json()) as {
      accessToken: string;
    };
    const auth = { authorization: `Bearer ${login.accessToken}` };

    const results: Result[] = [];
    results.push(await measure('GET /health (baseline)', 4000, 16, () => fetch(`${api}/health`)));
    results.push(
      await measure('GET /auth/me (JWT + user check)', 4000, 16, () =>
        fetch(`${api}/auth/me`, { headers: auth }),
      ),
    );
    results.push(
      await measure('GET /audit-logs/logs (page of 50)', 1000, 8, () =>
        fetch(`${api}/audit-logs/logs`, { headers: auth }),
      ),
    );
    // A partner technician's view: the scope resolver turns the partner association into its organizations.
    const partnerLogin = (await (
      await fetch(`${api}/auth/login`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ email: 'riley.chen@northwind.demo', password: server.demo?.password }),
      })
    ).json()) as { accessToken: string };
    results.push(
      await measure('GET /orgs/ (partner scope, JWT)', 4000, 16, () =>
        fetch(`${api}/orgs/`, { headers: { authorization: `Bearer ${partnerLogin.accessToken}` } }),
      ),
    );
    // An integration's key: hash lookup, the hourly sliding window in SQLite, usage counted asynchronously.
    const apiKey = `svc_${'b'.repeat(32)}`;
    const now = new Date().toISOString();
    server.context.db
      .prepare(
        `INSERT INTO api_keys (id, org_id, name, key_hash, key_prefix, scopes, rate_limit, created_by, created_at, updated_at)
         VALUES (?, ?, 'Bench', ?, ?, '["organizations:read"]', 100000, 'bench', ?, ?)`,
      )
      .run(randomUUID(), server.demo!.enrollmentKey.orgId, sha256Hex(apiKey), apiKey.slice(0, 12), now, now);
    results.push(
      await measure('GET /orgs/ (X-API-Key, sliding window)', 4000, 16, () =>
        fetch(`${api}/orgs/`, { headers: { 'x-api-key': apiKey } }),
      ),
    );
    // Each refresh rotates, so each worker keeps its own chain and always presents the token it was last given
    // (sharing one would be reuse, which revokes the family).
    const chains = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const res = await fetch(`${api}/auth/login`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
        });
        return ((await res.json()) as { refreshToken: string }).refreshToken;
      }),
    );
    results.push(
      await measure('POST /auth/refresh (rotation)', 2000, 8, async (_i, slot) => {
        const res = await fetch(`${api}/auth/refresh`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ refreshToken: chains[slot] }),
        });
        const body = (await res.clone().json()) as { refreshToken: string };
        chains[slot] = body.refreshToken;
        return res;
      }),
    );
    // Password login is argon2id-bound by design; the limiter allows 10 per email per 15 minutes and this run
    // has used 9 for the administrator, so one more measures a single login end to end.
    results.push(
      await measure('POST /auth/login (argon2id)', 1, 1, () =>
        fetch(`${api}/auth/login`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
        }),
      ),
    );

    const baseline = results[0]!.perSecond;
    console.log(`\nGatehouse bench — ${new Date().toISOString()} — node ${process.version}\n`);
    console.log(
      'scenario'.padEnd(40),
      'req'.padStart(6),
      'req/s'.padStart(9),
      'p50 ms'.padStart(8),
      'p99 ms'.padStart(8),
      'vs baseline'.padStart(12),
    );
    for (const r of results) {
      console.log(
        r.name.padEnd(40),
        String(r.requests).padStart(6),
        r.perSecond.toFixed(0).padStart(9),
        r.p50.toFixed(1).padStart(8),
        r.p99.toFixed(1).padStart(8),
        `${(r.perSecond / baseline).toFixed(3)}x`.padStart(12),
      );
    }
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
