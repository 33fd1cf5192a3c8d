/**
 * The contracts' private WebSocket pushes (packages/api contract.ts ContractWsMessage), built from engine events by
 * the WebSocket hub (gateways/ws/ws.hub.ts, through `contractPushes`) for the sockets of the event's user: 'contractOrders' on perpOrderAccepted
 * and perpOrderUpdated (a conditional order's with `conditional`, its state as getConditionalOrders lists it: placed,
 * cancelled, triggered, expired; packages/api ws.ts ContractConditionalWsMessage), 'positions' on positionChanged (quantity "0": closed), 'contractAccount' on a change of the
 * user's CONTRACT balance. Values are formatted as the routes answer them (contract.format.ts).
 */
import type { ContractConditionalWsMessage, ContractWsMessage } from '@exchange/api';
import type { DomainPushes } from '../../platform/shared/private-push';
import type { EngineApi, EngineEvent, PerpMarketConfig } from '@exchange/core';
import { conditionalState } from './perp.conditional';
import { isolatedRiskPpm, positionFigures, toContractAccount, toContractOrder, toContractPosition } from './perp.format';
import { perpScales } from '../../platform/shared/market-scales';

/** The engine reads a push needs. */
export type PushEngine = Pick<EngineApi, 'asset' | 'balance' | 'perpMarket' | 'perpMarkState' | 'perpAccount' | 'positions'>;

/** A private push: the user it is for and the message. */
export interface PerpPush {
  userId: string;
  message: ContractWsMessage | ContractConditionalWsMessage;
}

function scalesOf(engine: PushEngine, m: PerpMarketConfig) {
  return perpScales(m, engine.asset(m.quote)?.scale);
}

/**
 * The push of one engine event, or undefined when it is not a contract event for a user (`wanted` says whether the
 * user has sockets: nothing is computed for one without).
 */
export function perpPush(engine: PushEngine, e: EngineEvent, wanted: (userId: string) => boolean): PerpPush | undefined {
  if (e.type === 'perpOrderAccepted' || e.type === 'perpOrderUpdated') {
    if (!wanted(e.order.userId)) return undefined;
    const m = engine.perpMarket(e.order.symbol);
    if (!m) return undefined;
    const o = e.order;
    const data = toContractOrder(o, scalesOf(engine, m), engine.perpMarkState(m.symbol)?.markPrice ?? null);
    if (o.condition === undefined) return { userId: o.userId, message: { channel: 'contractOrders', data } };
    const conditional = { orderId: o.orderId, symbol: o.symbol, state: conditionalState(o) };
    return { userId: o.userId, message: { channel: 'contractOrders', data, conditional } };
  }
  if (e.type === 'positionChanged') {
    const p = e.position;
    if (!wanted(p.userId)) return undefined;
    const m = engine.perpMarket(p.symbol);
    if (!m) return undefined;
    const s = scalesOf(engine, m);
    const f = positionFigures(p, s, engine.perpMarkState(m.symbol)?.markPrice ?? null);
    if (p.marginMode === 'ISOLATED')
      return { userId: p.userId, message: { channel: 'positions', data: toContractPosition(p, s, f, p.margin, isolatedRiskPpm(p.margin, f)) } };
    // Cross: over the cross wallet less the other cross positions' maintenance margin plus their unrealized PnL.
    const acc = engine.perpAccount(p.userId);
    let wallet = acc.crossWalletBalance;
    for (const o of engine.positions(p.userId)) {
      if (o.symbol === p.symbol || o.marginMode !== 'CROSS') continue;
      const om = engine.perpMarket(o.symbol);
      if (!om) continue;
      const of = positionFigures(o, scalesOf(engine, om), engine.perpMarkState(om.symbol)?.markPrice ?? null);
      wallet += of.upnl - of.maint;
    }
    return { userId: p.userId, message: { channel: 'positions', data: toContractPosition(p, s, f, wallet, acc.riskLevelPpm) } };
  }
  if (e.type === 'balanceChanged' && e.account === 'CONTRACT') {
    if (!wanted(e.owner)) return undefined;
    const positions = engine.positions(e.owner).flatMap((p) => {
      const m = engine.perpMarket(p.symbol);
      if (!m || m.quote !== e.asset) return [];
      return [{ margin: p.margin, upnl: positionFigures(p, scalesOf(engine, m), engine.perpMarkState(m.symbol)?.markPrice ?? null).upnl }];
    });
    const data = toContractAccount(
      e.asset,
      engine.asset(e.asset)?.scale ?? 8,
      engine.perpAccount(e.owner),
      { available: e.available, frozen: e.frozen },
      positions,
    );
    return { userId: e.owner, message: { channel: 'contractAccount', data } };
  }
  return undefined;
}

/** The contracts' pushes as the perp module declares them (platform/shared/private-push.ts). */
export const perpPushes: DomainPushes = {
  event: (engine, e, wanted) => perpPush(engine, e, wanted),
};
