// Lint rules also enforce the architecture boundaries of DESIGN §1, so a wrong import fails CI.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

const electronBan = { name: 'electron', message: 'Only main/ and preload/ may import electron.' };

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
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
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
