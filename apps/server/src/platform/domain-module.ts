/**
 * The interface of a domain module (`domains/<domain>/<domain>.module.ts`) and of the gateways: what the domain
 * registers in a server process. The composition root (main/domains.ts) finds the modules (each folder's module file,
 * its default export) and orders them (`orderModules`: a module after those named in its `after`); app.ts registers
 * their routes in that order, and the embedded server and each gateway start their jobs and run their seeds from the
 * same list, so a new domain adds its folder and edits no list.
 *
 * `Needs` is what the domain takes from the process's context (the platform's parts and other domains' services),
 * declared by the domain as a structural type. `Provides` is what its `create` adds to the context: its services,
 * declared in `DomainServices` by the module's own file (TypeScript's declaration merging), built from the platform
 * and the services of the modules before it (a service needed from a module later in the order is read lazily, e.g.
 * `security: () => ctx.security`). The context's type, `AppContext`, is the platform's and every module's services;
 * each module file checks that it meets the module's needs (`export default earnModule satisfies
 * DomainModule<AppContext>`), so a module that needs a service no module provides fails to compile.
 */
import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import { retentionOf, startRetentionJob, type RetentionJobContext, type RetentionRule } from './db/retention';
import type { EngineMachine } from '@exchange/core';
import type { DomainProjection } from './engine-host/projection';
import type { DomainPushes } from './shared/private-push';
import type { PlatformContext } from './platform-context';

/**
 * The services of every domain module, by the name they have in the context. Empty here: each module's file declares
 * its own into it (`declare module '../../platform/domain-module' { interface DomainServices { earn: EarnService } }`),
 * so the context's type follows from the modules found, with no list of them.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging in the module files
export interface DomainServices {}

/** The context of a server process: the platform and the services of every domain module. */
export type AppContext = PlatformContext & DomainServices;

/** Stops what a module's `startJobs` started. */
export type StopJobs = () => void | Promise<void>;

/**
 * A module's routes built from the context. Declared through a method's type, so that a module typed over its own
 * context still fits the list of every module (a method's parameter is bivariant, as in `DomainPushes['source']`).
 */
type RoutesOfContext<Ctx> = { build(ctx: Ctx): readonly FastifyPluginAsync[] }['build'];

/** What one domain registers. */
export interface DomainModule<Needs, Provides extends object = object> {
  /** The domain's name: its folder under domains/ (or gateways/). */
  readonly name: string;
  /**
   * The modules (by name) whose services this module's `create` reads at once: they are built before it
   * (`orderModules`). A service read only later (at a request, from a lazy `() => ctx.x`) needs no entry. Building
   * the context fails, naming both, when a `create` reads a service that is not built yet.
   */
  readonly after?: readonly string[];
  /**
   * Builds the domain's services (and anything else it sets up at start, e.g. a listener on the hooks) from the
   * context built so far; the answer's fields join the context. A service that opens resources pushes its close on
   * `ctx.closers`.
   */
  readonly create?: (ctx: Needs) => Provides | Promise<Provides>;
  /**
   * Its route plugins, registered in this order (app.ts, on the completed context): a function of the context that
   * hands each route file's factory exactly the services its routes use
   * (`(ctx) => [earnRoutes({ earn: ctx.earn })]`): a route file's default export takes those services and answers its
   * Fastify plugin, named as the factory (Fastify names a plugin by its function's name in its plugin tree and in a
   * start timeout's error). The shared session checks are not services handed here: main/app.ts decorates the app
   * with them (`app.requireAuth`, `app.requireOperator`) before it registers the routes.
   */
  readonly routes?: RoutesOfContext<Needs & Provides>;
  /**
   * Starts its jobs in a server process (the embedded server, and every gateway of the scale-out mode: each job
   * decides from the config whether it runs in this process, e.g. only where the chain jobs run).
   */
  readonly startJobs?: (ctx: Needs) => StopJobs | Promise<StopJobs>;
  /**
   * Writes what the domain needs on a first start, after the app listens (e.g. the demo's merchant or savings
   * products: each seed decides from the config whether it applies). Run by the embedded server only.
   */
  readonly seed?: (ctx: Needs) => Promise<unknown>;
  /**
   * The tables it projects the engine's events into and how it makes their rows (platform/engine-host/projection.ts):
   * the engine host's projector writes them with every other domain's, by each table's rule.
   */
  readonly projection?: DomainProjection;
  /**
   * Its engine state machine, when the core does not list it itself (@exchange/core machine.ts: the machine's folder
   * in packages/core/src declares its commands, events, rejection codes and reads by declaration merging): every
   * engine host, the scale-out engine process and its replicas are given it (main/domains.ts `MACHINES`).
   */
  readonly machine?: EngineMachine;
  /** Its private WebSocket pushes (platform/shared/private-push.ts), sent by the app's WebSocket hub. */
  readonly pushes?: DomainPushes<Needs & Provides>;
  /** Which of its rows may be deleted once old (platform/db/retention.ts; declared beside its tables), run by the platform's retention job. */
  readonly retention?: readonly RetentionRule[];
}

