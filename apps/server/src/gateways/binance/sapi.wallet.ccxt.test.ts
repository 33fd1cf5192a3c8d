/**
 * Stock CCXT (its binance class unchanged, only the URLs pointed here) moves money through the wallet endpoints
 * (sapi.wallet.routes.ts) with a real HMAC key that has the withdraw permission and an IP whitelist: transfer
 * (spot -> future and back), fetchTransfers, fetchDepositAddress, fetchDeposits, withdraw and fetchWithdrawals, each
 * parsed to the values the engine holds (CCXT names our UMFUTURE account 'linear' and USDT's ETH network 'ERC20').
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ccxt from 'ccxt';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { loginUser, mainlandId, verifyBasic, type TestUser } from '../../domains/kyc/kyc-test-support';
import { createApiKeyService } from '../../domains/api-keys/api-keys.service';
import type { SecurityService } from '../../domains/security/security.service';
import { secretBoxFromConfig } from '../../platform/shared/secret-box';
import { recordSeenDeposit } from '../../domains/wallet/chain.repository';

const PORT = 8145;
const U = 100_000_000n;
const DEST = '0x52908400098527886E0F7030069857D2E4169EE7';
let t: TestApp;
let user: TestUser;
let key = { apiKey: '', secret: '' };
const noSecondFactor = { verifySecondFactor: async () => {}, recordSecurityEvent: async () => {} } as unknown as SecurityService;

beforeAll(async () => {
  t = await makeTestApp({ ...NO_RATE_LIMITS, binanceWeightPerMin: 0 });
  await t.app.listen({ port: PORT, host: '127.0.0.1' });
  user = await loginUser(t, 'ccxt-wallet@example.com');
  await verifyBasic(t, user, '王芳', mainlandId('19850505', '031'));
  for (const account of ['SPOT', 'ASSETS'] as const) {
    const r = await t.ctx.host.submit({
      type: 'deposit',
      userId: user.userId,
      asset: 'USDT',
      account,
      amount: 1_000n * U,
      from: '@faucet',
      ref: `ccxt-w-${account}`,
    });
    expect(r.code).toBe('ok');
  }
  const svc = createApiKeyService({
    db: t.ctx.db,
    host: t.ctx.host,
    box: secretBoxFromConfig(t.ctx.config),
    security: () => noSecondFactor,
    log: t.ctx.log,
    now: t.ctx.clock.now,
    cacheMs: 0,
  });
  const c = await svc.create(
    user.userId,
    { label: 'ccxt', keyType: 'HMAC_SHA256', spotTrade: true, futuresTrade: true, withdraw: true, ipWhitelist: '127.0.0.1' },
    { ip: '127.0.0.1', userAgent: 'test' },
  );
  key = { apiKey: c.key.apiKey, secret: c.secretKey! };
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('CCXT against the wallet endpoints', () => {
  it('transfers, reads its deposit address and deposits, withdraws and reads its withdrawals', async () => {
    const http = `http://127.0.0.1:${PORT}`;
    const ex = new ccxt.binance({
      apiKey: key.apiKey,
      secret: key.secret,
      urls: { api: { public: `${http}/api/v3`, private: `${http}/api/v3`, v1: `${http}/api/v1`, sapi: `${http}/sapi/v1` } },
      options: { fetchMarkets: { types: ['spot'] } },
    });
    await ex.loadMarkets();
    const spot0 = t.ctx.host.engine.balance(user.userId, 'SPOT', 'USDT').available;
    const fut0 = t.ctx.host.engine.balance(user.userId, 'CONTRACT', 'USDT').available;

    const tr = await ex.transfer('USDT', 25.5, 'spot', 'future');
    expect(tr.id).toMatch(/^[1-9][0-9]*$/);
    expect(t.ctx.host.engine.balance(user.userId, 'CONTRACT', 'USDT').available).toBe(fut0 + 2_550_000_000n);
    await ex.transfer('USDT', 0.5, 'future', 'spot');
    expect(t.ctx.host.engine.balance(user.userId, 'SPOT', 'USDT').available).toBe(spot0 - 2_500_000_000n);
    const transfers = await ex.fetchTransfers('USDT');
    expect(transfers.map((x) => [x.id, x.amount, x.currency, x.fromAccount, x.toAccount, x.status])).toEqual([[tr.id, 25.5, 'USDT', 'spot', 'linear', 'ok']]);
    const back = await ex.fetchTransfers('USDT', undefined, undefined, { type: 'UMFUTURE_MAIN' });
    expect(back.map((x) => [x.amount, x.fromAccount, x.toAccount])).toEqual([[0.5, 'linear', 'spot']]);

    const addr = await ex.fetchDepositAddress('USDT');
    expect(addr).toMatchObject({ currency: 'USDT', address: t.ctx.chain.depositAddress(user.userId) });
    await recordSeenDeposit(
      t.ctx.db,
      {
        userId: BigInt(user.userId),
        coin: 'USDT',
        chain: 'ETH',
        txHash: `0x${'ef'.repeat(32)}`,
        logIndex: 0,
        blockNumber: 7,
        blockHash: `0x${'12'.repeat(32)}`,
        fromAddress: DEST,
        toAddress: addr.address!,
        amount: 1_200_000_000n,
        chainAmount: 12_000_000n,
        status: 'CONFIRMING',
      },
      new Date(),
    );
    const deposits = await ex.fetchDeposits('USDT');
    expect(deposits.map((d) => [d.type, d.amount, d.currency, d.status, d.txid, d.address])).toEqual([
      ['deposit', 12, 'USDT', 'pending', `0x${'ef'.repeat(32)}`, addr.address],
    ]);

    const held0 = t.ctx.host.engine.balance(user.userId, 'ASSETS', 'USDT');
    const w = await ex.withdraw('USDT', 50, DEST);
    expect(w.id).toMatch(/^[1-9][0-9]*$/);
    expect(t.ctx.host.engine.balance(user.userId, 'ASSETS', 'USDT')).toEqual({ available: held0.available - 50n * U, frozen: held0.frozen + 50n * U });
    const withdrawals = await ex.fetchWithdrawals('USDT');
    expect(withdrawals.map((x) => [x.id, x.type, x.amount, x.fee?.cost, x.status, x.address, x.network])).toEqual([
      [w.id, 'withdrawal', 50, 1, 'pending', DEST, 'ERC20'],
    ]);
  }, 60_000);
});
