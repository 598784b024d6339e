import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The desktop's boundaries (issue 17) are lint rules in eslint.config.js; each one is proven here on a snippet
// linted as if it lived at a path inside main/, preload/, server/ or app/ (the files need not exist). Only the
// import rule is looked at: unused imports in the snippets are beside the point.

const ROOT = join(import.meta.dirname, '..', '..');
const eslint = new ESLint({ cwd: ROOT });

/** The no-restricted-imports messages for `code` linted as `path` (relative to the repository). */
async function boundaryErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, path) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

async function expectRefused(path: string, code: string, reason: RegExp): Promise<void> {
  const errors = await boundaryErrors(path, code);
  expect(errors, `${path}: ${code}`).toHaveLength(1);
  expect(errors[0]).toMatch(reason);
}

async function expectAllowed(path: string, code: string): Promise<void> {
  expect(await boundaryErrors(path, code), `${path}: ${code}`).toEqual([]);
}

describe('main/ boundaries', () => {
  const file = 'main/lint-probe.ts';

  it('allows electron, node:*, its own files, the console CSP constant and the protocol types', async () => {
    await expectAllowed(
      file,
      [
        "import { app, utilityProcess } from 'electron';",
        "import { join } from 'node:path';",
        "import { requireNativeBinding } from './native';",
        "import { CONSOLE_CSP } from '../server/http/csp';",
        "import type { ServerChildStart } from '../app/server-child-protocol';",
      ].join('\n'),
    );
  });

  it('refuses server code, the simulator, the console, the preload and packages', async () => {
    await expectRefused(file, "import { createServer } from '../server/index';", /never loads server code/);
    await expectRefused(file, "import type { Config } from '../server/config';", /never loads server code/);
    await expectRefused(file, "import { Fleet } from '../agent-sim/fleet';", /never loads server code/);
    await expectRefused(file, "import { App } from '../renderer/src/app/App';", /only through its window/);
    await expectRefused(
      file,
      "import type { GatehouseBridge } from '../preload/api';",
      /only through its window/,
    );
    await expectRefused(file, "import express from 'express';", /electron, node:\* and its own files only/);
  });

  it('takes only types from app/: the server process is forked, never loaded', async () => {
    await expectRefused(
      file,
      "import { simulatedDemoFleet } from '../app/demo-fleet';",
      /only the types of the server-process protocol/,
    );
  });
});

describe('preload/ boundaries', () => {
  const file = 'preload/lint-probe.ts';

  it('allows contextBridge and ipcRenderer from electron, and its own files', async () => {
    await expectAllowed(
      file,
      [
        "import { contextBridge, ipcRenderer } from 'electron';",
        "import type { GatehouseBridge } from './api';",
      ].join('\n'),
    );
  });

  it('refuses the rest of electron, node:*, packages and every other folder', async () => {
    await expectRefused(file, "import { shell } from 'electron';", /only contextBridge and ipcRenderer/);
    await expectRefused(file, "import { readFileSync } from 'node:fs';", /electron and its own files only/);
    await expectRefused(file, "import { z } from 'zod';", /electron and its own files only/);
    for (const target of ['../server/contract', '../renderer/src/lib/api', '../main/native', '../app/serve'])
      await expectRefused(file, `import { x } from '${target}';`, /preload\/ stands alone/);
  });
});

describe('server/ boundaries', () => {
  it('never imports agent-sim/, with no exception for the demo module', async () => {
    for (const file of ['server/modules/demo/simulator.ts', 'server/index.ts']) {
      const depth = file.split('/').length - 1;
      const up = '../'.repeat(depth);
      await expectRefused(file, `import { Fleet } from '${up}agent-sim/fleet';`, /never imports agent-sim/);
      await expectRefused(
        file,
        `import type { ElevationStats } from '${up}agent-sim/pam';`,
        /never imports agent-sim/,
      );
    }
  });

  it('never imports electron or the entries that compose it', async () => {
    await expectRefused('server/index.ts', "import { app } from 'electron';", /Only main\/ and preload\//);
    await expectRefused(
      'server/index.ts',
      "import { simulatedDemoFleet } from '../app/demo-fleet';",
      /stands alone/,
    );
    await expectRefused('server/index.ts', "import { x } from '../main/native';", /stands alone/);
  });

  it('takes the demo fleet through its own interface', async () => {
    await expectAllowed(
      'server/modules/demo/simulator.ts',
      "import type { DemoFleetLauncher } from './fleet';\nimport { z } from 'zod';",
    );
  });
});

describe('app/ boundaries', () => {
  const file = 'app/lint-probe.ts';

  it('composes server/ with agent-sim/', async () => {
    await expectAllowed(
      file,
      "import { createServer } from '../server/index';\nimport { Fleet } from '../agent-sim/fleet';",
    );
  });

  it('never imports electron or the desktop shell: it talks to main over its parent port', async () => {
    await expectRefused(file, "import { app } from 'electron';", /parent port/);
    await expectRefused(
      file,
      "import { forkServerProcess } from '../main/server-process';",
      /over the parent port/,
    );
    await expectRefused(file, "import { x } from '../preload/api';", /over the parent port/);
  });
});
