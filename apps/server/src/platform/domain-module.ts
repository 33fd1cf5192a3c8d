/**
 * The interface of a domain module (`domains/<domain>/<domain>.module.ts`) and of the gateways: what the domain
 * registers in a server process. The composition root (main/domains.ts) lists the modules once; app.ts registers
 * their routes in list order, and the embedded server and each gateway start their jobs and run their seeds from the
 * same list, so a new domain adds its module to that list instead of editing the app, the server and the gateway.
 *
 * `Needs` is what the domain takes from the process's context (the platform's parts and other domains' services),
 * declared by the domain as a structural type; the composition root's context must satisfy every module's needs
 * (checked by the compiler where the list is typed). `Provides` is what its `create` adds to the context: its services,
 * built from the platform and the services of the modules before it in the list (a service needed from a later module
 * is read lazily, e.g. `security: () => ctx.security`). The context's type is the platform's and every module's
 * `Provides` (main/context.ts), so a new domain adds its services without editing a list of them.
 */
import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import { retentionOf, startRetentionJob, type RetentionJobContext, type RetentionRule } from './db/retention';
import type { DomainProjection } from './engine-host/projection';
import type { DomainPushes } from './shared/private-push';

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
  for (const m of modules) {
    if (!m.create) continue;
    const started = performance.now();
    Object.assign(ctx, await m.create(ctx as never));
    timings?.set(m.name, Math.round(performance.now() - started));
  }
  return ctx as C;
}

/** The context a list of modules builds: the fields every module's `create` provides, together. */
export type ProvidedBy<L extends readonly unknown[]> = UnionToIntersection<
  { [K in keyof L]: L[K] extends { create?: (ctx: never) => infer R } ? Awaited<R> : object }[number]
>;
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

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
