/**
 * The process's start in the order that keeps it answerable: the HTTP port is opened first, before the heavy modules
 * are loaded and before the database, the engine's recovery and the app, so a supervisor's liveness probe (/healthz)
 * hears the process from its first second, and /readyz says which phase the start is in (503) until the app takes
 * over the same listening socket (200 from then on, platform/health/health.routes.ts). Anything else asked during the
 * start is answered 503 service_unavailable with Retry-After, never a refused connection.
 *
 * server.ts runs `startServer` with the real phases; the test (boot.test.ts) runs it with a deliberately slow one.
 */
import http from 'node:http';
import { errorText } from '@exchange/api';

/** The phases of a start, in order, as /readyz names them while starting. */
export type StartPhase = 'modules' | 'context' | 'app' | 'serving';

/** Retry-After (s) of the answers given while starting. */
const RETRY_AFTER_S = 2;

/** The HTTP server of a start: listening before the app exists; `serve` hands its requests to the app. */
export interface StartupServer {
  /** The listening server (the app's too, once served: Fastify's `serverFactory` returns it). */
  readonly server: http.Server;
  /** The phase /readyz reports while starting. */
  phase: StartPhase;
  /** From now on every request (and WebSocket upgrade) goes to `handler` (Fastify's request handler). */
  serve(handler: http.RequestListener): void;
  /** Closes the listener and every open connection. */
  close(): Promise<void>;
}

/** A JSON answer of the starting server. */
function answer(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...(status === 503 ? { 'retry-after': String(RETRY_AFTER_S) } : {}),
  });
  res.end(text);
}

/**
 * How long the server keeps an idle kept-alive connection open, ms: Fastify's own default (72 s), which Fastify sets
 * only on a server it creates, not on this one (its `serverFactory`). Node's default is 5 s: a client that reuses a
 * connection after about 5 s idle (a bot between two calls, a load balancer whose idle timeout is 60 s, as AWS's
 * Application Load Balancer's) then sends on a socket the server is closing, and gets ECONNRESET or a 502.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 72_000;

/**
 * Opens `port` on `host` and answers while the process starts: GET /healthz 200 `{ status: 'ok' }` (the process
 * answers: liveness), GET /readyz 503 `{ status: 'starting', phase }`, any other request 503 with the API envelope
 * (errorCode service_unavailable) and Retry-After. An idle kept-alive connection stays open KEEP_ALIVE_TIMEOUT_MS. Rejects when the port cannot be opened (EADDRINUSE).
 */
export async function openStartupServer(port: number, host: string): Promise<StartupServer> {
  let handler: http.RequestListener | null = null;
  const state = { phase: 'modules' as StartPhase };
  const server = http.createServer((req, res) => {
    if (handler) return handler(req, res);
    const pathname = (req.url ?? '/').split('?')[0];
    if (pathname === '/healthz') return answer(res, 200, { status: 'ok' });
    if (pathname === '/readyz') return answer(res, 503, { status: 'starting', phase: state.phase });
    answer(res, 503, { status: 'FAILED', errorCode: 'service_unavailable', errorMessage: errorText('service_unavailable', 'en'), result: null });
  });
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    server,
    get phase() {
      return state.phase;
    },
    set phase(p: StartPhase) {
      state.phase = p;
    },
    serve(h) {
      handler = h;
      state.phase = 'serving';
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** Milliseconds of each phase of a start, as the 'exchange server listening' log reports them. */
export interface StartTimings {
  /** From the process's start to the port being open (Node and the first modules). */
  listen: number;
  /** Loading the server's modules (the domains, Fastify, PGlite, ...). */
  modules: number;
  /** The context: database (open, migrations), engine recovery, the domains' services ('context ready' splits it). */
  context: number;
  /** Building the app (plugins, routes) until it serves. */
  app: number;
}

/** What a start runs, phase by phase (server.ts passes the real ones; tests may slow one down). */
export interface StartSteps<Ctx, App> {
  /** Loads the heavy modules (dynamic imports), after the port is open. */
  loadModules(): Promise<void>;
  /** Opens the database and recovers the engine: the context. */
  createContext(): Promise<Ctx>;
  /** Builds the app on the context over the startup server's socket; resolves when it is ready to serve. */
  buildApp(ctx: Ctx, serverFactory: (handler: http.RequestListener) => http.Server): Promise<App>;
}

/**
 * Opens the port, then runs the steps in order, reporting each as /readyz's phase; the app's request handler takes over
 * the socket when it is ready. Rejects (after closing the port) when a step throws.
 */
export async function startServer<Ctx, App>(
  port: number,
  host: string,
  steps: StartSteps<Ctx, App>,
): Promise<{ ctx: Ctx; app: App; startup: StartupServer; startMs: StartTimings }> {
  const startup = await openStartupServer(port, host);
  // performance.now() counts from the process's start: the time before this line is Node's and the first imports'.
  const t0 = performance.now();
  try {
    await steps.loadModules();
    const t1 = performance.now();
    startup.phase = 'context';
    const ctx = await steps.createContext();
    const t2 = performance.now();
    startup.phase = 'app';
    const taken: { handler?: http.RequestListener } = {};
    const app = await steps.buildApp(ctx, (h) => {
      taken.handler = h;
      return startup.server;
    });
    if (!taken.handler) throw new Error('the app did not take the startup server (serverFactory not used)');
    startup.serve(taken.handler);
    // Each phase is the difference of rounded marks (not a rounded difference), so the phases add up exactly to the
    // rounded time at the end: a total taken afterwards is never below their sum.
    const [m0, m1, m2, m3] = [t0, t1, t2, performance.now()].map((x) => Math.round(x)) as [number, number, number, number];
    return { ctx, app, startup, startMs: { listen: m0, modules: m1 - m0, context: m2 - m1, app: m3 - m2 } };
  } catch (err) {
    await startup.close();
    throw err;
  }
}
