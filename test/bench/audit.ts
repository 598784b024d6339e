import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { RunningServer } from '../../server/index';
import type { Db } from '../../server/db/connection';
import { BENCH_ADMIN, login } from './identity';
import { measure, ok, type Result } from './measure';

// Audit search over 1,000,000 entries and the streamed export. The entries are inserted straight into SQLite in
// one transaction (bench only: their checksums are not a chain), spread over the demo's organizations and the
// last year, with the vocabulary of a real log. Each search is compared with the bare SQL it replaced, a LIKE
// scan for the same text over the same rows (measured in this process, so without HTTP); the export with a bare
// SELECT iterating the same 10,000 rows.

export const AUDIT_ENTRIES = 1_000_000;

const ACTIONS = [
  'user.login',
  'user.login.failed',
  'user.logout',
  'device.update',
  'device.create',
  'device.delete',
  'script.execute',
  'policy.update',
  'policy.evaluate',
  'data.export',
  'organization.update',
  'pam.elevation_request.approve',
  'pam.elevation_request.deny',
  'filter.preview',
  'webhook.update',
  'agent.eventlogs.submit',
] as const;
const RESOURCES = [
  'device',
  'user',
  'script',
  'policy',
  'organization',
  'elevation_request',
  'webhook',
] as const;

/** A small deterministic generator: the same million rows on every run. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export function seedAuditEntries(db: Db, orgIds: string[], count = AUDIT_ENTRIES): number {
  const random = rng(13);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const insert = db.prepare(
    `INSERT INTO audit_logs (id, org_id, timestamp, actor_type, actor_id, actor_email, action, resource_type,
       resource_id, resource_name, details, ip_address, user_agent, result, actor_role, prev_checksum, checksum)
     VALUES (?, ?, ?, 'user', ?, ?, ?, ?, ?, ?, ?, ?, 'bench', ?, ?, ?, ?)`,
  );
  const actors = Array.from({ length: 300 }, (_, i) => ({
    id: randomUUID(),
    email: `tech${i}@northwind.demo`,
    role: i % 10 === 0 ? 'Partner Admin' : 'Partner Technician',
  }));
  const now = Date.now();
  const year = 365 * 24 * 3600 * 1000;
  const started = performance.now();
  // The search index is built once after the rows are in (a rebuild), rather than by its triggers row by row:
  // less than half the seeding time. The triggers come back exactly as the migration wrote them.
  const triggers = db
    .prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'audit_logs'")
    .all() as Array<{ name: string; sql: string }>;
  for (const t of triggers) db.exec(`DROP TRIGGER ${t.name}`);
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const actor = pick(actors);
      const action = pick(ACTIONS);
      const host = `WS-${String(Math.floor(random() * 50_000)).padStart(5, '0')}`;
      insert.run(
        randomUUID(),
        pick(orgIds),
        new Date(now - year + Math.floor((i / count) * year)).toISOString(),
        actor.id,
        actor.email,
        action,
        pick(RESOURCES),
        randomUUID(),
        host,
        JSON.stringify({ changedFields: ['displayName'], ticket: `INC-${Math.floor(random() * 90_000)}` }),
        `10.${Math.floor(random() * 255)}.${Math.floor(random() * 255)}.${Math.floor(random() * 255)}`,
        random() < 0.05 ? 'failure' : 'success',
        // The role the writer records with each entry since it was added.
        actor.role,
        '0'.repeat(64),
        '0'.repeat(64),
      );
    }
  })();
  db.exec("INSERT INTO audit_logs_fts (audit_logs_fts) VALUES ('rebuild')");
  for (const t of triggers) db.exec(t.sql);
  db.exec('ANALYZE');
  return (performance.now() - started) / 1000;
}

/** Texts searched: a rare hostname, an actor's email, a ticket in the details, a common action, and nothing. */
const SEARCHES = ['WS-01234', 'tech42@northwind', 'INC-4711', 'login.failed', 'no-such-text'] as const;

/**
 * One GET on its own connection (no keep-alive), its body read and counted. The audit requests block the server's
 * event loop for a long time on a loaded machine; a pooled socket whose keep-alive timer ran out meanwhile is
 * closed by the server just as a request is sent on it (ECONNRESET), so these requests never reuse one. A
 * loopback connect costs a fraction of a millisecond against searches of tens.
 */
function getOnce(url: string, headers: Record<string, string>): Promise<{ rows: number }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, agent: false }, (res) => {
      res.on('data', () => undefined);
      res.on('error', reject);
      res.on('end', () => {
        if ((res.statusCode ?? 0) >= 300) reject(new Error(`${url}: HTTP ${res.statusCode}`));
        else resolve({ rows: Number(res.headers['x-export-row-count'] ?? 1) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

export async function auditBench(server: RunningServer): Promise<{ results: Result[]; seedSeconds: number }> {
  const { db } = server.context;
  const orgIds = (db.prepare('SELECT id FROM organizations').all() as Array<{ id: string }>).map((o) => o.id);
  const seedSeconds = seedAuditEntries(db, orgIds);
  const api = `${server.url}/api/v1`;
  const headers = { authorization: `Bearer ${await login(api, BENCH_ADMIN.email, BENCH_ADMIN.password)}` };
  const results: Result[] = [
    await measure('GET /health (baseline)', 2000, 8, () => ok('health', fetch(`${api}/health`))),
  ];
  // The "before": what the endpoint did with LIKE, in SQL directly: the same page of the same search and its total
  // (the list answers both), a scan across the five columns.
  const like = `lower(action) LIKE @q OR lower(actor_email) LIKE @q OR lower(resource_type) LIKE @q
    OR lower(resource_name) LIKE @q OR lower(details) LIKE @q`;
  const likePage = db.prepare(`SELECT * FROM audit_logs WHERE ${like} ORDER BY seq DESC LIMIT 50`);
  const likeCount = db.prepare(`SELECT COUNT(*) AS n FROM audit_logs WHERE ${like}`);
  for (const q of SEARCHES) {
    const bare = `bare SQL LIKE page + count q=${q}`;
    results.push(
      await measure(bare, 10, 1, async () => {
        const pattern = { q: `%${q.toLowerCase()}%` };
        likePage.all(pattern);
        likeCount.get(pattern);
      }),
    );
    results.push(
      await measure(
        `GET /audit-logs/search q=${q}`,
        100,
        2,
        () => getOnce(`${api}/audit-logs/search?q=${encodeURIComponent(q)}&limit=50`, headers).then(() => 1),
        { baseline: bare },
      ),
    );
  }
  const filtered = `GET /audit-logs/search q=WS-0 + orgId + result`;
  results.push(
    await measure(
      filtered,
      100,
      2,
      () =>
        getOnce(`${api}/audit-logs/search?q=WS-0&orgId=${orgIds[0]}&result=failure&limit=50`, headers).then(
          () => 1,
        ),
      { baseline: 'GET /health (baseline)' },
    ),
  );
  const bareExport = 'bare SELECT iterating 10,000 rows';
  const exportRows = db.prepare('SELECT * FROM audit_logs ORDER BY seq DESC LIMIT 10000');
  results.push(
    await measure(
      bareExport,
      20,
      1,
      async () => {
        let n = 0;
        for (const _row of exportRows.iterate()) n++;
        return n;
      },
      { unit: 'rows' },
    ),
  );
  results.push(
    await measure(
      'GET /audit/export (CSV, 10,000 rows, streamed)',
      10,
      1,
      async () => (await getOnce(`${api}/audit/export?format=csv`, headers)).rows,
      { unit: 'rows', baseline: bareExport },
    ),
  );
  return { results, seedSeconds };
}
