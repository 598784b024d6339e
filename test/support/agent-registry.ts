import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { scanAgentBinaries } from '../../server/modules/agent-versions/scan';
import { writeAgentBinary } from './agent-binaries';
import { captureLog, closedPort, useTempDirs } from './agent-versions';
import { signedToken } from './seed';
import { ADMIN, startServer, type TestServer } from './server';

// The agent version registry suites' world: a binary directory with five well-named builds and junk beside them,
// scanned at start by a server whose release feed points at a closed port, and a platform administrator. The
// bindings are live: a suite calls useRegistry() once at its top and reads them inside its tests.

export let server: TestServer;
export let binDir: string;
export let admin: string;
export let feedPort: number;

export function useRegistry(): void {
  const tempDir = useTempDirs();
  beforeAll(async () => {
    binDir = tempDir('gatehouse-bins-');
    builds.linuxOld = writeAgentBinary(binDir, '1.2.0', 'linux', 'amd64');
    builds.linuxNew = writeAgentBinary(binDir, '1.10.0', 'linux', 'amd64', Buffer.alloc(300_000, 7));
    builds.linuxArm = writeAgentBinary(binDir, '1.2.0', 'linux', 'arm64');
    builds.windows = writeAgentBinary(binDir, '1.9.0', 'windows', 'amd64');
    builds.darwinRc = writeAgentBinary(binDir, '2.0.0-rc.1', 'darwin', 'arm64');
    // Junk: not named as a build, a bad architecture, `.exe` on Linux, a bad version, a directory.
    writeFileSync(join(binDir, 'README.txt'), 'drop agent builds here\n');
    writeFileSync(join(binDir, 'gatehouse-agent-1.0.0-linux-x86'), 'x');
    writeFileSync(join(binDir, 'gatehouse-agent-1.0.0-linux-amd64.exe'), 'x');
    writeFileSync(join(binDir, 'gatehouse-agent-latest-linux-amd64'), 'x');
    mkdirSync(join(binDir, 'gatehouse-agent-1.0.0-linux-arm64'));
    feedPort = await closedPort();
    server = await startServer({
      env: {
        AGENT_BINARIES_DIR: binDir,
        AGENT_RELEASE_FEED_URL: `http://127.0.0.1:${feedPort}/repos/gatehouse/agent/releases/latest`,
      },
    });
    admin = await signedToken(server, ADMIN.email);
  });
  afterAll(async () => {
    await server.dispose();
  });
}

export const builds: Record<string, { path: string; checksum: string; size: number }> = {};

export const list = async () =>
  (await server.api.get('/agent-versions', admin)).body.data as Array<Record<string, any>>;
export const rescan = (log = captureLog().log) =>
  scanAgentBinaries({ db: server.context.db, config: server.config, log }, [binDir]);
