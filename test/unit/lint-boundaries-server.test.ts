import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The server's boundary rules fire on violating code. Each case lints a snippet as if it were a file at `filePath`
// (the file need not exist), with the repository's own eslint.config.js.

const eslint = new ESLint({ cwd: resolve('.'), overrideConfigFile: resolve('eslint.config.js') });

async function messages(filePath: string, code: string, rule = 'no-restricted-syntax'): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(filePath) });
  return (result?.messages ?? []).filter((m) => m.ruleId === rule).map((m) => m.message);
}

const MODULES = 'gatehouse-server/module-boundaries';
const importing = (spec: string) => `import { x } from '${spec}';\nexport const y = x;\n`;
const boundary = (filePath: string, spec: string) => messages(filePath, importing(spec), MODULES);

const PREPARE =
  "import type { Db } from '../../db/connection';\nexport const f = (db: Db) => db.prepare('SELECT 1').get();\n";
const STATEMENT =
  "import { statement, type Db } from '../../db/connection';\nexport const f = (db: Db) => statement(db, 'SELECT 1').get();\n";
const PAGED =
  "import { pagedQuery } from '../../db/paged';\nimport type { Db } from '../../db/connection';\nexport const f = (db: Db) => pagedQuery(db, { select: '*', from: 't', orderBy: 'id', page: { page: 1, limit: 1 } });\n";
const PRAGMA =
  "import type { Db } from '../db/connection';\nexport const f = (db: Db) => db.pragma('optimize');\n";
const BARE_TX =
  "import type { Db } from '../../db/connection';\nexport const f = (db: Db) => db.transaction(() => 1)();\n";

describe('server: SQL only in stores', () => {
  it('a module file may not prepare, run statement() or pagedQuery()', async () => {
    for (const code of [PREPARE, STATEMENT, PAGED]) {
      expect(await messages('server/modules/users/fixture.ts', code)).toEqual([
        expect.stringMatching(/SQL lives in stores/),
      ]);
    }
  });

  it('neither may the request layer, the jobs or the composition root', async () => {
    expect(await messages('server/http/fixture.ts', PRAGMA)).toEqual([
      expect.stringMatching(/SQL lives in stores/),
    ]);
    expect(await messages('server/jobs/fixture.ts', PRAGMA)).toEqual([
      expect.stringMatching(/SQL lives in stores/),
    ]);
    expect(await messages('server/fixture.ts', PRAGMA.replace('../db', './db'))).toEqual([
      expect.stringMatching(/SQL lives in stores/),
    ]);
  });

  it('stores, server/db and server/backup may hold SQL', async () => {
    expect(await messages('server/modules/users/fixture-store.ts', PREPARE)).toEqual([]);
    expect(await messages('server/modules/pam/fixture-store.ts', STATEMENT)).toEqual([]);
    expect(await messages('server/db/fixture.ts', PRAGMA)).toEqual([]);
    expect(await messages('server/backup/fixture.ts', PRAGMA)).toEqual([]);
  });
});

describe('server: transactions through transaction()', () => {
  it('a bare db.transaction() is refused anywhere in server/, stores and backup included', async () => {
    for (const file of [
      'server/modules/pam/fixture.ts',
      'server/modules/users/fixture-store.ts',
      'server/hub/fixture.ts',
      'server/jobs/fixture.ts',
      'server/http/fixture-store.ts',
      'server/backup/fixture.ts',
    ]) {
      expect(await messages(file, BARE_TX), file).toEqual([expect.stringMatching(/transaction\(db, fn\)/)]);
    }
  });

  it('server/db/ (where transaction() itself is built) may open one', async () => {
    expect(await messages('server/db/fixture.ts', BARE_TX)).toEqual([]);
  });

  it('both rules apply together outside stores', async () => {
    expect(
      await messages('server/modules/devices/fixture.ts', PREPARE + BARE_TX.split('\n')[1]!),
    ).toHaveLength(2);
  });
});

describe('server: modules are reached through their index.ts', () => {
  it('a module may not import another module’s internals', async () => {
    expect(await boundary('server/modules/pam/fixture.ts', '../devices/access')).toEqual([
      expect.stringMatching(/internal of server\/modules\/devices/),
    ]);
    // From a nested folder too.
    expect(await boundary('server/modules/pam/policy/fixture.ts', '../../agents/device-store')).toHaveLength(
      1,
    );
  });

  it('a module may import another module’s index.ts and its own files', async () => {
    expect(await boundary('server/modules/pam/fixture.ts', '../devices')).toEqual([]);
    expect(await boundary('server/modules/pam/fixture.ts', '../devices/index')).toEqual([]);
    expect(await boundary('server/modules/pam/policy/fixture.ts', '../store')).toEqual([]);
  });

  it('the hubs, the jobs and http/app.ts go through index.ts as well', async () => {
    expect(await boundary('server/hub/fixture.ts', '../modules/agents/command-store')).toHaveLength(1);
    expect(await boundary('server/jobs/fixture.ts', '../modules/pam/enforcement')).toHaveLength(1);
    expect(await boundary('server/http/app.ts', '../modules/users/store')).toHaveLength(1);
    expect(await boundary('server/jobs/fixture.ts', '../modules/pam')).toEqual([]);
  });

  it('the composition root may import route files, and nothing else inside a module', async () => {
    expect(await boundary('server/index.ts', './modules/pam/routes')).toEqual([]);
    expect(await boundary('server/index.ts', './modules/pam/policy/routes')).toEqual([]);
    expect(await boundary('server/index.ts', './modules/demo/simulator-routes')).toEqual([]);
    expect(await boundary('server/index.ts', './modules/pam/enforcement')).toHaveLength(1);
  });

  it('the request layer beneath the modules reaches the files it needs directly', async () => {
    expect(await boundary('server/http/fixture.ts', '../modules/tenancy/access-store')).toEqual([]);
    expect(await boundary('server/context.ts', './modules/users/store')).toEqual([]);
  });
});

describe('server: the contract is data and types only', () => {
  const IMPORTS = 'no-restricted-imports';
  it('a contract file may not import server code, or a value from a package or node:*', async () => {
    expect(
      await messages('server/contract/fixture.ts', importing('../http/auth-context'), IMPORTS),
    ).toHaveLength(1);
    expect(await messages('server/contract/fixture.ts', importing('zod'), IMPORTS)).toHaveLength(1);
    expect(
      await messages('server/contract/endpoints/fixture.ts', importing('../../db/connection'), IMPORTS),
    ).toHaveLength(1);
    expect(
      await messages('server/contract/endpoints/fixture.ts', importing('node:fs'), IMPORTS),
    ).toHaveLength(1);
  });

  it('it may import the rest of the contract, and types from a package', async () => {
    expect(
      await messages(
        'server/contract/fixture.ts',
        "import type { X } from '@simplewebauthn/server';\nexport type Y = X;\n",
        IMPORTS,
      ),
    ).toEqual([]);
    expect(await messages('server/contract/fixture.ts', importing('./common'), IMPORTS)).toEqual([]);
    expect(await messages('server/contract/endpoints/fixture.ts', importing('../common'), IMPORTS)).toEqual(
      [],
    );
    expect(await messages('server/contract/endpoints/fixture.ts', importing('./endpoint'), IMPORTS)).toEqual(
      [],
    );
  });
});
