// Lint rules also enforce the architecture boundaries of DESIGN §1, so a wrong import fails CI.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import path from 'node:path';

const electronBan = { name: 'electron', message: 'Only main/ and preload/ may import electron.' };

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
              group: ['**/renderer/**', '**/main/**', '**/preload/**', '**/agent-sim/**'],
              message: 'server/ stands alone.',
            },
          ],
        },
      ],
    },
  },
  {
    // The demo panel runs a simulated fleet in-process; the simulator still never imports server/.
    files: ['server/modules/demo/simulator.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronBan],
          patterns: [
            { group: ['**/renderer/**', '**/main/**', '**/preload/**'], message: 'server/ stands alone.' },
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
              group: ['**/server/**'],
              allowTypeImports: true,
              message: 'Only type imports of the API contract may cross from server/ into renderer/.',
            },
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
