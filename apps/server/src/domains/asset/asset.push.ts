/**
 * The balances' private WebSocket push (packages/api ws.ts 'balances'): a user's balance of one account and asset
 * after each change (balanceChanged of any account but the system's), in the asset's scale.
 */
import type { WsServerMessage } from '@exchange/api';
import type { DomainPushes } from '../../platform/shared/private-push';
import { fromUnits } from '../../platform/shared/decimal';

export const assetPushes: DomainPushes = {
  event(engine, e, wanted) {
    if (e.type !== 'balanceChanged' || e.account === 'SYSTEM' || !wanted(e.owner)) return undefined;
    const scale = engine.asset(e.asset)?.scale ?? 8;
    const message: WsServerMessage = {
      channel: 'balances',
      data: { account: e.account, coin: e.asset, available: fromUnits(e.available, scale), frozen: fromUnits(e.frozen, scale) },
    };
    return { userId: e.owner, message };
  },
};
