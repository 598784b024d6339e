import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerChildStart } from '../../app/server-child-protocol';
import { ServerHost, ServerStartError, type ServerChildHandle } from '../../main/server-host';
import { consoleSocketFor } from '../support/console-client';
import { ROOT } from '../support/server-process';
import { ADMIN, ApiClient } from '../support/server';

// The server started the way the desktop starts it (issue 17): a forked process running app/server-child.ts,
// driven over its parent port by main's own ServerHost. Electron cannot run here, so the same entry is forked with
// Node's child_process.fork (IPC channel instead of Electron's parentPort); everything else is the desktop path:
// options and unsealed secrets over the port, generated secrets sent back to be sealed before use, ready with the
// port, the console reached over HTTP and its socket, and a graceful stop.

const SHUTDOWN_TIMEOUT_MS = 10_000;
const BOOTSTRAP = { BOOTSTRAP_ADMIN_EMAIL: ADMIN.email, BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password };

interface Forked {
  child: ChildProcess;
  host: ServerHost;
  /** What the child asked main to seal, in order. */
  kept: Array<Record<string, string>>;
  /** Exit codes reported as unexpected (a crash). */
  crashes: number[];
}

const running: Forked[] = [];
const dirs: string[] = [];

/** Node's ChildProcess as the handle ServerHost drives (Electron's UtilityProcess fits it as is). */
function nodeHandle(child: ChildProcess): ServerChildHandle {
  return {
    postMessage: (message) => {
      child.send(message);
    },
    on: (event: 'message' | 'exit', listener: (arg: never) => void) =>
      event === 'message'
        ? child.on('message', listener as (message: unknown) => void)
        : // Like Electron's exit code: a signal counts as 128 + its number would, here simply as 1.
          child.on('exit', (code) => (listener as (code: number) => void)(code ?? 1)),
    kill: () => child.kill(),
  };
}

function forkServer(env: Record<string, string>, keep?: (secrets: Record<string, string>) => void): Forked {
  const child = fork(join(ROOT, 'app', 'server-child.ts'), [], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const forked: Forked = { child, kept: [], crashes: [], host: undefined as unknown as ServerHost };
  forked.host = new ServerHost(nodeHandle(child), {
    keepSecrets: (secrets) => {
      keep?.(secrets);
      forked.kept.push(secrets);
    },
    onUnexpectedExit: (code) => forked.crashes.push(code),
  });
  running.push(forked);
  return forked;
}

function options(dataDir: string, overrides: Partial<ServerChildStart> = {}): ServerChildStart {
  return {
    dataDir,
    host: '127.0.0.1',
    port: 0,
    portFallback: false,
    staticDir: null,
    secrets: null,
    ...overrides,
  };
}

/** SQLite removes its write-ahead log when the last connection closes: no -wal file means the database was closed. */
const closedCleanly = (dataDir: string) => !existsSync(join(dataDir, 'gatehouse.db-wal'));

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-child-'));
  dirs.push(dir);
  return dir;
}

afterEach(async () => {
  for (const forked of running.splice(0)) await forked.host.stop(SHUTDOWN_TIMEOUT_MS);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the server process the desktop forks', () => {
  it('starts over the port, hands back generated secrets, serves the console and stops gracefully', async () => {
    const dataDir = tempDir();
    const first = forkServer(BOOTSTRAP);
    const started = await first.host.start(options(dataDir));
    expect(started.setupToken).toBeNull(); // the bootstrap administrator exists
    // First start: the keys were generated and handed to main to seal; the child wrote no key file itself.
    expect(first.kept).toHaveLength(1);
    expect(Object.keys(first.kept[0]!).sort()).toEqual(['APP_ENCRYPTION_KEY', 'JWT_SECRET']);
    expect(readdirSync(dataDir).filter((f) => f.startsWith('secrets'))).toEqual([]);

    const url = `http://localhost:${started.port}`;
    expect((await fetch(`${url}/api/v1/health`)).status).toBe(200);
    const api = new ApiClient(url);
    const login = await api.login();
    expect(login.status).toBe(200);
    const token = login.body.accessToken as string;
    const live = await consoleSocketFor(url, token);
    expect(await live.next((m) => m.type === 'connected')).toMatchObject({ type: 'connected' });

    expect(await first.host.stop(SHUTDOWN_TIMEOUT_MS)).toEqual({ graceful: true, killed: false, code: 0 });
    expect(await live.closed).toBeGreaterThan(0);
    expect(first.crashes).toEqual([]);
    expect(closedCleanly(dataDir)).toBe(true);

    // Main hands the kept secrets to the next start: nothing is generated, and a session of the first run is
    // still valid (same JWT secret).
    const second = forkServer(BOOTSTRAP);
    const again = await second.host.start(options(dataDir, { secrets: first.kept[0]! }));
    expect(second.kept).toEqual([]);
    const me = await new ApiClient(`http://localhost:${again.port}`).get('/auth/me', token);
    expect(me.status).toBe(200);
  }, 60_000);

  it('uses no key it could not keep: a failed seal stops the start before the database is opened', async () => {
    const dataDir = tempDir();
    const forked = forkServer(BOOTSTRAP, () => {
      throw new Error('keychain locked');
    });
    await expect(forked.host.start(options(dataDir))).rejects.toThrow(
      new ServerStartError('The generated secrets could not be sealed: keychain locked'),
    );
    expect((await forked.host.stop(SHUTDOWN_TIMEOUT_MS)).code).toBe(1);
    expect(readdirSync(dataDir)).toEqual([]);
  }, 30_000);

  it('reports a start that fails (port taken) with the reason, and the process exits', async () => {
    const blocker = createHttpServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const forked = forkServer(BOOTSTRAP);
      await expect(forked.host.start(options(tempDir(), { port }))).rejects.toThrow(/EADDRINUSE/);
      expect((await forked.host.stop(SHUTDOWN_TIMEOUT_MS)).graceful).toBe(false);
    } finally {
      blocker.close();
    }
  }, 30_000);

  it('reports a process that dies after it was ready as unexpected, once; a first run hands out its setup token', async () => {
    const dataDir = tempDir();
    const forked = forkServer({});
    const started = await forked.host.start(options(dataDir));
    expect(started.setupToken).toMatch(/\S{16,}/);
    const exited = new Promise((resolve) => forked.child.once('exit', resolve));
    forked.child.kill('SIGKILL');
    await exited;
    expect(forked.crashes).toHaveLength(1);
    expect(closedCleanly(dataDir)).toBe(false); // the contrast: a killed server leaves its log behind
  }, 30_000);

  it('stops when its parent goes away (the IPC channel closes)', async () => {
    const dataDir = tempDir();
    const forked = forkServer(BOOTSTRAP);
    await forked.host.start(options(dataDir));
    const exited = new Promise<number | null>((resolve) => forked.child.once('exit', resolve));
    forked.child.disconnect();
    expect(await exited).toBe(0);
    expect(closedCleanly(dataDir)).toBe(true);
  }, 30_000);
});
