import { mkdtempSync, rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type RunningServer } from '../../server/index';
import { agentsBench } from './agents';
import { AUDIT_ENTRIES, auditBench } from './audit';
import { coldBench, START_COUNT } from './cold';
import { FLEET_SIZE, filtersBench } from './filters';
import { BENCH_ADMIN, identityBench } from './identity';
import { importsBench } from './imports';
import type { Result } from './measure';
import { pamBench } from './pam';
import { printScale, scaleBench } from './scale';
import { webhooksBench } from './webhooks';

// `npm run bench`: throughput and latency over real HTTP against a real SQLite file, each reported as a ratio to
// a baseline measured in the same run, because absolute figures on a shared two-core machine say little. Loops
// are bounded in count and time and only ever target this machine's loopback.

interface Section {
  title: string;
  results: Result[];
}

function print(section: Section): void {
  console.log(`\n${section.title}\n`);
  console.log(
    'scenario'.padEnd(52),
    'count'.padStart(8),
    'per s'.padStart(10),
    'p50 ms'.padStart(8),
    'p99 ms'.padStart(8),
    'vs baseline'.padStart(12),
  );
  const first = section.results[0];
  for (const r of section.results) {
    const base = section.results.find((b) => b.name === r.baseline) ?? first;
    const ratio = base && base.perSecond > 0 ? `${(r.perSecond / base.perSecond).toFixed(3)}x` : '';
    console.log(
      r.name.padEnd(52),
      `${r.count} ${r.unit}`.padStart(8),
      r.perSecond.toFixed(0).padStart(10),
      r.p50.toFixed(1).padStart(8),
      r.p99.toFixed(1).padStart(8),
      ratio.padStart(12),
      r.note ? ` ${r.note}` : '',
    );
  }
}

/** An in-process server on a fresh data directory, removed afterwards. */
async function withServer<T>(run: (server: RunningServer) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-'));
  const server = await createServer({
    dataDir,
    port: 0,
    env: {
      LOG_LEVEL: 'silent',
      BOOTSTRAP_ADMIN_EMAIL: BENCH_ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: BENCH_ADMIN.password,
      SEED_DEMO: 'true',
    },
  });
  try {
    return await run(server);
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * `npm run bench -- agents` runs only the named sections (identity, filters, pam, audit, imports, webhooks, cold,
 * agents, scale); no section runs all. `--agents N` sizes the scale section's fleet (default 10,000), `--processes P` its
 * agent-sim processes (default one per 2,500 agents, at least 2).
 */
const args = parseArgs({
  allowPositionals: true,
  options: { agents: { type: 'string' }, processes: { type: 'string' } },
});
const only = new Set(args.positionals);
const wanted = (section: string) => only.size === 0 || only.has(section);
const wholeNumber = (flag: string, raw: string | undefined): number | undefined => {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`--${flag} must be a positive whole number (got "${raw}")`);
  return n;
};

async function main(): Promise<void> {
  console.log(`Gatehouse bench — ${new Date().toISOString()} — node ${process.version}`);
  if (wanted('identity'))
    print({
      title: 'Identity core (ratios to GET /health)',
      results: await withServer((server) => identityBench(server)),
    });
  if (wanted('filters'))
    print({
      title: `Saved-filter previews on ${FLEET_SIZE.toLocaleString('en')} devices (ratios to GET /health)`,
      results: await withServer((server) => {
        const orgIds = (
          server.context.db
            .prepare('SELECT id FROM organizations ORDER BY created_at LIMIT 2')
            .all() as Array<{
            id: string;
          }>
        ).map((o) => o.id);
        return filtersBench(server, orgIds);
      }),
    });
  if (wanted('pam')) {
    const scratch = mkdtempSync(join(tmpdir(), 'gatehouse-bench-pam-'));
    try {
      const pam = await pamBench(join(scratch, 'data'));
      print({
        title: 'Elevation requests: ingest to console push (server in its own process)',
        results: pam.pushes,
      });
      print({
        title: 'Elevation decisions through respond (1,050 agents heartbeating)',
        results: pam.decisions,
      });
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  if (wanted('audit')) {
    const audit = await withServer((server) => auditBench(server));
    print({
      title: `Audit search over ${AUDIT_ENTRIES.toLocaleString('en')} entries and the streamed export (seeded in ${audit.seedSeconds.toFixed(0)} s)`,
      results: audit.results,
    });
  }
  if (wanted('imports'))
    print({
      title: 'Organization and site import, 1000-row files (ratios to a raw SQLite insert of the same rows)',
      results: await withServer((server) => importsBench(server)),
    });
  if (wanted('webhooks'))
    print({
      title: 'Webhook deliveries to a local HTTPS receiver (ratio to a bare https.request loop)',
      results: await webhooksBench(),
    });
  if (wanted('cold'))
    print({
      title: `Cold start to a ready GET /health, ${START_COUNT} starts each (ratio: baseline time / this time)`,
      results: await coldBench(),
    });
  if (wanted('scale')) {
    const scratch = mkdtempSync(join(tmpdir(), 'gatehouse-bench-scale-'));
    try {
      printScale(
        await scaleBench(join(scratch, 'data'), {
          agents: wholeNumber('agents', args.values.agents) ?? 10_000,
          processes: wholeNumber('processes', args.values.processes),
        }),
      );
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  if (!wanted('agents')) return;
  const scratch = mkdtempSync(join(tmpdir(), 'gatehouse-bench-agents-'));
  try {
    const agents = await agentsBench(join(scratch, 'data'), scratch);
    print({
      title: 'Agent heartbeats through the full stack (server in its own process)',
      results: agents.heartbeats,
    });
    print({ title: 'Event-log ingest', results: agents.ingest });
    const m = agents.memory;
    console.log(
      `\nServer memory: ${m.idleMb.toFixed(0)} MB idle; with ${m.connected}/${m.agents} agents holding WebSockets ` +
        `${m.rssMb.toFixed(0)} MB resident, ${m.peakMb.toFixed(0)} MB peak (VmHWM)`,
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
