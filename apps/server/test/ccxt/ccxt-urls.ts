/**
 * CCXT's `binance` class pointed at this exchange (docs/binance-api.md "Using it with CCXT"): the only
 * configuration the compatibility tests, the grid bot and the docs use is `urls`. Every URL CCXT 4.5.84's binance and
 * binance pro classes know is pointed at our server, including the ones we do not serve (margin, options, COIN-M,
 * portfolio margin): a method we do not support then fails with our 404 instead of sending the key and a signed
 * request to binance.com.
 */

/** Turns "http://host:port" into "ws://host:port" (https into wss). */
export function wsBaseOf(httpBase: string): string {
  return httpBase.replace(/^http/, 'ws');
}

/**
 * The `urls` option of `new ccxt.binance({ urls })` / `new ccxt.pro.binance({ urls })` for a server at `httpBase`
 * ("http://127.0.0.1:8080", no trailing slash); `wsBase` defaults to the same host with ws://. Keys as in CCXT's
 * binance.js `urls.api` and pro/binance.js `urls.api.ws` (4.5.84).
 */
export function binanceUrls(httpBase: string, wsBase: string = wsBaseOf(httpBase)): { api: Record<string, unknown> } {
  const h = httpBase.replace(/\/+$/, '');
  const w = wsBase.replace(/\/+$/, '');
  return {
    api: {
      // Spot REST: /api/v3 (public and signed), v1 for the old listenKey paths, sapi for the wallet endpoints.
      public: `${h}/api/v3`,
      private: `${h}/api/v3`,
      v1: `${h}/api/v1`,
      sapi: `${h}/sapi/v1`,
      sapiV2: `${h}/sapi/v2`,
      sapiV3: `${h}/sapi/v3`,
      sapiV4: `${h}/sapi/v4`,
      // USDⓈ-M futures REST: /fapi/v1, v2, v3 and /futures/data.
      fapiPublic: `${h}/fapi/v1`,
      fapiPublicV2: `${h}/fapi/v2`,
      fapiPublicV3: `${h}/fapi/v3`,
      fapiPrivate: `${h}/fapi/v1`,
      fapiPrivateV2: `${h}/fapi/v2`,
      fapiPrivateV3: `${h}/fapi/v3`,
      fapiData: `${h}/futures/data`,
      // Not offered here (COIN-M, options, portfolio margin), pointed here all the same (see the file comment).
      dapiPublic: `${h}/dapi/v1`,
      dapiPrivate: `${h}/dapi/v1`,
      dapiPrivateV2: `${h}/dapi/v2`,
      dapiData: `${h}/dapi/futures/data`,
      eapiPublic: `${h}/eapi/v1`,
      eapiPrivate: `${h}/eapi/v1`,
      papi: `${h}/papi/v1`,
      papiV2: `${h}/papi/v2`,
      ws: {
        // CCXT tells a spot socket from a futures one by "/stream" in its URL (pro/binance.js isSpotUrl; Binance's is
        // wss://stream.binance.com:9443/ws): the server serves /ws also as /stream/ws.
        spot: `${w}/stream/ws`,
        margin: `${w}/stream/ws`,
        // CCXT turns ".../ws" of `future` into ".../public/ws" (depth, bookTicker, trade), ".../market/ws" (the
        // others) and ".../private/ws?listenKey=" (user data), as Binance's current futures endpoints are.
        future: `${w}/fstream/ws`,
        delivery: `${w}/dstream/ws`,
        stock: `${w}/equity/ws`,
        option: `${w}/eoptions/public/ws`,
        optionMarket: `${w}/eoptions/market/ws`,
        optionPrivate: `${w}/eoptions/private/ws`,
        papi: `${w}/pm/ws`,
        'ws-api': {
          spot: `${w}/ws-api/v3`,
          future: `${w}/ws-fapi/v1`,
          delivery: `${w}/ws-dapi/v1`,
        },
      },
    },
  };
}

/** The part of a CCXT Pro exchange that closePro reads: its WebSocket clients and their pending futures. */
interface ProClients {
  clients?: Record<string, { futures?: Record<string, Promise<unknown>>; connected?: Promise<unknown> }>;
  close(): Promise<unknown>;
}

/**
 * Closes a CCXT Pro exchange at the end of a test. CCXT's close rejects every future still pending on its clients
 * (ExchangeClosedByUser): watches the test no longer waits for and CCXT's own subscription futures. Nothing awaits
 * those, so they are marked handled first; otherwise one surfaces as an unhandled rejection after the test has passed
 * and fails the whole run (it did in CI's PGlite pass, from streams.ccxt.test.ts).
 */
export async function closePro(ex: object): Promise<void> {
  const pro = ex as ProClients;
  for (const c of Object.values(pro.clients ?? {})) {
    for (const f of Object.values(c.futures ?? {})) f.catch(() => {});
    c.connected?.catch(() => {});
  }
  await pro.close();
}
