/**
 * Builds the Fastify app as a plugin over an AppContext (no port: tests use app.inject()).
 * External plugins first (form bodies, rate limit, OpenAPI, WebSocket, static web app), then the routes of every module (main/domains.ts).
 * One error handler maps every error to the API envelope in the request's language and hides 5xx details.
 */
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import compress from '@fastify/compress';
import formbody from '@fastify/formbody';
import helmet from 'helmet';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import fastifyStatic from '@fastify/static';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from './context';
import { AppError } from '../platform/shared/errors';
import { fail } from '../platform/shared/envelope';
import { requestLang } from '../platform/shared/lang';
import { badText } from '../platform/shared/text';
import { DOMAINS } from './domains';
import { createWebShell } from './web-shell';
import { routePluginsOf, type DomainModule } from '../platform/domain-module';
import { registerRateLimits } from '../platform/rate-limit/rate-limits';
import { registerMetrics } from '../platform/metrics/metrics.routes';
import { wsHubStats } from '../gateways/ws/ws.routes';
import { fastifyTrustProxy, loopbackPeerWarning } from '../platform/plugins/trust-proxy';
import { registerSecurityEvents } from '../platform/plugins/security-events';
import { registerReadYourWrites } from '../platform/plugins/read-your-writes';
import { operatorGuardFirst, registerRequireOperator } from '../platform/shared/operator';
import { registerRequireAuth } from '../platform/shared/auth';

/** Path prefixes of the routes the public OpenAPI document leaves out: the operator console's and the demo's. */
export const UNDOCUMENTED_PREFIXES = ['/api/admin/', '/api/demo/'] as const;

/**
 * The public OpenAPI document (`/api/docs/json`, `/api/docs`): the generated one without the console's and the demo's
 * routes (UNDOCUMENTED_PREFIXES); `app.swagger()` keeps every route (tests read it).
 */
export function publicSpecification(spec: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const paths = (spec.paths ?? {}) as Record<string, unknown>;
  return { ...spec, paths: Object.fromEntries(Object.entries(paths).filter(([p]) => !UNDOCUMENTED_PREFIXES.some((x) => p.startsWith(x)))) };
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

/** A content-hashed file of the web build (Vite's assets/<name>-<hash>.<ext>, or its .br/.gz): safe to cache forever. */
export const HASHED_ASSET_RE = /[\\/]assets[\\/][^\\/]+-[\w-]{8}\.[a-z0-9]+(\.(br|gz))?$/i;
/** The PWA's service worker and web app manifest at the root of the web build (apps/web/vite.config.ts). */
export const PWA_UNCACHED_RE = /[\\/](sw\.js|manifest\.webmanifest)(\.(br|gz))?$/;
/**
 * The paths of web build files a later build may add (a hashed chunk under assets/, a file at the top such as the
 * service worker's `workbox-<hash>.js`): one name of letters, digits, `_`, `-` and `.`, not starting with a dot, at
 * the top or under assets/.
 */
export const ADDED_WEB_FILE_RE = /^\/(assets\/)?[A-Za-z0-9_-][\w.-]*\.[a-z0-9]+$/;

/** Whether `pathname` (matching ADDED_WEB_FILE_RE) names a regular file under `root` (never blocks the event loop). */
async function isFileIn(root: string, pathname: string): Promise<boolean> {
  try {
    return (await fs.promises.stat(path.join(root, pathname))).isFile();
  } catch {
    return false;
  }
}

/** Maps a Fastify/AJV error to [status, code, field]. */
function classify(err: FastifyError): [number, string, string | undefined] {
  if (err instanceof AppError) return [err.status, err.code, err.field];
  if (err.validation && err.validation.length > 0) {
    const v = err.validation[0]!;
    const params = v.params as Record<string, unknown> | undefined;
    const fromPath = v.instancePath?.replace(/^\//, '').replace(/\//g, '.');
    const field = fromPath || (params?.missingProperty as string | undefined) || (params?.additionalProperty as string | undefined);
    return [400, 'validation_failed', field || undefined];
  }
  const status = err.statusCode ?? 500;
  if (status === 413 || status === 414) return [status, 'payload_too_large', undefined];
  if (status === 429) return [429, 'rate_limited', undefined];
  if (status === 404) return [404, 'not_found', undefined];
  if (status === 405) return [405, 'method_not_allowed', undefined];
  if (status >= 400 && status < 500) return [status, 'validation_failed', undefined];
  return [500, 'internal_error', undefined];
}

/**
 * The headers a helmet middleware sets, collected once: its headers do not depend on the request, so every answer
 * gets the same values without running the middleware (and res.setHeader's checks) per request.
 */
export function staticHeaders(mw: (req: never, res: never, next: (err?: unknown) => void) => void): Record<string, string> {
  const out: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete out[name.toLowerCase()];
    },
  };
  let failed: unknown;
  mw({} as never, res as never, (err) => (failed = err));
  if (failed !== undefined) throw failed;
  return out;
}

