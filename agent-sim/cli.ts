import { parseArgs } from 'node:util';
import { DEFAULT_AGENT_VERSION } from './agent';
import { Fleet, formatStats } from './fleet';
import { FleetProcesses } from './fleet-processes';
import { DEFAULT_SCENARIO, getScenario, scenarioNames } from './scenarios';

const scenarioHelp = scenarioNames()
  .map((name) => `      ${name.padEnd(16)}${getScenario(name)?.description ?? ''}`)
  .join('\n');

// `npm run agent-sim -- --server URL --enrollment-key KEY [--count N] [--scenario NAME] [--heartbeat-seconds S]
// [--seed N]` (DESIGN §2). Runs one or many simulated agents in this process, deterministically per seed, and
// prints a one-line status every 10 s. `--scenario pam|pam-load` adds privileged-access requests (pam.ts). Speaks only the public agent protocol (DESIGN §3); never imports server/.

const USAGE = `Usage: npm run agent-sim -- --server URL --enrollment-key KEY [options]

  --server URL              the Gatehouse server, e.g. http://localhost:4600
  --enrollment-key KEY      enrollment key (not needed when --state holds every agent's credentials)
  --enrollment-secret S     the server-wide enrollment secret, when the server has one
  --count N                 how many agents (default 1)
  --processes N             split the fleet over N worker processes (default 1; ten thousand agents want 4 or
                            more); not with --state
  --scenario NAME           what the fleet does (default ${DEFAULT_SCENARIO}):
${scenarioHelp}
  --heartbeat-seconds S     heartbeat interval (default: what the server says)
  --seed N                  which machines: the same seed gives the same fleet (default 1)
  --domain NAME             the organization's Windows domain the machines' users and groups belong to
                            (default CONTOSO)
  --state FILE              keep credentials in FILE so a restart brings back the same devices
  --agent-version V         version a freshly enrolled agent runs (default ${DEFAULT_AGENT_VERSION})
  --reenroll                enroll again when the server refuses saved credentials (default: stop that agent)
  --status-seconds S        status line interval (default 10)

Every agent answers actuate_elevation / revoke_elevation (time-boxed local admin grants held in memory, gone
when the simulator stops). With --scenario pam or pam-load the agents also report elevation requests
(POST /agents/:id/elevation-requests): signed installers, unsigned tools from Downloads, technicians' admin
consoles and AI tool actions; the status line then counts the server's answers and the grants.`;

function fail(message: string): never {
  console.error(`agent-sim: ${message}`);
  process.exit(2);
}

function positiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) fail(`--${name} must be a positive whole number (got "${raw}")`);
  return n;
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        server: { type: 'string' },
        'enrollment-key': { type: 'string' },
        'enrollment-secret': { type: 'string' },
        count: { type: 'string' },
        processes: { type: 'string' },
        scenario: { type: 'string' },
        'heartbeat-seconds': { type: 'string' },
        seed: { type: 'string' },
        domain: { type: 'string' },
        state: { type: 'string' },
        'agent-version': { type: 'string' },
        reenroll: { type: 'boolean' },
        'status-seconds': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    fail(`${(err as Error).message}\n${USAGE}`);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (!values.server) fail(`--server is required\n${USAGE}`);
  if (!values['enrollment-key'] && !values.state)
    fail(`--enrollment-key is required (or --state with saved agents)\n${USAGE}`);
  let server: string;
  try {
    const url = new URL(values.server);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    server = url.origin;
  } catch {
    fail(`--server must be an http(s) URL (got "${values.server}")`);
  }
  const count = positiveInt('count', values.count, 1);
  const processes = positiveInt('processes', values.processes, 1);
  if (processes > 1 && values.state)
    fail('--state keeps one fleet per file: it cannot be combined with --processes');
  const seed = positiveInt('seed', values.seed, 1);
  const domain = values.domain;
  if (domain !== undefined && !/^[A-Za-z0-9][A-Za-z0-9-]{0,14}$/.test(domain))
    fail(`--domain must be 1 to 15 letters, digits or dashes (got "${domain}")`);
  const statusSeconds = positiveInt('status-seconds', values['status-seconds'], 10);
  const heartbeatSeconds =
    values['heartbeat-seconds'] === undefined
      ? undefined
      : positiveInt('heartbeat-seconds', values['heartbeat-seconds'], 60);
  const scenario = values.scenario ?? DEFAULT_SCENARIO;
  if (!getScenario(scenario)) fail(`unknown scenario "${scenario}" (known: ${scenarioNames().join(', ')})`);

  const health = await fetch(`${server}/api/v1/health`).catch((err: unknown) =>
    fail(`cannot reach ${server}: ${(err as { cause?: { code?: string } }).cause?.code ?? String(err)}`),
  );
  const { version } = (await health.json().catch(() => ({}))) as { version?: string };
  console.log(
    `agent-sim: server ${server} (Gatehouse ${version ?? 'unknown'}), ${count} agent(s)${processes > 1 ? ` in ${processes} processes` : ''}, seed ${seed}, scenario ${scenario}`,
  );

  let reported = 0;
  const shared = {
    server,
    enrollmentKey: values['enrollment-key'],
    enrollmentSecret: values['enrollment-secret'],
    count,
    seed,
    domain: domain?.toUpperCase(),
    scenario,
    heartbeatSeconds,
    agentVersion: values['agent-version'],
    reenrollOnUnauthorized: values.reenroll ?? false,
  };
  // Several processes report sums only: their status line carries the last error instead of a line per problem.
  const fleet =
    processes > 1
      ? new FleetProcesses({ ...shared, processes })
      : new Fleet({
          ...shared,
          statePath: values.state,
          onEvent: (agent, event) => {
            // The first few problems are worth a line each; after that the status line carries the counts.
            if ((event.kind === 'failed' || event.kind === 'stopped') && reported++ < 5)
              console.error(`agent-sim: ${agent.identity.hostname}: ${event.reason}`);
            if (event.kind === 'updated')
              console.log(`agent-sim: ${agent.identity.hostname} updated ${event.from} -> ${event.to}`);
          },
        });
  fleet.start();

  const status = setInterval(() => {
    const stats = fleet.stats();
    console.log(`agent-sim: ${formatStats(stats)}`);
    if (stats.running === 0) {
      console.error(
        `agent-sim: no agent is running${stats.lastError ? ` (last error: ${stats.lastError})` : ''}`,
      );
      void shutdown(1);
    }
  }, statusSeconds * 1000);

  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    clearInterval(status);
    await fleet.stop();
    console.log(`agent-sim: stopped (${formatStats(fleet.stats())})`);
    process.exit(code);
  };
  process.on('SIGINT', () => {
    if (stopping) process.exit(130); // a second Ctrl-C does not wait
    console.log('agent-sim: stopping (Ctrl-C again to quit at once)');
    void shutdown(0);
  });
  process.on('SIGTERM', () => void shutdown(0));
}

void main();
