/**
 * The interface of a domain module (`domains/<domain>/<domain>.module.ts`) and of the gateways: what the domain
 * registers in a server process. The composition root (main/domains.ts) lists the modules once; app.ts registers
 * their routes in list order, and the embedded server and each gateway start their jobs and run their seeds from the
 * same list, so a new domain adds its module to that list instead of editing the app, the server and the gateway.
 *
 * `Needs` is what the domain takes from the process's context (its services, config, log, clock), declared by the
 * domain as a structural type; the composition root's context must satisfy every module's needs (checked by the
 * compiler where the list is typed).
 */
import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';

/** Stops what a module's `startJobs` started. */
export type StopJobs = () => void | Promise<void>;

/** What one domain registers. */
export interface DomainModule<Needs> {
  /** The domain's name: its folder under domains/ (or gateways/). */
  readonly name: string;
  /** Its route modules (Fastify plugins reading `app.ctx`), registered in this order. */
  readonly routes?: readonly FastifyPluginAsync[];
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
}

/** Starts the jobs of `modules` in list order; the answer stops them in reverse order. */
export async function startDomainJobs<C>(ctx: C, modules: readonly DomainModule<C>[]): Promise<() => Promise<void>> {
  const stops: StopJobs[] = [];
  for (const m of modules) if (m.startJobs) stops.push(await m.startJobs(ctx));
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
