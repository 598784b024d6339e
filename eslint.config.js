// Lint rules also enforce the architecture boundaries of DESIGN §1, so a wrong import fails CI.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import path from 'node:path';

const electronBan = { name: 'electron', message: 'Only main/ and preload/ may import electron.' };
/** Only lib/api/ reaches the untyped client: everything else calls the contract's endpoints by name. */
const UNTYPED_CLIENT_CALL = {
  selector: 'CallExpression[callee.name=/^(api|apiResponse)$/]',
  message: 'Call the contract through call() or stream() (lib/api/endpoints.ts), not the untyped client.',
};
const CONTRACT_ALONE =
  'server/contract is data and types only (the console bundles it): it imports no server code, and from a package only types.';
/** The top-level app/ folder (the composing entries), not any folder named app (renderer/src/app). */
const topLevelApp = '^(\\.\\./)+app/';

/**
 * DESIGN §1 inside the console (renderer/src): a feature imports another feature only through its index.ts
 * public surface; ui/ (the kit) and lib/ never import features/ or app/; ui/ does not use lib's data layer (API
 * client, query cache, live socket); features never import app/ (the route table imports them).
 */
const rendererSrc = path.resolve(import.meta.dirname, 'renderer/src');
const LIB_DATA = /^lib\/(api|live|query|queries|resource|lookups)(\/|\.|$)/;
const rendererBoundaries = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      featureInternals:
        "features/{{from}} imports '{{spec}}', an internal of features/{{to}}: import it from features/{{to}} (its index.ts), or move it to ui/ or lib/.",
      kitImportsFeature:
        "{{from}}/ is shared by every feature; it must not import features/ or app/ ('{{spec}}').",
      kitImportsData: "ui/ draws; it does not fetch: '{{spec}}' is lib's data layer (pass data in as props).",
      featureImportsApp: "A feature never imports app/ ('{{spec}}'): the route table imports the features.",
    },
  },
  create(context) {
    const own = path.relative(rendererSrc, context.filename).split(path.sep);
    if (own[0] === '..' || own.length < 2) return {};
    const [top, feature] = own;
    const check = (node, spec) => {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = path
        .relative(rendererSrc, path.resolve(path.dirname(context.filename), spec))
        .split(path.sep);
      if (target[0] === '..') return;
      const joined = target.join('/');
      const data = { from: top === 'features' ? feature : top, to: target[1], spec };
      if ((top === 'ui' || top === 'lib') && (target[0] === 'features' || target[0] === 'app'))
        context.report({ node, messageId: 'kitImportsFeature', data });
      else if (top === 'ui' && LIB_DATA.test(joined))
        context.report({ node, messageId: 'kitImportsData', data });
      else if (top === 'features' && target[0] === 'app')
        context.report({ node, messageId: 'featureImportsApp', data });
      else if (
        top === 'features' &&
        target[0] === 'features' &&
        target[1] !== feature &&
        target.length > 2 &&
        !(target.length === 3 && /^index(\.tsx?)?$/.test(target[2]))
      )
        context.report({ node, messageId: 'featureInternals', data });
    };
    const fromSource = (node) => node.source && check(node.source, node.source.value);
    return {
      ImportDeclaration: fromSource,
      ExportNamedDeclaration: fromSource,
      ExportAllDeclaration: fromSource,
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
    };
  },
};

/** Where server SQL may live: stores, the database layer, and backup (which copies the database as a whole). */
const SQL_HOMES = ['server/**/*store.ts', 'server/db/**', 'server/backup/**'];
const SQL_ONLY_IN_STORES = [
  {
    selector: "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(prepare|pragma)$/]",
    message: 'SQL lives in stores: move this statement into the module’s *store.ts.',
  },
  {
    // statement() and pagedQuery() (server/db) run SQL text too.
    selector: "CallExpression[callee.type='Identifier'][callee.name=/^(statement|pagedQuery)$/]",
    message: 'SQL lives in stores: move this query into the module’s *store.ts.',
  },
];
const TRANSACTIONS_AFTER_COMMIT = [
  {
    selector: "CallExpression[callee.type='MemberExpression'][callee.property.name='transaction']",
    message: 'Open transactions with transaction(db, fn) from server/db/after-commit.ts.',
  },
];
/**
 * Issue 17, one module idiom: server/modules/<name>/index.ts is a module's public surface. Other modules, the hubs,
 * the jobs, the bus, backup and server/http/app.ts import a module only through it; server/index.ts (the
 * composition root) may also import each module's route files, which index.ts leaves out. The request layer
 * (server/http/*) and server/context.ts sit beneath the modules, which import them, so they reach the module files
 * they need directly: going through a surface would import back into themselves.
 */
