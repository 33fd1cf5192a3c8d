// One lint setup for the repository. It enforces the import rules of ARCHITECTURE.md (section 1, convention 2):
// the core imports nothing of ours and does no I/O (no node:*, no clock, no randomness, no float parsing);
// the api package imports nothing of ours; the web app never imports server code.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';

const noOurs = (except = []) => ['@exchange/*', '../../apps/*', '../../packages/*'].filter((p) => !except.includes(p));

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      '**/drizzle/**',
      'coverage/**',
      'test-results/**',
      'playwright-report/**',
      'apps/web/android/**',
      'apps/web/ios/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.property.name='only'][callee.object.name=/^(it|test|describe)$/]", message: 'Leftover .only' },
      ],
    },
  },
  {
    files: ['packages/core/src/**/*.ts', 'packages/money/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'fs', 'path', 'crypto', 'os', 'child_process', 'net', 'http', 'https', 'zlib', 'worker_threads'],
              message: 'The core does no I/O.',
            },
            {
              group: ['@exchange/*', '!@exchange/money', 'fastify', 'drizzle-orm', 'pg', '@electric-sql/*', 'react', 'react-dom'],
              message: 'The core imports nothing of ours but the money module, and no frameworks.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'No process in the core: configuration comes in as arguments.' },
        { name: 'parseFloat', message: 'No floating point on money in the core.' },
        { name: 'Number', message: 'No Number() in the core: money is bigint.' },
        { name: 'Date', message: 'No clock in the core: time comes with each command.' },
        { name: 'setTimeout', message: 'No timers in the core.' },
        { name: 'setInterval', message: 'No timers in the core.' },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'No randomness in the core: pass a seeded PRNG.' },
        { object: 'Number', property: 'parseFloat', message: 'No floating point on money in the core.' },
      ],
    },
  },
  {
    files: ['packages/money/src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: noOurs(), message: 'The money module imports nothing of ours.' }] }] },
  },
  {
    files: ['packages/api/src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: noOurs(), message: 'api imports nothing of ours.' }] }] },
  },
  {
    files: ['packages/chain/**/*.{ts,mjs,cjs}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: noOurs(), message: 'chain imports only npm libraries, nothing of ours.' }] }] },
  },
  {
    files: ['apps/admin/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@exchange/server', '@exchange/core', '**/apps/server/**', '**/apps/web/**', 'node:*'],
              message: 'The operator console imports only @exchange/api and @exchange/money of ours, never server or web code.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@exchange/server', '**/apps/server/**', 'node:*'], message: 'The web app never imports server code.' }] },
      ],
    },
  },
  // Type-aware rules (each file's own tsconfig, found by the project service): a promise nobody awaits or catches
  // loses its rejection (an unhandled rejection, or an error the caller never sees), and a promise handed where a
  // void callback is expected runs unawaited. React Router's navigate() may return a promise its router settles
  // itself; a React event attribute's handler may be async (its errors reach the mutation or query that owns them).
  {
    files: [
      'apps/server/src/**/*.ts',
      'apps/server/test/**/*.ts',
      'packages/core/src/**/*.ts',
      'packages/core/test/**/*.ts',
      'packages/chain/src/**/*.ts',
      'packages/api/src/**/*.ts',
      'packages/money/src/**/*.ts',
      'apps/web/src/**/*.{ts,tsx}',
      'apps/admin/src/**/*.{ts,tsx}',
    ],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'react-router', name: ['NavigateFunction', 'navigate', 'useNavigate'] }] },
      ],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  // Hooks misuse (conditional calls, stale effect dependencies) is a runtime bug in the two React apps; only these two rules, not the plugin's React Compiler set.
  {
    files: ['apps/web/src/**/*.{ts,tsx}', 'apps/admin/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
);
