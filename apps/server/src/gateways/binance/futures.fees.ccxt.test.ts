/**
 * CCXT 4.5.84's swap fetchTradingFees (its binance class unchanged, only the URLs pointed here): it reads `feeTier`
 * from GET /fapi/v1/accountConfig (0 here) and takes the rates of that tier from its own table of Binance's linear
 * tiers, whose tier 0 is maker 0.0002, taker 0.0004, an older Binance rate: the same call against binance.com answers
 * the same numbers. Our perpetuals charge maker 0.0002, taker 0.0005 (Binance's present tier 0, and CCXT's own
 * market-level default): fetchTradingFee (GET /fapi/v1/commissionRate) and the markets of loadMarkets carry those
 * exactly. Measured here so that a change on either side shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ccxt from 'ccxt';
import { formatDecimal } from '@exchange/core';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { binanceUrls } from '../../../test/ccxt/ccxt-urls';
import { createApiKeyService } from '../../domains/api-keys/api-keys.service';
import type { SecurityService } from '../../domains/security/security.service';
import { secretBoxFromConfig } from '../../platform/shared/secret-box';

let t: TestApp;
let ex: InstanceType<typeof ccxt.binance>;
const noSecondFactor = { verifySecondFactor: async () => {}, recordSecurityEvent: async () => {} } as unknown as SecurityService;

beforeAll(async () => {
  t = await makeTestApp(NO_RATE_LIMITS);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.server.address() as { port: number }).port;
  const userId = (await t.ctx.members.ensureEmailUser('fees-ccxt@example.com', 'secret-pass-1', '')).userId;
  const svc = createApiKeyService({
    db: t.ctx.db,
    host: t.ctx.host,
    box: secretBoxFromConfig(t.ctx.config),
    security: () => noSecondFactor,
    log: t.ctx.log,
    now: t.ctx.clock.now,
    cacheMs: 0,
  });
  const c = await svc.create(userId, { label: 'fees', keyType: 'HMAC_SHA256', futuresTrade: true }, { ip: '127.0.0.1', userAgent: 'test' });
  ex = new ccxt.binance({
    apiKey: c.key.apiKey,
    secret: c.secretKey!,
    urls: binanceUrls(`http://127.0.0.1:${port}`),
    options: { defaultType: 'swap', fetchMarkets: { types: ['linear'] } },
  });
  await ex.loadMarkets();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('CCXT swap trading fees', () => {
  it("fetchTradingFees answers CCXT's tier 0 for every perpetual; loadMarkets' markets carry what each charges", async () => {
    const perps = t.ctx.host.engine.perpMarkets();
    expect(perps.length).toBeGreaterThan(0);
    for (const m of perps) expect([m.symbol, m.makerFeePpm, m.takerFeePpm]).toEqual([m.symbol, 200, 500]);
    const all = await ex.fetchTradingFees();
    const perpSymbols = perps.map((m) => `${m.symbol}:${m.quote}`).sort();
    expect(Object.keys(all).sort()).toEqual(perpSymbols);
    for (const s of perpSymbols) expect([s, all[s]!.maker, all[s]!.taker, (all[s]!.info as { feeTier: number }).feeTier]).toEqual([s, 0.0002, 0.0004, 0]);
    for (const s of perpSymbols) expect([s, ex.market(s).maker, ex.market(s).taker]).toEqual([s, 0.0002, 0.0005]);
  });

  it('fetchTradingFee reads the market rates; the v2 account carries feeTier 0', async () => {
    const m = t.ctx.host.engine.perpMarket('ETH/USDT')!;
    const fee = await ex.fetchTradingFee('ETH/USDT:USDT');
    expect(fee.info).toEqual({
      symbol: 'ETHUSDT',
      makerCommissionRate: formatDecimal(BigInt(m.makerFeePpm), 6),
      takerCommissionRate: formatDecimal(BigInt(m.takerFeePpm), 6),
    });
    expect([fee.maker, fee.taker]).toEqual([0.0002, 0.0005]);
    const acct = (await ex.fapiPrivateV2GetAccount()) as { feeTier: number };
    expect(acct.feeTier).toBe(0);
  });
});
