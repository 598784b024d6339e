import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The renderer's boundary rules (DESIGN §1) fire on violating code. Each case lints a snippet as if it were a
// file at `filePath` (the file need not exist), with the repository's own eslint.config.js.

const eslint = new ESLint({ cwd: resolve('.'), overrideConfigFile: resolve('eslint.config.js') });

async function problems(
  filePath: string,
  code: string,
): Promise<Array<{ ruleId: string | null; message: string }>> {
  const [result] = await eslint.lintText(code, { filePath: resolve(filePath) });
  return (result?.messages ?? []).map((m) => ({ ruleId: m.ruleId, message: m.message }));
}

async function rulesFired(filePath: string, code: string): Promise<Array<string | null>> {
  return (await problems(filePath, code)).map((p) => p.ruleId);
}

const BOUNDARY = 'gatehouse/renderer-boundaries';
const RESTRICTED = 'no-restricted-imports';
const SYNTAX = 'no-restricted-syntax';

describe('renderer boundaries', () => {
  it('a feature may not import another feature’s internals', async () => {
    const fired = await problems(
      'renderer/src/features/pam-policy/Fixture.tsx',
      "import { STATUS_LABEL } from '../approvals/format';\nexport const x = STATUS_LABEL;\n",
    );
    expect(fired.map((p) => p.ruleId)).toContain(BOUNDARY);
    expect(fired.find((p) => p.ruleId === BOUNDARY)?.message).toMatch(/internal of features\/approvals/);
    // From a nested folder too.
    expect(
      await rulesFired(
        'renderer/src/features/pam-policy/rules/Fixture.tsx',
        "import { x } from '../../devices/parts';\nexport const y = x;\n",
      ),
    ).toContain(BOUNDARY);
  });

  it('a feature may import another feature’s public surface (index.ts) and its own files', async () => {
    expect(
      await rulesFired(
        'renderer/src/features/pam-policy/Fixture.tsx',
        "import { STATUS_LABEL } from '../approvals';\nimport { VerdictPill } from './parts';\nexport const x = [STATUS_LABEL, VerdictPill];\n",
      ),
    ).not.toContain(BOUNDARY);
    expect(
      await rulesFired(
        'renderer/src/features/devices/Fixture.tsx',
        "import { FilterPanel } from '../filters/index';\nexport const x = FilterPanel;\n",
      ),
    ).not.toContain(BOUNDARY);
  });

  it('ui/ may not import a feature or app/', async () => {
    expect(
      await rulesFired(
        'renderer/src/ui/Fixture.tsx',
        "import { DevicesSection } from '../features/devices';\nexport const x = DevicesSection;\n",
      ),
    ).toContain(BOUNDARY);
    expect(
      await rulesFired(
        'renderer/src/ui/Fixture.tsx',
        "import { SECTIONS } from '../app/routes';\nexport const x = SECTIONS;\n",
      ),
    ).toContain(BOUNDARY);
  });

  it('ui/ may not use the data layer (API client, query cache, live socket)', async () => {
    for (const spec of ['../lib/api/client', '../lib/query', '../lib/live/socket']) {
      expect(
        await rulesFired(
          'renderer/src/ui/Fixture.tsx',
          `import { x } from '${spec}';\nexport const y = x;\n`,
        ),
        spec,
      ).toContain(BOUNDARY);
    }
    // Formatters and hooks are fine.
    expect(
      await rulesFired(
        'renderer/src/ui/Fixture.tsx',
        "import { formatCount } from '../lib/format';\nexport const x = formatCount;\n",
      ),
    ).not.toContain(BOUNDARY);
  });

  it('lib/ may not import a feature; a feature may not import app/', async () => {
    expect(
      await rulesFired(
        'renderer/src/lib/Fixture.ts',
        "import { x } from '../features/keys/shared';\nexport const y = x;\n",
      ),
    ).toContain(BOUNDARY);
    expect(
      await rulesFired(
        'renderer/src/features/home/Fixture.tsx',
        "import { SECTIONS } from '../../app/routes';\nexport const x = SECTIONS;\n",
      ),
    ).toContain(BOUNDARY);
  });

  it('the renderer may not import node:*, electron or server code other than the contract', async () => {
    expect(
      await rulesFired(
        'renderer/src/lib/Fixture.ts',
        "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n",
      ),
    ).toContain(RESTRICTED);
    expect(
      await rulesFired(
        'renderer/src/lib/Fixture.ts',
        "import { app } from 'electron';\nexport const x = app;\n",
      ),
    ).toContain(RESTRICTED);
    expect(
      await rulesFired(
        'renderer/src/features/devices/Fixture.ts',
        "import { createServer } from '../../../../server/index';\nexport const x = createServer;\n",
      ),
    ).toContain(RESTRICTED);
    expect(
      await rulesFired(
        'renderer/src/features/devices/Fixture.ts',
        "import type { DeviceSummary } from '../../../../server/contract';\nexport type X = DeviceSummary;\n",
      ),
    ).not.toContain(RESTRICTED);
    // The contract is data and types only (its own lint rule), so its constants may be imported as values.
    expect(
      await rulesFired(
        'renderer/src/features/devices/Fixture.ts',
        "import { DEVICE_ROLES } from '../../../../server/contract';\nexport const x = DEVICE_ROLES;\n",
      ),
    ).not.toContain(RESTRICTED);
    expect(
      await rulesFired(
        'renderer/src/features/devices/Fixture.ts',
        "import type { AuthContext } from '../../../../server/http/auth-context';\nexport type X = AuthContext;\n",
      ),
    ).not.toContain(RESTRICTED);
  });

  it('only lib/api/ reaches the untyped client; api.ts and lib/ call the contract by name; screens do neither', async () => {
    const untyped =
      "import { api } from '../../lib/api/client';\nexport const load = () => api<{ ok: true }>('/health');\n";
    const streamed =
      "import { apiResponse } from '../../lib/api/client';\nexport const load = () => apiResponse('/audit/export');\n";
    const named =
      "import { call } from '../../lib/api/endpoints';\nexport const load = () => call('GET /health');\n";
    // The untyped client: nowhere but lib/api/, not even in a feature's api.ts, where a path would be paired with
    // a type by hand.
    for (const file of ['renderer/src/features/home/api.ts', 'renderer/src/features/home/HomePage.tsx']) {
      expect(await rulesFired(file, untyped)).toContain(SYNTAX);
      expect(await rulesFired(file, streamed)).toContain(SYNTAX);
    }
    expect(
      await rulesFired(
        'renderer/src/lib/Fixture.ts',
        "import { api } from './api/client';\nexport const x = () => api<string>('/x');\n",
      ),
    ).toContain(SYNTAX);
    expect(
      await rulesFired(
        'renderer/src/lib/api/endpoints.ts',
        "import { api } from './client';\nexport const x = () => api<string>('/x');\n",
      ),
    ).not.toContain(SYNTAX);
    // The typed caller: in a feature's api.ts and lib/, never in a screen, a hook or app/.
    expect(await rulesFired('renderer/src/features/home/api.ts', named)).not.toContain(SYNTAX);
    expect(
      await rulesFired(
        'renderer/src/lib/Fixture.ts',
        "import { call } from './api/endpoints';\nexport const x = () => call('GET /health');\n",
      ),
    ).not.toContain(SYNTAX);
    expect(await rulesFired('renderer/src/features/home/HomePage.tsx', named)).toContain(SYNTAX);
    expect(await rulesFired('renderer/src/features/home/useThing.ts', named)).toContain(SYNTAX);
    expect(
      await rulesFired(
        'renderer/src/app/Fixture.tsx',
        "import { stream } from '../lib/api/endpoints';\nexport const x = () => stream('POST /audit/export', { body: {} });\n",
      ),
    ).toContain(SYNTAX);
  });
});
