import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { DemoSeedResponse } from '../server/index';
import { simulatedDemoFleet } from './demo-fleet';

// Headless entry (`npm run serve`, and `npm start` where the desktop cannot run): the server and console for any
// browser, with the bundled simulator as the demo fleet. It lives outside server/ because it composes the server
// with agent-sim/; the maintenance commands that need no composition (migrate, backup, restore) stay in
// server/cli.ts.

const USAGE = `Usage: npm run serve -- [--port N] [--host H] [--data-dir DIR] [--demo [--agents N] [--scenario steady|pam|pam-load|...]]`;
const MAX_AGENTS = 2000;

/** The built console, out/renderer: `../out/renderer` from app/ (sources), `../renderer` from out/main (bundle). */
function findConsole(): string | null {
  const here = dirname(fileURLToPath(import.meta.url));
  return (
    [resolve(here, '../out/renderer'), resolve(here, '../renderer')].find((dir) =>
      existsSync(resolve(dir, 'index.html')),
    ) ?? null
  );
}

/** Demo credentials go to the operator's terminal, never to the structured log. */
function printDemo(url: string, demo: DemoSeedResponse): void {
  console.log(
    demo.created ? 'Demo tenant created: Northwind IT Services' : 'Demo tenant: Northwind IT Services',
  );
  const admin = demo.platformAdmin;
  if (admin) {
    console.log(`  platform administrator ${admin.email}`);
    console.log(
      `    password: ${admin.password} (shown once; sign in at ${url}/ and set up a second factor)`,
    );
  }
  const width = Math.max(...demo.technicians.map((t) => t.email.length));
  for (const t of demo.technicians) console.log(`  ${t.email.padEnd(width)}  ${t.name}: ${t.role}`);
  if (demo.password) console.log(`  their shared password: ${demo.password} (shown once)`);
  console.log(`  fleet enrollment key (Contoso Dental, until ${demo.enrollmentKey.expiresAt}):`);
  console.log(
    `    npm run agent-sim -- --server ${url} --enrollment-key ${demo.enrollmentKey.key} --count 25`,
  );
}

function fail(message: string): never {
  console.error(`gatehouse: ${message}`);
  process.exit(2);
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      demo: { type: 'boolean' },
      agents: { type: 'string' },
      scenario: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  // `serve` as a first word is accepted, as `gatehouse serve` always was.
  if (values.help || positionals.some((word, i) => !(i === 0 && word === 'serve'))) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535))
    fail(`--port must be a whole number from 0 to 65535 (got "${values.port}")`);

  const env: NodeJS.ProcessEnv = values.demo ? { ...process.env, SEED_DEMO: 'true' } : { ...process.env };
  if (values.agents !== undefined) {
    // `serve --demo --agents N` (DESIGN §2): N simulated agents run beside the demo server.
    const agents = Number(values.agents);
    if (!Number.isInteger(agents) || agents < 0 || agents > MAX_AGENTS)
      fail(`--agents must be a whole number from 0 to ${MAX_AGENTS} (got "${values.agents}")`);
    if (!values.demo && !/^(1|true|yes|on)$/.test(env.SEED_DEMO ?? ''))
      fail('--agents runs simulated agents in the demo tenant; add --demo');
    env.DEMO_AGENTS = String(agents);
  }
  // `--scenario pam`: the demo agents raise elevation requests now and then, so the approvals inbox fills.
  if (values.scenario !== undefined) env.DEMO_SCENARIO = values.scenario;

  const staticDir = findConsole();
  if (!staticDir)
    console.warn('gatehouse: the console is not built (run `npm run build`); serving the API only');
  // Loaded after the arguments are checked: the whole server is a few seconds of start-up.
  const { createServer } = await import('../server/index');
  const { demoSimulator } = await import('../server/modules/demo');
  const server = await createServer({
    ...(port !== undefined ? { port } : {}),
    ...(values.host !== undefined ? { host: values.host } : {}),
    ...(values['data-dir'] !== undefined ? { dataDir: values['data-dir'] } : {}),
    staticDir,
    env,
    demoFleet: simulatedDemoFleet,
  });
  console.log(`Gatehouse ${server.url}/ (data: ${server.config.dataDir})`);
  if (server.demo) printDemo(server.url, server.demo);
  const simulator = demoSimulator(server.context).status();
  if (simulator.running)
    console.log(`  ${simulator.agents} simulated agents running (stop or resize them from the Devices page)`);
  else if (server.config.demoAgents > 0 && server.config.seedDemo)
    console.warn(
      `gatehouse: the simulated agents did not start${simulator.lastError ? `: ${simulator.lastError}` : ''}`,
    );
  if (server.setupToken) {
    console.log(`First run: create the administrator at ${server.url}/setup#token=${server.setupToken}`);
    console.log(`Setup token: ${server.setupToken}`);
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`gatehouse: ${signal} received, shutting down`);
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(`gatehouse: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