/** Options of buildApp. */
export interface BuildAppOptions {
  /**
   * Fastify's serverFactory: the app runs on the server this returns, already listening (main/boot.ts opens the port
   * before the app is built); then call `app.ready()`, not `listen`, and close that server after `app.close()`.
   */
  serverFactory?: (handler: http.RequestListener) => http.Server;
}

/** Creates the app for `ctx`. Call `await app.ready()` (or listen) before use. */
export async function buildApp(ctx: AppContext, opts: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...(opts.serverFactory ? { serverFactory: opts.serverFactory } : {}),
    loggerInstance: ctx.log,
    // Per-request access logs only when asked for (LOG_REQUESTS=1): the app polls every 5 s and would flood the log.
    logController: new LogController({ disableRequestLogging: !ctx.config.logRequests }),
    bodyLimit: 1024 * 1024,
    // req.ip is the client only when the proxies in front are trusted (TRUST_PROXY); the rate and login limits key on it.
    trustProxy: fastifyTrustProxy(ctx.config.trustProxy),
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: true, useDefaults: true, allErrors: false } },
    routerOptions: { maxParamLength: 200 },
    // A plugin's start (the API docs' static files, the routes of every module) may take longer than Fastify's 10 s on a
    // loaded machine (two cores shared by the test suites); a slow start is not a failure.
    pluginTimeout: 120_000,
    // Errors the router raises before a route is found (a path parameter over maxParamLength, a malformed URL)
    // get the envelope too, instead of Fastify's default body that echoes the whole URL.
    frameworkErrors: (err, req, reply) => {
      const [status, code] = classify(err as FastifyError);
      void (reply as FastifyReply).status(status).send(fail(code, requestLang(req)));
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.decorate('ctx', ctx);

  app.setErrorHandler((err: FastifyError, req, reply) => {
    const [status, code, field] = classify(err);
    if (status >= 500) req.log.error({ err }, 'request failed');
    void reply.status(status).send(fail(code, requestLang(req), field));
  });

  // AJV's type coercion turns the strings "Infinity" and "-Infinity" into numbers that pass `integer`, `minimum`
  // and `maximum` (ajv 8); refuse any non-finite number, and integers beyond 2^53 that lose precision, in every
  // route's query and body before its handler (global hooks run before the routes' own preHandlers, e.g. auth).
  // Strings with a NUL, a lone surrogate or a bidi control are refused in every field too (platform/shared/text.ts).
  app.addHook('preHandler', async (req) => {
    for (const part of [req.query, req.body]) {
      if (part === null || typeof part !== 'object') continue;
      for (const [field, v] of Object.entries(part as Record<string, unknown>)) {
        for (const item of Array.isArray(v) ? v : [v])
          if (typeof item === 'string' && badText(item) !== null) throw new AppError('invalid_characters', 400, field);
        if (typeof v !== 'number') continue;
        if (!Number.isFinite(v)) throw new AppError('validation_failed', 400, field);
        if (Number.isInteger(v) && !Number.isSafeInteger(v)) throw new AppError('value_too_large', 400, field);
      }
    }
  });

  // Security headers on every answer: a strict Content-Security-Policy (scripts only from our origin,
  // never inline: the built app has none), no framing, no MIME sniffing, no referrer. Inline styles stay allowed:
  // antd-mobile and the chart set element styles. HSTS only over TLS (below), so a plain-HTTP demo is not pinned.
  // Built once: @fastify/helmet rebuilds helmet's middleware (parsing the policy) on every request, 7% of the
  // server's time under the order-entry bench; the prebuilt middleware only sets the headers.
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    strictTransportSecurity: false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  });
  const securityHeaderValues = staticHeaders(securityHeaders);
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(securityHeaderValues);
    done();
  });
  app.addHook('onSend', async (req, reply) => {
    if (req.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
  });

  // gzip/brotli for the web app's scripts and the JSON answers (Lighthouse: text compression saves ~2 s on mobile).
  await app.register(compress, { global: true, threshold: 1024 });
  await app.register(formbody, { bodyLimit: 1024 * 1024 });
  // Per-IP budgets: every route, and tighter ones on login, codes, the puzzle and order entry (platform/rate-limit/rate-limits.ts).
  await registerRateLimits(app, ctx.config);
  await app.register(swagger, {
    openapi: {
      info: { title: 'Exchange app API', version: '1.0.0', description: 'Envelope { status, errorCode, errorMessage, result }; headers token, userId, lang.' },
      servers: [],
    },
  });
  // The docs page loads its scripts from files (no inline script), so the app's CSP above serves it as well. It shows
  // the public API only: the console's and the demo's routes are not for the public (publicSpecification).
  await app.register(swaggerUi, { routePrefix: '/api/docs', transformSpecification: (spec) => publicSpecification(spec) });
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });

  // Operators' metrics at /metrics (METRICS_TOKEN, else loopback only) and the timing of every request, on the root
  // instance before the modules so every route is timed (platform/metrics/metrics.routes.ts).
  if (ctx.metrics) {
    ctx.metrics.watchWs(() => wsHubStats(ctx));
    registerMetrics(app, ctx.metrics, { token: ctx.config.metricsToken });
  }
  // Security events (authentication and authorization failures, lockouts, rate-limit refusals, bans): logged without
  // secrets and counted, for every route registered below (platform/plugins/security-events.ts).
  registerSecurityEvents(app, ctx.metrics ?? { securityEvent: () => {} });
  registerReadYourWrites(app, ctx.host); // scale-out: a credentialed read waits for the replica to reach the stream (platform/plugins/read-your-writes.ts)
  // The shared session checks, built from the services they read: the app's (app.requireAuth, over the member
  // service) and the console's (app.requireOperator, over the admin service). Route files take them from the instance.
  registerRequireAuth(app, { members: ctx.members });
  registerRequireOperator(app, { admin: ctx.admin });
  // The console's routes authenticate the operator before their body is read and validated (platform/shared/operator.ts).
  app.addHook('onRoute', operatorGuardFirst);
  // A production server without TRUST_PROXY that hears from a loopback peer (a proxy on this host) says so once.
  const peerCheck = loopbackPeerWarning(ctx.config, (msg) => ctx.log.warn(msg));
  app.addHook('onRequest', (req, _reply, done) => {
    peerCheck(req.ip);
    done();
  });
  // Each module hands its route files the services they use, from the completed context; the shared session checks
  // are the app's decorations above.
  const modules: readonly DomainModule<AppContext>[] = DOMAINS;
  for (const domain of modules) for (const routes of routePluginsOf(domain, ctx)) await app.register(routes);

  const index = path.join(ctx.config.webDist, 'index.html');
  const hasWeb = fs.existsSync(index);
  // The app's page, never cached; on the home screen with the first banner of the request's language in its shell
  // (web-shell.ts), hence `Vary: Accept-Language` for any cache between.
  const webShell = createWebShell({ indexFile: index, banners: (lang) => ctx.content.banners(lang), warn: (msg) => ctx.log.warn(msg) });
  const sendWebPage = (req: FastifyRequest, reply: FastifyReply): FastifyReply => {
    webShell.page(req.url.split('?')[0] ?? '/', requestLang(req)).then(
      (html) => reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('vary', 'Accept-Language').send(html),
      (e: unknown) => reply.send(e),
    );
    return reply;
  };
  if (hasWeb) {
    // The build writes .br and .gz next to each text asset (apps/web/vite.config.ts): they are sent as they are,
    // with no compression work per request. Hashed files under assets/ never change: cached for a year, immutable;
    // anything else (favicon, version.json) for an hour; index.html never (below). The files are listed at start;
    // one a later build added is served by the not-found handler below.
    await app.register(fastifyStatic, {
      root: ctx.config.webDist,
      wildcard: false,
      index: false,
      maxAge: '1h',
      preCompressed: true,
      setHeaders: (reply, filePath) => {
        if (HASHED_ASSET_RE.test(filePath)) void reply.header('cache-control', 'public, max-age=31536000, immutable');
        // The PWA's service worker and manifest are revalidated on every check, so a new build's worker is
        // found at once (the browser also bypasses the HTTP cache for the worker script, this covers older ones).
        else if (PWA_UNCACHED_RE.test(filePath)) void reply.header('cache-control', 'no-cache');
      },
    });
    app.get('/', (req, reply) => sendWebPage(req, reply));
  }
  // The operator console (apps/admin) under /admin/: its hashed assets and, for every other GET under
  // /admin/, its index.html (a single-page app with its own router). Same security headers and CSP as the web app.
  const adminIndex = path.join(ctx.config.adminDist, 'index.html');
  const hasAdmin = fs.existsSync(adminIndex);
  if (hasAdmin) {
    await app.register(fastifyStatic, {
      root: ctx.config.adminDist,
      prefix: '/admin/',
      // Looked up per request (not listed at start): a rebuilt console is served without a restart.
      wildcard: true,
      index: false,
      maxAge: '1h',
      preCompressed: true,
      decorateReply: !hasWeb,
      setHeaders: (reply, filePath) => {
        if (HASHED_ASSET_RE.test(filePath)) void reply.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
    app.get('/admin', (_req, reply) => reply.redirect('/admin/'));
    app.get('/admin/', (_req, reply) =>
      reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html', ctx.config.adminDist, { cacheControl: false }),
    );
  }
  app.setNotFoundHandler(async (req, reply) => {
    // A missing file (a path with an extension, e.g. an old hashed chunk) is a 404, never the HTML page: a module
    // script answered with HTML fails in the browser with a MIME error instead of the app's chunk-retry path.
    const pathname = req.url.split('?')[0] ?? '';
    const isFile = /\.[a-z0-9]{1,8}$/i.test(pathname);
    if (hasAdmin && req.method === 'GET' && !isFile && pathname.startsWith('/admin/')) {
      return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html', ctx.config.adminDist, { cacheControl: false });
    }
    // A file of a build deployed under the running server (its page is read again: web-shell.ts), which the listing
    // made at start does not have: served as the listed ones are, so the new page's chunks are not 404s.
    if (hasWeb && req.method === 'GET' && ADDED_WEB_FILE_RE.test(pathname) && (await isFileIn(ctx.config.webDist, pathname))) {
      return reply.sendFile(pathname.slice(1), ctx.config.webDist);
    }
    if (req.url.startsWith('/api/') || req.url.startsWith('/ws/') || req.method !== 'GET' || !hasWeb || isFile) {
      return reply.status(404).send(fail('not_found', requestLang(req)));
    }
    // Single-page app: every other GET route is the web app's.
    return sendWebPage(req, reply);
  });
  return app;
}
