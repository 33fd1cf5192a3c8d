/**
 * The spot orders' private WebSocket push (packages/api ws.ts 'orders'): a user's order after each change
 * (orderAccepted, orderUpdated), formatted as the routes answer it (entrust.format.ts).
 */
import type { WsServerMessage } from '@exchange/api';
import type { DomainPushes } from '../../platform/shared/private-push';
import { toEntrust } from './spot.format';
import { marketScales } from '../../platform/shared/market-scales';

export const spotPushes: DomainPushes = {
  event(engine, e, wanted) {
    if (e.type !== 'orderAccepted' && e.type !== 'orderUpdated') return undefined;
    if (!wanted(e.order.userId)) return undefined;
    const market = engine.market(e.order.symbol);
    if (!market) return undefined;
    const data = toEntrust(
      e.order,
      marketScales(market, (code) => engine.asset(code)),
    );
    return { userId: e.order.userId, message: { channel: 'orders', data } satisfies WsServerMessage };
  },
};
