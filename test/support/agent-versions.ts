import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll } from 'vitest';
import type { TestServer } from './server';

// Small helpers of the agent-version suites (test/integration/agent-versions-*.test.ts, agent-install-script):
// temporary directories removed after the suite, a port nothing listens on, a captured log, raw downloads.

/** Returns a maker of temporary directories, all removed once the suite ends. */
export function useTempDirs(): (prefix: string) => string {
  const tempDirs: string[] = [];
  afterAll(() => {
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  });
  return (prefix) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    tempDirs.push(dir);
    return dir;
  };
}

/** A port nothing listens on: bound, then released. */
export async function closedPort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A pino logger whose lines land in `lines`. */
export function captureLog() {
  const lines: Array<{ level: number; msg: string; [k: string]: unknown }> = [];
  const log = pino({ level: 'debug' }, { write: (s: string) => void lines.push(JSON.parse(s)) });
  return { log, lines, warnings: () => lines.filter((l) => l.level === 40) };
}

export async function fetchRaw(server: TestServer, path: string, init: RequestInit = {}) {
  const res = await fetch(`${server.url}/api/v1${path}`, { redirect: 'manual', ...init });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}
