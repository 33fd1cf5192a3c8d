// One lint setup for the repository. It enforces the import rules of ARCHITECTURE.md (section 1, convention 2):
// the core imports nothing of ours and does no I/O (no node:*, no clock, no randomness, no float parsing);
// the api package imports nothing of ours; the web app never imports server code.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import boundaries from 'eslint-plugin-boundaries';

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
  // The floors of the web app and the console (ARCHITECTURE.md section 10): shared -> features -> app, each feature
  // on its own (a feature imports only itself and shared), nothing imports app. Checked on every relative import.
  {
    files: ['apps/web/src/**/*.{ts,tsx}', 'apps/admin/src/**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': [
        { type: 'app', pattern: 'apps/*/src/app', capture: ['project'] },
        { type: 'feature', pattern: 'apps/*/src/features/*', capture: ['project', 'feature'] },
        { type: 'shared', pattern: 'apps/*/src/shared', capture: ['project'] },
      ],
      'boundaries/include': ['apps/web/src/**/*', 'apps/admin/src/**/*'],
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          policies: [
            { from: { element: { type: 'app' } }, allow: [{ to: { element: { types: { anyOf: ['app', 'feature', 'shared'] } } } }] },
            {
              from: { element: { type: 'feature' } },
              allow: [
                { to: { element: { type: 'shared' } } },
                { to: { element: { type: 'feature', captured: { feature: '{{ from.element.captured.feature }}' } } } },
              ],
            },
            { from: { element: { type: 'shared' } }, allow: [{ to: { element: { type: 'shared' } } }] },
          ],
        },
      ],
    },
  },
  // The server's floors (ARCHITECTURE.md sections 1 and 14): the platform imports no domain, gateway or composition
  // root; a domain imports the platform and other domains (which of their files: main/domain-folders.test.ts), never a
  // gateway or main/; a gateway imports the platform and the domains; only main/ and the tools import main/. Tests
  // may build the whole app (an API test starts the server its folder belongs to).
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/**/*.test.ts'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': [
        { type: 'platform', pattern: 'apps/server/src/platform' },
        { type: 'domain', pattern: 'apps/server/src/domains/*', capture: ['domain'] },
        { type: 'gateway', pattern: 'apps/server/src/gateways' },
        { type: 'main', pattern: 'apps/server/src/main' },
        { type: 'tools', pattern: 'apps/server/src/tools' },
      ],
      'boundaries/include': ['apps/server/src/**/*'],
      'import/resolver': { node: { extensions: ['.ts', '.js'] } },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          policies: [
            { from: { element: { type: 'platform' } }, allow: [{ to: { element: { type: 'platform' } } }] },
            { from: { element: { type: 'domain' } }, allow: [{ to: { element: { types: { anyOf: ['platform', 'domain'] } } } }] },
            { from: { element: { type: 'gateway' } }, allow: [{ to: { element: { types: { anyOf: ['platform', 'domain', 'gateway'] } } } }] },
            {
              from: { element: { types: { anyOf: ['main', 'tools'] } } },
              allow: [{ to: { element: { types: { anyOf: ['platform', 'domain', 'gateway', 'main', 'tools'] } } } }],
            },
          ],
        },
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
