/**
 * Unknown paths under Binance's REST prefixes. Without this, such a path falls through to the app's own not-found
 * handler (app.ts): the web app's HTML page for a GET (the single-page app's fallback), or the app's envelope under
 * /api/. A bot reads either as an outage: CCXT's binance class finds no `{ code, msg }` in the body and falls back to
 * its HTTP table, where 404 is ExchangeNotAvailable (retried as a temporary failure).
 *
 * Here every unknown path (or a known path with another method) under these prefixes answers HTTP 404 with Binance's
 * `{ code: -1020, msg: "This operation is not supported." }` (Binance's UNSUPPORTED_OPERATION, spot errors page). CCXT
 * reads the code first: its table common to every host maps -1020 to BadRequest (its spot table, used for
 * api.binance.com, to NotSupported), so a bot is told "not implemented" instead of "try again later".
 */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';

/**
 * The REST prefixes of Binance's APIs (spot /api/v3 and the old /api/v1, spot's /sapi, USDⓈ-M /fapi and its
 * /futures/data, COIN-M /dapi, options /eapi, portfolio margin /papi), each owned by this scope: nothing else of the
 * app lives under them.
 */
export const BINANCE_REST_PREFIXES = ['/api/v1', '/api/v3', '/sapi', '/fapi', '/futures/data', '/dapi', '/eapi', '/papi'] as const;

/** Binance's body for a path or method it does not serve (-1020, its UNSUPPORTED_OPERATION text). */
export const UNSUPPORTED_PATH = { code: -1020, msg: 'This operation is not supported.' } as const;

/**
 * Registers on the Binance scope `app` one child scope per prefix of BINANCE_REST_PREFIXES whose not-found handler
 * answers 404 with UNSUPPORTED_PATH (Fastify scopes a not-found handler to its plugin's prefix, so the app's own
 * handler keeps every other path). The scope's hooks apply: the request weighs 1.
 */
export async function registerBinanceNotFound(app: FastifyInstance): Promise<void> {
  for (const prefix of BINANCE_REST_PREFIXES) {
    const plugin: FastifyPluginAsync = async (scope) => {
      scope.setNotFoundHandler((_req, reply) => {
        void reply.status(404).send(UNSUPPORTED_PATH);
      });
    };
    await app.register(plugin, { prefix });
  }
}