const serverModules = path.resolve(import.meta.dirname, 'server/modules');
const serverRoot = path.resolve(import.meta.dirname, 'server');
const ROUTE_FILE = /(^|\/|-)routes(\.ts)?$/;
const serverModuleBoundaries = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      moduleInternals:
        "'{{spec}}' is an internal of server/modules/{{to}}: import it from server/modules/{{to}} (its index.ts), or add it there.",
    },
  },
  create(context) {
    const own = path.relative(serverRoot, context.filename).split(path.sep).join('/');
    if (own.startsWith('..')) return {};
    const beneathModules = (own.startsWith('http/') && own !== 'http/app.ts') || own === 'context.ts';
    if (beneathModules) return {};
    const ownModule = own.startsWith('modules/') ? own.split('/')[1] : null;
    const check = (node, spec) => {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = path
        .relative(serverModules, path.resolve(path.dirname(context.filename), spec))
        .split(path.sep);
      if (target[0] === '..' || target.length < 2) return;
      const [to, ...rest] = target;
      if (to === ownModule) return;
      const inner = rest.join('/');
      if (/^index(\.ts)?$/.test(inner)) return;
      if (own === 'index.ts' && ROUTE_FILE.test(inner)) return;
      context.report({ node, messageId: 'moduleInternals', data: { spec, to } });
    };
    const fromSource = (node) => node.source && check(node.source, node.source.value);
    return {
      ImportDeclaration: fromSource,
      ExportNamedDeclaration: fromSource,
      ExportAllDeclaration: fromSource,
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
    };
  },
};

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronBan],
          patterns: [
            {
              group: ['**/renderer/**', '**/main/**', '**/preload/**'],
              message: 'server/ stands alone.',
            },
            { regex: topLevelApp, message: 'server/ stands alone: app/ composes it, never the reverse.' },
            {
              group: ['**/agent-sim/**'],
              message:
                'server/ never imports agent-sim/: the demo fleet is plugged in through ServerOptions.demoFleet (app/demo-fleet.ts).',
            },
          ],
        },
      ],
    },
  },
  {
    // The processes that compose server/ with agent-sim/ (headless serve, the desktop's server process). The
    // server process runs as an Electron utilityProcess or a Node child: it talks to main over its parent port.
    files: ['app/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'electron',
              message: 'app/ runs in Node or a utility process; it talks to main over its parent port.',
            },
          ],
          patterns: [
            {
              group: ['**/renderer/**', '**/main/**', '**/preload/**'],
              message:
                'app/ composes the server and the simulator; the desktop shell reaches it over the parent port.',
            },
          ],
        },
      ],
    },
  },
  {
    // Electron main: lifecycle, window, security, safeStorage. It forks the server process and speaks the
    // protocol in app/server-child-protocol.ts (types only); it never loads server, simulator or console code.
    files: ['main/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!electron$|node:|\\.)',
              message: 'main/ imports electron, node:* and its own files only.',
            },
            {
              // server/http/csp.ts is a constant without imports: the one console CSP that main's window sends too.
              regex: '(^|/)(agent-sim/|server/(?!http/csp$))',
              message:
                'main/ never loads server code: it forks app/server-child.ts (main/server-process.ts).',
            },
            {
              group: ['**/renderer/**', '**/preload/**'],
              message: 'main/ reaches the console only through its window.',
            },
            {
              regex: topLevelApp,
              allowTypeImports: true,
              message: 'main/ may import only the types of the server-process protocol from app/.',
            },
          ],
        },
      ],
    },
  },
  {
    // The sandboxed preload: one narrow contextBridge namespace (DESIGN §1), nothing else.
    files: ['preload/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'electron',
              allowImportNames: ['contextBridge', 'ipcRenderer'],
              message: 'preload/ uses only contextBridge and ipcRenderer from electron.',
            },
          ],
          patterns: [
            { regex: '^(?!electron$|\\.)', message: 'preload/ imports electron and its own files only.' },
            {
              group: ['**/server/**', '**/agent-sim/**', '**/renderer/**', '**/main/**'],
              message: 'preload/ stands alone: the page gets facts from it, never code from elsewhere.',
            },
            {
              regex: topLevelApp,
              message: 'preload/ stands alone: the page gets facts from it, never code from elsewhere.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['agent-sim/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronBan],
          patterns: [
            {
              group: ['**/server/**', '**/renderer/**', '**/main/**'],
              message: 'The simulator speaks only the public agent protocol; it never imports server/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: {
      'react-hooks': reactHooks,
      gatehouse: { rules: { 'renderer-boundaries': rendererBoundaries } },
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'gatehouse/renderer-boundaries': 'error',
      'no-restricted-imports': [
        'error',
        {
          paths: [electronBan],
          patterns: [
            { group: ['node:*'], message: 'The renderer runs in a sandboxed browser context.' },
            {
              group: ['**/main/**', '**/agent-sim/**'],
              message: 'The renderer talks to the server over HTTP and WebSocket only.',
            },
            {
              // The contract is data and types only (lint holds it to that, below): its constants are the
              // console's too. Anything else of the server's may cross only as types.
              group: ['**/server/**', '!**/server/contract', '!**/server/contract/**'],
              allowTypeImports: true,
              message: 'Only the API contract (server/contract) may cross from server/ into renderer/.',
            },
          ],
        },
      ],
      // Issue 17, one typed data layer: screens and hooks call the endpoint functions of their feature's api.ts,
      // which call the contract's endpoints through call()/stream() (lib/api/endpoints.ts); only lib/api/ itself
      // reaches the untyped client, so no path is paired with a type by hand.
      'no-restricted-syntax': [
        'error',
        UNTYPED_CLIENT_CALL,
        {
          selector: 'CallExpression[callee.name=/^(call|stream)$/]',
          message:
            "Call the API through a typed endpoint function in this feature's api.ts (or lib/), not here.",
        },
      ],
    },
  },
  {
    // Where the endpoint functions live: they call the contract's endpoints.
    files: ['renderer/src/features/*/api.ts', 'renderer/src/lib/**/*.{ts,tsx}'],
    ignores: ['renderer/src/lib/api/**'],
    rules: {
      'no-restricted-syntax': ['error', UNTYPED_CLIENT_CALL],
    },
  },
  {
    // The client and the typed caller themselves.
    files: ['renderer/src/lib/api/**'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['server/**/*.ts'],
    plugins: { 'gatehouse-server': { rules: { 'module-boundaries': serverModuleBoundaries } } },
    rules: { 'gatehouse-server/module-boundaries': 'error' },
  },
  {
    // Stores are the only place with SQL (issue 17): a statement is prepared or run only in a `*store.ts` file,
    // in server/db/ (the connection, migrations, pagedQuery) or in server/backup/ (which copies the database whole).
    // DESIGN §6, side effects after commit: transactions are opened only with transaction() from
    // server/db/after-commit.ts, whose commit runs the queued agent sends and bus deliveries (a bare
    // db.transaction() has no commit to wait for, so afterCommit, and with it the bus, refuses inside one).
    files: ['server/**/*.ts'],
    ignores: [...SQL_HOMES],
    rules: { 'no-restricted-syntax': ['error', ...SQL_ONLY_IN_STORES, ...TRANSACTIONS_AFTER_COMMIT] },
  },
  {
    // Stores and backup may hold SQL, and open transactions through transaction() as well.
    files: ['server/**/*store.ts', 'server/backup/**/*.ts'],
    ignores: ['server/db/**'],
    rules: { 'no-restricted-syntax': ['error', ...TRANSACTIONS_AFTER_COMMIT] },
  },
  {
    // The contract is bundled into the console as it is, so it is data and types only: it imports nothing but
    // itself (no server code, no package, no node:*).
    files: ['server/contract/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^\\.\\./', message: CONTRACT_ALONE },
            { regex: '^(?!\\.)', allowTypeImports: true, message: CONTRACT_ALONE },
          ],
        },
      ],
    },
  },
  {
    files: ['server/contract/*/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^\\.\\./\\.\\./', message: CONTRACT_ALONE },
            { regex: '^(?!\\.)', allowTypeImports: true, message: CONTRACT_ALONE },
          ],
        },
      ],
    },
  },
  {
    // Test helpers read arbitrary JSON response bodies.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  prettier,
);
