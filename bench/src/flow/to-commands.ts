/**
 * Turns a Flow into engine command inputs (without `ts`, which the engine host assigns) for one
 * market, with client order ids so a cancel can name its order before the place is answered.
 */
import type { Command, Side } from '@exchange/core';
import { CANCEL, MARKET, PLACE, type Flow } from './flow';

/** A command as the engine host takes it (`ts` is assigned by the host). */
export type CommandInput = Command extends infer C ? (C extends Command ? Omit<C, 'ts'> : never) : never;

const SIDES: readonly Side[] = ['BUY', 'SELL'];

/**
 * Command `i` of the flow for market `symbol`; users are `${userPrefix}${index}`, client order ids
 * `${idPrefix}${flowOrderId}` (the prefix must make them unique per user across every flow journaled).
 */
export function flowCommand(flow: Flow, i: number, symbol: string, userPrefix: string, idPrefix: string): CommandInput {
  const userId = `${userPrefix}${flow.user[i] as number}`;
  const k = flow.kind[i];
  if (k === PLACE) {
    return {
      type: 'placeOrder',
      userId,
      symbol,
      side: SIDES[flow.side[i] as number] as Side,
      orderType: 'LIMIT',
      timeInForce: 'GTC',
      price: flow.price[i] as bigint,
      quantity: flow.qty[i] as bigint,
      clientOrderId: `${idPrefix}${flow.orderId[i] as number}`,
    };
  }
  if (k === CANCEL) return { type: 'cancelOrder', userId, clientOrderId: `${idPrefix}${flow.orderId[i] as number}` };
  if (k === MARKET) {
    return {
      type: 'placeOrder',
      userId,
      symbol,
      side: SIDES[flow.side[i] as number] as Side,
      orderType: 'MARKET',
      timeInForce: 'IOC',
      quantity: flow.qty[i] as bigint,
    };
  }
  throw new Error(`unknown command kind ${k}`);
}
