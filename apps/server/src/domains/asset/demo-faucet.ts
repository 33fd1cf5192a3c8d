/**
 * The demo faucet (demo mode): every new registration gets 10,000 USDT in its SPOT account through a
 * ledger posting from the '@faucet' system account. Idempotent: the deposit's ref is `demo-faucet:<userId>`,
 * so a repeated hook call credits once. Never registered unless config.demoMode (off in production).
 */
import type { FastifyBaseLogger } from 'fastify';
import { pow10 } from '@exchange/core';
import type { Config } from '../../platform/config/env';
import type { Hooks } from '../../platform/shared/hooks';
import type { EnginePort } from '../../platform/engine-port/engine-port';

/** Whole USDT credited to each new user in demo mode. */
export const DEMO_FAUCET_USDT = 10_000n;

/** Credits the demo funds to `userId` (no-op result 'ok' when already credited). Returns the engine's code. */
export async function creditDemoFunds(host: EnginePort, userId: string, log: FastifyBaseLogger): Promise<string> {
  const usdt = host.engine.asset('USDT');
  if (!usdt) {
    log.warn({ userId }, 'demo faucet: USDT is not listed; nothing credited');
    return 'asset_not_found';
  }
  const r = await host.submit({
    type: 'deposit',
    userId,
    asset: 'USDT',
    account: 'SPOT',
    amount: DEMO_FAUCET_USDT * pow10(usdt.scale),
    from: '@faucet',
    ref: `demo-faucet:${userId}`,
  });
  if (r.code !== 'ok') log.warn({ userId, code: r.code }, 'demo faucet: deposit rejected');
  return r.code;
}

/** In demo mode, adds the faucet to hooks.userRegistered. */
export function registerDemoFaucet(deps: { config: Config; host: EnginePort; log: FastifyBaseLogger; hooks: Hooks }): void {
  if (!deps.config.demoMode) return;
  deps.hooks.userRegistered.push(async (userId) => {
    await creditDemoFunds(deps.host, userId, deps.log);
  });
}