/** The route plugins of `module` over the completed context `ctx`, in its order (none when it has no routes). */
export function routePluginsOf<C extends object>(module: DomainModule<C>, ctx: C): readonly FastifyPluginAsync[] {
  return module.routes?.(ctx) ?? [];
}

/** The private pushes of `modules`, in their order (what the app's WebSocket hub sends). */
export function pushesOf(modules: readonly object[]): DomainPushes[] {
  // Each `source` reads its module's service from the context, which holds every module's (main/context.ts).
  return modules.flatMap((m) => ('pushes' in m && m.pushes ? [m.pushes as DomainPushes] : []));
}

/** The engine machines of `modules`, in their order (what every engine host and replica is given). */
export function machinesOf(modules: readonly object[]): EngineMachine[] {
  return modules.flatMap((m) => ('machine' in m && m.machine ? [m.machine as EngineMachine] : []));
}

/** The projections of `modules`, in their order (what the engine host's projector is given). */
export function projectionsOf(modules: readonly object[]): DomainProjection[] {
  return modules.flatMap((m) => ('projection' in m && m.projection ? [m.projection as DomainProjection] : []));
}

/**
 * Builds the services of `modules` in list order onto `ctx` (each module's `create` sees the platform and the
 * services of the modules before it) and answers the completed context. `timings`, when given, gets each module's
 * `create` time in ms (where a slow start goes).
 */
export async function createDomainServices<C extends object>(
  ctx: object,
  modules: readonly DomainModule<never, object>[],
  timings?: Map<string, number>,
): Promise<C> {
  // While a module's `create` runs, reading a field the context does not have yet is an error that names the module
  // (its `after` misses the module of that service); once every service is built, reads pass through (lazy reads).
  let creating: string | undefined;
  const guarded = new Proxy(ctx, {
    get(target, key, receiver) {
      if (creating !== undefined && typeof key === 'string' && !(key in target))
        throw new Error(`module ${creating}: its create read ctx.${key}, which no module before it provides (name that module in its after)`);
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  try {
    for (const m of modules) {
      if (!m.create) continue;
      const started = performance.now();
      creating = m.name;
      Object.assign(ctx, await m.create(guarded as never));
      timings?.set(m.name, Math.round(performance.now() - started));
    }
  } finally {
    creating = undefined;
  }
  return guarded as C;
}

/**
 * The modules in the order they are built, their routes registered and their jobs started: each after the modules
 * named in its `after`, and otherwise by name (Kahn's algorithm taking the first name ready), so the order does not
 * depend on how the modules were found. Throws on an `after` naming no module, or a circle of them.
 */
export function orderModules<M extends { readonly name: string; readonly after?: readonly string[] }>(modules: readonly M[]): M[] {
  const byName = new Map(modules.map((m) => [m.name, m]));
  for (const m of modules) for (const a of m.after ?? []) if (!byName.has(a)) throw new Error(`module ${m.name}: after names ${a}, which is no module`);
  const done = new Set<string>();
  const out: M[] = [];
  const waiting = [...modules].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  while (waiting.length > 0) {
    const i = waiting.findIndex((m) => (m.after ?? []).every((a) => done.has(a)));
    if (i < 0) throw new Error(`modules ${waiting.map((m) => m.name).join(', ')}: their after lists make a circle`);
    const [m] = waiting.splice(i, 1);
    out.push(m!);
    done.add(m!.name);
  }
  return out;
}

/**
 * Starts the jobs of `modules` in list order, then the platform's retention job over their `retention` rules
 * (platform/db/retention.ts: it decides from the config whether it runs in this process); the answer stops them in
 * reverse order.
 */
export async function startDomainJobs<C extends RetentionJobContext>(ctx: C, modules: readonly DomainModule<C>[]): Promise<() => Promise<void>> {
  const stops: StopJobs[] = [];
  for (const m of modules) if (m.startJobs) stops.push(await m.startJobs(ctx));
  stops.push(startRetentionJob(ctx, retentionOf(modules)));
  return async () => {
    for (const stop of stops.reverse()) await stop();
  };
}

/** Runs the seeds of `modules` in list order; a failed seed is logged with its domain's name and the others still run. */
export async function seedDomains<C>(ctx: C, modules: readonly DomainModule<C>[], log: FastifyBaseLogger): Promise<void> {
  for (const m of modules) {
    if (!m.seed) continue;
    try {
      await m.seed(ctx);
    } catch (err) {
      log.warn({ err, domain: m.name }, `${m.name}: seed failed`);
    }
  }
}
