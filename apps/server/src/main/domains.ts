/**
 * The modules of the server, found and ordered: every folder under domains/ and then gateways/ holds its module in
 * `<folder>.module.ts` (its default export, platform/domain-module.ts); the platform's health checks come first, the
 * domains in the order `orderModules` gives (each after the modules its `after` names, otherwise by name), then the
 * gateways: the app's WebSocket channels and the Binance-compatible API last (its own error body and hooks). That is
 * the order main/context.ts builds their services in, app.ts registers their routes in and the server processes start
 * their jobs and run their seeds in. A new domain is a new folder: no list here names it, and its services join the
 * context's type from its own module file (`DomainServices`).
 *
 * The folder names are read from the server's sources (src/ under the server root, there in every deployment); the
 * imports are a template of the folder name, which esbuild (scripts/build.mjs) bundles as a glob of every module file.
 */
import { machinesOf, orderModules, projectionsOf, pushesOf, type AppContext, type DomainModule } from '../platform/domain-module';
import health from '../platform/health/health.routes';
import type { PlatformContext } from '../platform/platform-context';
import { sourceFolders } from '../platform/config/server-root';

/** The module exported by default from `file` (a folder's `<folder>.module.ts`); throws, naming it, when it has none. */
function moduleOf(file: string, loaded: { default?: unknown }): DomainModule<AppContext> {
  const m = loaded.default as DomainModule<AppContext> | undefined;
  if (!m || typeof m.name !== 'string') throw new Error(`${file}: no default export of a domain module`);
  return m;
}

const [domainModules, gatewayModules] = await Promise.all([
  Promise.all(sourceFolders('domains').map(async (d) => moduleOf(`domains/${d}`, (await import(`../domains/${d}/${d}.module.ts`)) as { default?: unknown }))),
  Promise.all(
    sourceFolders('gateways').map(async (g) => moduleOf(`gateways/${g}`, (await import(`../gateways/${g}/${g}.module.ts`)) as { default?: unknown })),
  ),
]);

/** The platform's health checks, registered before every domain's routes. */
const healthModule: DomainModule<PlatformContext> = { name: 'health', routes: (ctx) => [health({ host: ctx.host, db: ctx.db })] };

/** Every module of a server process, in order: health, the domains (`orderModules`), the gateways (WebSocket, then the Binance API). */
export const DOMAINS: readonly DomainModule<AppContext>[] = [
  healthModule,
  ...orderModules(domainModules),
  // the gateways by name, the Binance API after the others
  ...gatewayModules.filter((m) => m.name !== 'binance'),
  ...gatewayModules.filter((m) => m.name === 'binance'),
];

/** The domains' projections, in the order of the list (what every engine host's projector writes). */
export const PROJECTIONS = projectionsOf(DOMAINS);

/**
 * The engine machines the domain modules bring beyond the core's own (`machine`), in the order of the list: every
 * process applying the journal is given the same (the embedded host, the scale-out engine process and its replicas).
 */
export const MACHINES = machinesOf(DOMAINS);

/** The domains' private WebSocket pushes, in the order of the list (what the app's WebSocket hub sends). */
export const PUSHES = pushesOf(DOMAINS);

/**
 * The URL of the module that exports every table (main/schema.ts), for `openDb`'s `schemaModule` (defined in
 * context-db.ts, which server.ts loads before the domains).
 */
export { SCHEMA_MODULE } from './context-db';
