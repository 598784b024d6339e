import { spawn, type ChildProcess } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

// The server as `npm run serve` runs it (`app/serve.ts` under Node with tsx), in its own OS process: for
// tests that must kill it outright (the crash suite) and for benchmarks that read its memory from /proc and keep
// the simulated fleet off its event loop.

export const ROOT = join(import.meta.dirname, '..', '..');

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  /** `http://localhost:<port>` (a Host the server accepts). */
  url: string;
  /** `${url}/api/v1` */
  api: string;
  /** The last few kilobytes the process wrote to stderr, for failure messages. */
  stderrTail(): string;
}

/** A port that was free a moment ago (the kernel picks it; the probe is closed before the server binds). */
export async function freePort(): Promise<number> {
  const probe = createHttpServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const STDERR_TAIL = 8192;

/**
 * Starts `app/serve.ts` on `dataDir` and resolves once /health answers. `port` restarts a server where its
 * agents expect it; otherwise a free port is taken. The caller's `env` goes over the current environment.
 * `bundle` runs the built out/main/serve.js in plain Node instead, as `npm run serve` does (the caller builds it).
 */
export async function startServerProcess(
  dataDir: string,
  options: {
    env?: Record<string, string>;
    port?: number;
    readyTimeoutMs?: number;
    bundle?: boolean;
    /** Node's own flags, before the entry (`--cpu-prof` is not allowed in NODE_OPTIONS). */
    nodeArgs?: string[];
  } = {},
): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const entry = options.bundle ? ['out/main/serve.js'] : ['--import', 'tsx', 'app/serve.ts'];
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), ...entry, '--port', String(port), '--data-dir', dataDir],
    {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, LOG_LEVEL: 'warn', ...options.env },
    },
  );
  let tail = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    tail = (tail + chunk.toString()).slice(-STDERR_TAIL);
  });
  const url = `http://localhost:${port}`;
  const server: ServerProcess = { child, port, url, api: `${url}/api/v1`, stderrTail: () => tail };
  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`server exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${tail}`);
    const up = await fetch(`${server.api}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return server;
    await new Promise((r) => setTimeout(r, 100));
  }
  await killServerProcess(server);
  throw new Error(`server did not answer /health in time:\n${tail}`);
}

/** Sends `signal` and waits for the process to be gone (SIGKILL: no shutdown code runs, as in a crash). */
export async function killServerProcess(
  server: ServerProcess,
  signal: NodeJS.Signals = 'SIGKILL',
): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill(signal);
  await exited;
}

/** A graceful stop (SIGTERM: the server closes its sockets and database). */
export const stopServerProcess = (server: ServerProcess): Promise<void> =>
  killServerProcess(server, 'SIGTERM');
