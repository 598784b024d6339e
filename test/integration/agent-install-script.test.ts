import { execFile } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAgentBinary } from '../support/agent-binaries';
import { startServer, type TestServer } from '../support/server';
import { useTempDirs } from '../support/agent-versions';

// GET /agents/install.sh (spec 3), run for real with sh against the server.

const tempDir = useTempDirs();

// ---------------------------------------------------------------------------------------------- install.sh

function run(
  command: string,
  args: string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { env: options.env, cwd: options.cwd, timeout: 20_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, stdout: stdout.toString(), stderr: stderr.toString() });
      },
    );
  });
}

describe('GET /agents/install.sh', () => {
  let server: TestServer;
  let binDir: string;
  let script: string;
  let fakeBin: string;
  const hasCurl = existsSync('/usr/bin/curl') || existsSync('/bin/curl');

  // The agent stand-in records each invocation, so the test sees exactly how the script enrolled it.
  const agentScript = (tag: string) => `#!/bin/sh\necho "${tag} $*" >> "$(dirname "$0")/invocations.log"\n`;

  beforeAll(async () => {
    binDir = tempDir('gatehouse-bins-');
    writeAgentBinary(binDir, '4.0.0', 'linux', 'amd64', agentScript('amd64'));
    writeAgentBinary(binDir, '4.0.0', 'darwin', 'arm64', agentScript('darwin-arm64'));
    server = await startServer({ env: { AGENT_BINARIES_DIR: binDir } });
    const res = await fetch(`${server.url}/api/v1/agents/install.sh`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/x-shellscript; charset=utf-8');
    script = join(tempDir('gatehouse-script-'), 'install.sh');
    writeFileSync(script, await res.text());
    // uname is replaced so the test decides which platform the script believes it runs on.
    fakeBin = tempDir('gatehouse-fakebin-');
    writeFileSync(
      join(fakeBin, 'uname'),
      '#!/bin/sh\ncase "$1" in -s) echo "${FAKE_KERNEL:-Linux}" ;; -m) echo "${FAKE_MACHINE:-x86_64}" ;; esac\n',
    );
    chmodSync(join(fakeBin, 'uname'), 0o755);
  });
  afterAll(async () => {
    await server.dispose();
  });

  const env = (extra: Record<string, string> = {}) => ({
    PATH: `${fakeBin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: tmpdir(),
    ...extra,
  });

  it('is valid POSIX sh that points at this server', async () => {
    const text = readFileSync(script, 'utf8');
    expect(text.startsWith('#!/bin/sh\n')).toBe(true);
    expect(text).toContain(`GATEHOUSE_ORIGIN='${server.url}'`);
    expect(await run('sh', ['-n', script])).toMatchObject({ code: 0, stderr: '' });
    expect(await run('dash', ['-n', script])).toMatchObject({ code: 0 });
    expect(await run('bash', ['--posix', '-n', script])).toMatchObject({ code: 0 });
  });

  it("refuses with the spec's message when only one of SERVER_URL and ENROLLMENT_KEY is given", async () => {
    const installDir = tempDir('gatehouse-install-');
    const cases: Array<[string[], Record<string, string>]> = [
      [['--server', server.url], {}],
      [['--enrollment-key', 'k'.repeat(64)], {}],
      [[], { SERVER_URL: server.url }],
      [[], { ENROLLMENT_KEY: 'k'.repeat(64) }],
    ];
    for (const [args, extra] of cases) {
      const res = await run('sh', [script, ...args, '--install-dir', installDir], { env: env(extra) });
      expect(res.code).toBe(1);
      expect(res.stderr.trim()).toBe(
        'gatehouse-install: SERVER_URL and ENROLLMENT_KEY must be provided together',
      );
    }
    expect(existsSync(join(installDir, 'gatehouse-agent'))).toBe(false);
    const unknown = await run('sh', [script, '--bogus'], { env: env() });
    expect(unknown).toMatchObject({
      code: 1,
      stderr: 'gatehouse-install: unknown option: --bogus (see --help)\n',
    });
  });

  it.runIf(hasCurl)(
    'downloads, verifies, installs and enrolls the agent, then installs its service',
    async () => {
      const installDir = join(tempDir('gatehouse-install-'), 'bin');
      const key = 'e'.repeat(64);
      const res = await run(
        'sh',
        [
          script,
          '--server',
          server.url,
          '--enrollment-key',
          key,
          '--enrollment-secret',
          's3cret',
          '--install-dir',
          installDir,
        ],
        { env: env() },
      );
      expect(res.stderr).toBe('');
      expect(res.code).toBe(0);
      expect(res.stdout).toContain(
        `Downloading the Gatehouse agent for linux/amd64 from ${server.url}/api/v1/agents/download/linux/amd64`,
      );
      expect(res.stdout).toContain('Checksum verified');
      const installed = join(installDir, 'gatehouse-agent');
      expect(readFileSync(installed, 'utf8')).toBe(agentScript('amd64'));
      expect(readFileSync(join(installDir, 'invocations.log'), 'utf8')).toBe(
        `amd64 enroll ${key} --server ${server.url} --enrollment-secret s3cret\namd64 service install\n`,
      );
    },
  );

  it.runIf(hasCurl)('picks the build for the detected platform and passes --quiet through', async () => {
    const installDir = tempDir('gatehouse-install-');
    const res = await run('sh', [script, '--quiet', '--install-dir', installDir], {
      env: env({
        FAKE_KERNEL: 'Darwin',
        FAKE_MACHINE: 'arm64',
        SERVER_URL: server.url,
        ENROLLMENT_KEY: 'abc',
      }),
    });
    expect(res).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(join(installDir, 'invocations.log'), 'utf8')).toBe(
      `darwin-arm64 enroll abc --server ${server.url} --quiet\ndarwin-arm64 service install --quiet\n`,
    );
  });

  it.runIf(hasCurl)(
    'installs without enrolling when neither SERVER_URL nor ENROLLMENT_KEY is given',
    async () => {
      const installDir = tempDir('gatehouse-install-');
      const res = await run('sh', [script, '--install-dir', installDir], { env: env() });
      expect(res.code).toBe(0);
      expect(res.stdout).toContain('the agent is installed but not enrolled');
      expect(existsSync(join(installDir, 'gatehouse-agent'))).toBe(true);
      expect(existsSync(join(installDir, 'invocations.log'))).toBe(false);
    },
  );

  it.runIf(hasCurl)(
    'refuses a download whose bytes do not match the checksum, installing nothing',
    async () => {
      // The file changes on disk after registration: the server still announces the registered checksum.
      writeAgentBinary(binDir, '4.0.0', 'linux', 'amd64', `${agentScript('amd64')}# tampered\n`);
      try {
        const installDir = tempDir('gatehouse-install-');
        const res = await run(
          'sh',
          [script, '--server', server.url, '--enrollment-key', 'abc', '--install-dir', installDir],
          {
            env: env(),
          },
        );
        expect(res.code).toBe(1);
        expect(res.stderr).toMatch(
          /^gatehouse-install: checksum mismatch: expected [0-9a-f]{64}, got [0-9a-f]{64}; nothing was installed\n$/,
        );
        expect(existsSync(join(installDir, 'gatehouse-agent'))).toBe(false);
      } finally {
        writeAgentBinary(binDir, '4.0.0', 'linux', 'amd64', agentScript('amd64'));
      }
    },
  );

  it.runIf(hasCurl)('refuses when the announced checksum is not the one the operator pinned', async () => {
    const installDir = tempDir('gatehouse-install-');
    const res = await run('sh', [script, '--checksum', 'F'.repeat(64), '--install-dir', installDir], {
      env: env(),
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`not the pinned ${'f'.repeat(64)}; nothing was installed`);
    expect(existsSync(join(installDir, 'gatehouse-agent'))).toBe(false);
  });

  it.runIf(hasCurl)('stops with a clear message when the server has no build for the platform', async () => {
    const res = await run('sh', [script, '--install-dir', tempDir('gatehouse-install-')], {
      env: env({ FAKE_MACHINE: 'aarch64' }),
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`download failed: ${server.url}/api/v1/agents/download/linux/arm64`);
    const unsupported = await run('sh', [script], { env: env({ FAKE_MACHINE: 'i686' }) });
    expect(unsupported.stderr).toBe(
      'gatehouse-install: unsupported architecture: i686 (agents are built for amd64 and arm64)\n',
    );
  });
});
