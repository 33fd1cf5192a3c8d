/**
 * The demo's savings products (so that the /mortgage screen is not empty on a fresh demo): in demo mode only, when
 * the engine has no product yet, three products as an operator would define them in the console: USDT 7 days at 5%
 * (early redemption allowed, losing the interest paid), USDT 30 days at 8% (no early redemption) and BTC 30 days at
 * 3% (early redemption allowed). Each is an earnSetProduct command with operator 'system'.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../platform/config/env';
import type { EnginePort } from '../../platform/engine-port/engine-port';

const U = 100_000_000n;

/** Seeds the demo products unless a product exists; returns true when it seeded. */
export async function ensureEarnDemoProducts(ctx: { config: Pick<Config, 'demoMode'>; host: EnginePort; log: FastifyBaseLogger }): Promise<boolean> {
  const engine = ctx.host.engine;
  if (!ctx.config.demoMode || engine.earnProducts().length > 0 || !engine.asset('USDT')) return false;
  const products = [
    {
      asset: 'USDT',
      termDays: 7,
      aprPpm: 50_000,
      minAmount: 10n * U,
      maxAmount: 50_000n * U,
      userQuota: 100_000n * U,
      totalQuota: 10_000_000n * U,
      earlyRedeem: 'FORFEIT_INTEREST' as const,
      status: 'ON' as const,
    },
    {
      asset: 'USDT',
      termDays: 30,
      aprPpm: 80_000,
      minAmount: 100n * U,
      maxAmount: 100_000n * U,
      userQuota: 200_000n * U,
      totalQuota: 20_000_000n * U,
      earlyRedeem: 'NOT_ALLOWED' as const,
      status: 'ON' as const,
    },
    {
      asset: 'BTC',
      termDays: 30,
      aprPpm: 30_000,
      minAmount: U / 1000n,
      maxAmount: 10n * U,
      userQuota: 20n * U,
      totalQuota: 1_000n * U,
      earlyRedeem: 'FORFEIT_INTEREST' as const,
      status: 'ON' as const,
    },
  ];
  for (const terms of products) {
    if (!engine.asset(terms.asset)) continue;
    const r = await ctx.host.submit({ type: 'earnSetProduct', terms, operatorId: 'system' });
    if (r.code !== 'ok') throw new Error(`earn demo product refused: ${r.code}`);
  }
  ctx.log.info('earn: demo savings products seeded');
  return true;
}
