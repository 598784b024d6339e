import { parseArgs } from 'node:util';
import { agentIdentity } from './identity';

// `npm run agent-sim -- --server URL --enrollment-key KEY [--count N] [--scenario NAME] [--heartbeat-seconds S]
// [--seed N]` (DESIGN §2). Speaks only the public agent protocol (DESIGN §3) over HTTP; it never imports server/.

export const AGENT_VERSION = '1.0.0';

const USAGE = `Usage: npm run agent-sim -- --server URL --enrollment-key KEY [--count N] [--scenario NAME]
                         [--heartbeat-seconds S] [--seed N]`;

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
  const { values } = parseArgs({
    options: {
      server: { type: 'string' },
      'enrollment-key': { type: 'string' },
      count: { type: 'string' },
      scenario: { type: 'string' },
      'heartbeat-seconds': { type: 'string' },
      seed: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (!values.server || !values['enrollment-key'])
    fail(`--server and --enrollment-key are required\n${USAGE}`);
  const server = values.server.replace(/\/+$/, '');
  const count = positiveInt('count', values.count, 1);
  const seed = positiveInt('seed', values.seed, 1);

  const health = await fetch(`${server}/api/v1/health`).catch((err: unknown) =>
    fail(`cannot reach ${server}: ${String(err)}`),
  );
  const { version } = (await health.json()) as { version?: string };
  console.log(
    `agent-sim: server ${server} (Gatehouse ${version ?? 'unknown'}), ${count} agent(s), seed ${seed}`,
  );

  let enrolled = 0;
  for (let index = 0; index < count; index++) {
    const identity = agentIdentity(seed, index);
    const res = await fetch(`${server}/api/v1/agents/enroll`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        enrollmentKey: values['enrollment-key'],
        agentVersion: AGENT_VERSION,
        ...identity,
      }),
    });
    if (res.status === 404)
      fail(`${server} does not offer agent enrollment (POST /api/v1/agents/enroll answered 404)`);
    const body = (await res.json().catch(() => ({}))) as {
      error?: string;
      reason?: string;
      deviceId?: string;
    };
    if (!res.ok)
      fail(
        `enrolling ${identity.hostname} failed: ${res.status} ${body.error ?? ''} ${body.reason ?? ''}`.trim(),
      );
    enrolled++;
    console.log(`agent-sim: enrolled ${identity.hostname} as device ${body.deviceId}`);
  }
  console.log(`agent-sim: ${enrolled} agent(s) enrolled`);
}

void main();
