/**
 * Builds the server for `npm start`: esbuild bundles src/main/server.ts, the database worker (src/platform/db/db-worker.ts)
 * and the tables it imports by URL (src/main/schema.ts, main/domains.ts SCHEMA_MODULE) with our workspace packages (@exchange/core, @exchange/api: TypeScript sources) into dist/bin/*.js; every npm
 * dependency stays an import resolved from node_modules at run time (native addons, PGlite's WebAssembly files).
 *
 * The code finds the migrations, the seed data and the server root by walking up from its own location to the folder
 * with drizzle/ and package.json (src/platform/config/server-root.ts), so the bundles in dist/bin and the sources at
 * any depth resolve the same places. Usage: node scripts/build.mjs
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const started = performance.now();

/** Bare imports stay external except our workspace packages, which Node cannot load as TypeScript. */
const externalDeps = {
  name: 'external-deps',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@exchange/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/**
 * @exchange/chain finds its dev node's files (packages/chain/devnode) from its own location: its sources keep their
 * own `import.meta.url` in the bundle instead of the bundle's (which would point at dist/bin).
 */
const chainModuleUrl = {
  name: 'chain-module-url',
  setup(b) {
    b.onLoad({ filter: /[\\/]packages[\\/]chain[\\/]src[\\/][^\\/]+\.ts$/ }, async (args) => ({
      contents: (await fs.readFile(args.path, 'utf8')).replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
      loader: 'ts',
      resolveDir: path.dirname(args.path),
    }));
  },
};

await build({
  absWorkingDir: root,
  entryPoints: { server: 'src/main/server.ts', 'db-worker': 'src/platform/db/db-worker.ts', schema: 'src/main/schema.ts' },
  outdir: 'dist/bin',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [externalDeps, chainModuleUrl],
});
console.log(`server built into ${path.join(root, 'dist', 'bin')} in ${Math.round(performance.now() - started)} ms`);
