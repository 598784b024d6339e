import { z } from 'zod';
import { loadConfig } from '../server/config';
import { createServer, type RunningServer, type SecretStore, type ServerOptions } from '../server/index';
import { loadSecrets } from '../server/secrets';
import { simulatedDemoFleet } from './demo-fleet';
import { connectToParent, type ParentPort } from './parent-port';
import type { ServerChildStart, ToServerChild } from './server-child-protocol';

// The desktop's server process: Electron main forks this entry as a utilityProcess (out/main/server-child.js), so
// express, synchronous SQLite, both hubs, the jobs and the demo fleet run off the main thread that draws the
// window. It receives its options over the parent port, answers ready or failed, and closes gracefully on `stop`
// or when the parent goes away. The protocol is in ./server-child-protocol.ts.

const startOptions = z.object({
  dataDir: z.string().min(1),
  host: z.string().min(1),
  port: z.number().int().min(0).max(65535),
  portFallback: z.boolean(),
  staticDir: z.string().nullable(),
  nativeBinding: z.string().optional(),
  secrets: z.record(z.string(), z.string()).nullable(),
}) satisfies z.ZodType<ServerChildStart>;

const message = z.discriminatedUnion('type', [
  z.object({ type: z.literal('start'), options: startOptions }),
  z.object({ type: z.literal('secrets-kept') }),
  z.object({ type: z.literal('secrets-not-kept'), message: z.string() }),
  z.object({ type: z.literal('stop') }),
]) satisfies z.ZodType<ToServerChild>;

type SecretsAnswer = Extract<ToServerChild, { type: 'secrets-kept' | 'secrets-not-kept' }>;

const parent = connectToParent();
let server: RunningServer | null = null;
let starting = false;
let stopping = false;
let secretsAnswer: ((answer: SecretsAnswer) => void) | null = null;

/** Asks main to seal freshly generated secrets and waits for its answer. */
function keepSecrets(port: ParentPort, secrets: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    secretsAnswer = (answer) => {
      secretsAnswer = null;
      if (answer.type === 'secrets-kept') resolve();
      else reject(new Error(`The generated secrets could not be sealed: ${answer.message}`));
    };
    void port.send({ type: 'keep-secrets', secrets });
  });
}

/**
 * The secrets main unsealed, in memory. On a first start the server generates what is missing; that happens
 * here, before createServer, so main has sealed the new keys before anything is encrypted or signed with them
 * (a key lost after use would make MFA secrets and sessions unreadable).
 */
async function secretStoreFor(options: ServerChildStart, serverOptions: ServerOptions): Promise<SecretStore> {
  let stored = options.secrets;
  const generated: { secrets: Record<string, string> | null } = { secrets: null };
  const store: SecretStore = {
    read: () => stored,
    write: (secrets) => {
      stored = { ...secrets };
      generated.secrets = stored;
    },
  };
  loadSecrets(loadConfig(process.env, serverOptions), store);
  if (generated.secrets) await keepSecrets(parent, generated.secrets);
  // createServer reads them back; a later write (none is expected) still reaches main's sealed store.
  store.write = (secrets) => {
    stored = { ...secrets };
    void parent.send({ type: 'keep-secrets', secrets: stored });
  };
  return store;
}

async function start(options: ServerChildStart): Promise<void> {
  const serverOptions: ServerOptions = {
    dataDir: options.dataDir,
    host: options.host,
    port: options.port,
    portFallback: options.portFallback,
    staticDir: options.staticDir,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
    demoFleet: simulatedDemoFleet,
  };
  const secretStore = await secretStoreFor(options, serverOptions);
  server = await createServer({ ...serverOptions, secretStore });
  if (stopping) return; // stop arrived while starting: stop() closes what just started
  await parent.send({ type: 'ready', port: server.port, setupToken: server.setupToken });
}

async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  // Nobody will answer a pending keep-secrets now; the start gives up instead of waiting forever.
  secretsAnswer?.({ type: 'secrets-not-kept', message: 'the server process is stopping' });
  if (starting) return; // the start finishes first, then closes (see the start handler)
  await closeAndExit();
}

async function closeAndExit(): Promise<void> {
  try {
    await server?.close();
    process.exit(0);
  } catch (error) {
    console.error('gatehouse: error while closing the server:', error);
    process.exit(1);
  }
}

async function fail(error: unknown): Promise<void> {
  const detail = error instanceof Error ? error.message : String(error);
  if (error instanceof Error && error.stack) console.error(error.stack);
  await parent.send({ type: 'failed', message: detail });
  process.exit(1);
}

parent.onMessage((raw) => {
  const parsed = message.safeParse(raw);
  if (!parsed.success) {
    console.error(`gatehouse: server process ignored a malformed message: ${parsed.error.message}`);
    return;
  }
  const msg = parsed.data;
  if (msg.type === 'start') {
    if (starting || server) return; // one server per process
    starting = true;
    start(msg.options).then(
      () => {
        starting = false;
        if (stopping) void closeAndExit();
      },
      (error: unknown) => void fail(error),
    );
  } else if (msg.type === 'stop') {
    void stop();
  } else {
    secretsAnswer?.(msg);
  }
});
parent.onParentGone(() => void stop());
// Ctrl-C in the terminal of `npm start` reaches the whole process group; main runs the quit and sends `stop`, so
// dying here first would look like a crash. A SIGTERM aimed at this process alone is a request to stop.
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => void stop());
