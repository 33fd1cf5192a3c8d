import { describe, expect, it } from 'vitest';
import {
  checkTpSl,
  closeQuantity,
  contractOrderBody,
  formatFundingRate,
  formatPpmPercent,
  leverageMarks,
  previewOrder,
  validateCloseLots,
  validateContractOrder,
  withinBand,
  type ContractContext,
  type ContractFormValues,
  type ContractRules,
} from './contract-form';

/** BTC/USDT perpetual as the demo lists it: 0.1 tick, 0.001 step, 1 lot = 1000 USDT, taker 0.05%, Binance-like brackets. */
export const BTC: ContractRules = {
  symbol: 'BTC/USDT',
  base: 'BTC',
  quote: 'USDT',
  priceDecimals: 2,
  qtyDecimals: 3,
  settleScale: 8,
  tickSize: '0.1',
  stepSize: '0.001',
  minQty: '0.001',
  lotNotional: '1000',
  takerFeePpm: 500,
  makerFeePpm: 200,
  brackets: [
    { notionalCap: '50000', maxLeverage: 125, maintMarginPpm: 4000 },
    { notionalCap: '250000', maxLeverage: 100, maintMarginPpm: 5000 },
    { notionalCap: '1000000', maxLeverage: 50, maintMarginPpm: 10000 },
  ],
  priceBandPpm: 500_000,
};

const form = (f: Partial<ContractFormValues> = {}): ContractFormValues => ({
  side: 'LONG',
  orderType: 'LIMIT',
  price: '50000',
  lots: '2',
  leverage: '10',
  marginMode: 'ISOLATED',
  takeProfit: '',
  stopLoss: '',
  ...f,
});
const ctx = (c: Partial<ContractContext> = {}): ContractContext => ({ available: '1000', markPrice: '50000', position: null, ...c });

describe('previewOrder', () => {
  it('2 lots at 50,000 are 0.04 BTC (2,000 USDT face value); 10x costs 200 margin + 1 fee', () => {
    const p = previewOrder(form(), BTC, ctx());
    expect(p.quantity).toBe('0.040');
    expect(p.notional).toBe('2000.00000000');
    expect(p.cost).toBe('201.00000000');
  });
  it("a price beyond the mark also costs Binance's open loss: 2 lots bought at 52,000 against 50,000 add 76", () => {
    // 2 lots at 52,000 = 0.038 BTC (1,976 notional): margin 197.6 + fee 0.988 + (52,000 - 50,000) x 0.038 = 76
    expect(previewOrder(form({ price: '52000' }), BTC, ctx({ available: '5000' })).cost).toBe('274.58800000');
    // a sell above the mark, or a buy below it, loses nothing at once
    expect(previewOrder(form({ side: 'SHORT', price: '52000' }), BTC, ctx({ available: '5000' })).cost).toBe('198.58800000');
    expect(validateContractOrder(form({ price: '52000' }), BTC, ctx({ available: '250' }))).toBe('insufficient_balance');
    expect(validateContractOrder(form({ price: '52000' }), BTC, ctx({ available: '275' }))).toBeNull();
  });
  it('max lots: 1,000 USDT at 10x pays for 9 lots (10 would cost 1,005)', () => {
    expect(previewOrder(form(), BTC, ctx()).maxLots).toBe('9');
    expect(previewOrder(form({ lots: '' }), BTC, ctx()).maxLots).toBe('9');
    expect(previewOrder(form({ leverage: '1' }), BTC, ctx()).maxLots).toBe('0');
  });
  it('isolated long liquidation price: (2000 - 200) / (0.04 x (1 - 0.4%)) rounded up to 45,180.73', () => {
    expect(previewOrder(form(), BTC, ctx()).liquidationPrice).toBe('45180.73');
  });
  it('isolated short liquidation price: (2000 + 200) / (0.04 x 1.004) rounded down', () => {
    // 2200 / 0.04016 = 54780.87649...
    expect(previewOrder(form({ side: 'SHORT' }), BTC, ctx()).liquidationPrice).toBe('54780.87');
  });
  it('cross: the available balance backs the position (long 1x with everything covered has none)', () => {
    expect(previewOrder(form({ marginMode: 'CROSS', leverage: '1', lots: '1' }), BTC, ctx({ available: '5000' })).liquidationPrice).toBe('--');
  });
  it('market orders are previewed at the mark price; nothing without a price or leverage', () => {
    expect(previewOrder(form({ orderType: 'MARKET', price: '' }), BTC, ctx({ markPrice: '40000' })).quantity).toBe('0.050');
    expect(previewOrder(form({ orderType: 'MARKET' }), BTC, ctx({ markPrice: '' })).cost).toBe('');
    expect(previewOrder(form({ leverage: '' }), BTC, ctx()).cost).toBe('');
  });
  it('a closing order of the whole position leaves no liquidation price', () => {
    const pos = { side: 'SHORT' as const, size: '0.040', cost: '2000', margin: '200' };
    expect(previewOrder(form(), BTC, ctx({ position: pos })).liquidationPrice).toBe('--');
  });
});

describe('validateContractOrder', () => {
  it('passes a valid order', () => expect(validateContractOrder(form(), BTC, ctx())).toBeNull());
  it('price, leverage and lots must be entered, in that order', () => {
    expect(validateContractOrder(form({ price: '', leverage: '', lots: '' }), BTC, ctx())).toBe('price_required');
    expect(validateContractOrder(form({ leverage: '', lots: '' }), BTC, ctx())).toBe('leverage_required');
    expect(validateContractOrder(form({ leverage: '126' }), BTC, ctx())).toBe('leverage_required');
    expect(validateContractOrder(form({ lots: '' }), BTC, ctx())).toBe('lots_required');
    expect(validateContractOrder(form({ lots: '1.5' }), BTC, ctx())).toBe('lots_required');
    expect(validateContractOrder(form({ lots: '0' }), BTC, ctx())).toBe('lots_required');
  });
  it('tick and the 50% band around the mark price', () => {
    expect(validateContractOrder(form({ price: '50000.05' }), BTC, ctx())).toBe('price_not_on_tick');
    expect(validateContractOrder(form({ price: '75000' }), BTC, ctx({ available: '100000' }))).toBeNull();
    expect(validateContractOrder(form({ price: '75000.1' }), BTC, ctx())).toBe('price_out_of_band');
    expect(validateContractOrder(form({ price: '24999.9' }), BTC, ctx())).toBe('price_out_of_band');
    expect(withinBand(25000n, 50000n, 500_000)).toBe(true);
  });
  it('a market order needs the mark price', () => {
    expect(validateContractOrder(form({ orderType: 'MARKET', price: '' }), BTC, ctx({ markPrice: '' }))).toBe('mark_price_unavailable');
  });
  it('lots worth less than a step are refused', () => {
    // 1 lot at 2,000,000 is 0.0005 BTC: below the 0.001 step.
    expect(validateContractOrder(form({ price: '2000000', lots: '1' }), BTC, ctx({ markPrice: '2000000' }))).toBe('lots_too_small');
  });
  it('take profit above / stop loss below the current price for a long, the reverse for a short', () => {
    expect(validateContractOrder(form({ takeProfit: '49000' }), BTC, ctx())).toBe('take_profit_invalid');
    expect(validateContractOrder(form({ stopLoss: '51000' }), BTC, ctx())).toBe('stop_loss_invalid');
    expect(validateContractOrder(form({ takeProfit: '51000', stopLoss: '49000' }), BTC, ctx())).toBeNull();
    expect(validateContractOrder(form({ side: 'SHORT', takeProfit: '51000' }), BTC, ctx())).toBe('take_profit_invalid');
    expect(validateContractOrder(form({ side: 'SHORT', stopLoss: '49000' }), BTC, ctx())).toBe('stop_loss_invalid');
    expect(checkTpSl('SHORT', '49000', '51000', '50000', BTC)).toBeNull();
    expect(checkTpSl('LONG', '50000', '', '50000', BTC)).toBe('take_profit_invalid');
    expect(checkTpSl('LONG', '51000.01', '', '50000', BTC)).toBe('take_profit_not_on_tick');
  });
  it('insufficient balance of the contract account; a closing order needs none', () => {
    expect(validateContractOrder(form({ lots: '10' }), BTC, ctx())).toBe('insufficient_balance');
    expect(validateContractOrder(form({ lots: '9' }), BTC, ctx())).toBeNull();
    const pos = { side: 'SHORT' as const, size: '0.200', cost: '10000', margin: '1000' };
    expect(validateContractOrder(form({ lots: '10' }), BTC, ctx({ available: '0', position: pos }))).toBeNull();
  });
});

describe('close lots', () => {
  it('must be entered and at most the position', () => {
    expect(validateCloseLots('', '5')).toBe('close_lots_required');
    expect(validateCloseLots('6', '5')).toBe('close_lots_too_many');
    expect(validateCloseLots('5', '5')).toBeNull();
  });
  it('close quantity is the proportional part rounded down to the step, the whole at all lots', () => {
    expect(closeQuantity('1', '3', '0.100', BTC)).toBe('0.033');
    expect(closeQuantity('3', '3', '0.100', BTC)).toBe('0.100');
  });
});

describe('formatting', () => {
  it('funding rates E8 as percents with 4 decimals', () => {
    expect(formatFundingRate(10000)).toBe('0.0100%');
    expect(formatFundingRate(-2500)).toBe('-0.0025%');
    expect(formatFundingRate(50)).toBe('0.0001%');
    expect(formatFundingRate(300000)).toBe('0.3000%');
    expect(formatFundingRate('x')).toBe('--');
  });
  it('ppm as percents with 2 decimals', () => {
    expect(formatPpmPercent(123456)).toBe('12.35%');
    expect(formatPpmPercent(-5000)).toBe('-0.50%');
    expect(formatPpmPercent(0)).toBe('0.00%');
  });
  it('countdown', async () => {
    const { formatCountdown } = await import('../../../shared/format');
    expect(formatCountdown(28_800_000, 0)).toBe('08:00:00');
    expect(formatCountdown(61_000, 0)).toBe('00:01:01');
    expect(formatCountdown(0, 5000)).toBe('00:00:00');
  });
  it('leverage marks up to the maximum', () => {
    expect(leverageMarks(125)).toEqual([1, 2, 3, 5, 10, 20, 50, 75, 100, 125]);
    expect(leverageMarks(20)).toEqual([1, 2, 3, 5, 10, 20]);
    expect(leverageMarks(30)).toEqual([1, 2, 3, 5, 10, 20, 30]);
  });
  it('order body', () => {
    expect(contractOrderBody('BTC/USDT', form({ takeProfit: '51000' }), '0.040', 'id1')).toEqual({
      symbol: 'BTC/USDT',
      side: 'BUY',
      orderType: 'LIMIT',
      quantity: '0.040',
      lots: '2',
      clientOrderId: 'id1',
      price: '50000',
      takeProfit: '51000',
    });
  });
});

describe('messages', () => {
  it('name the side for TP/SL and the values to meet', async () => {
    const { contractFormMessage, rulesFromMarket, percentToPpm } = await import('./contract-form');
    expect(contractFormMessage('take_profit_invalid', 'SHORT', BTC)).toEqual({ key: 'err.take_profit_invalid_SHORT', values: {} });
    expect(contractFormMessage('price_not_on_tick', 'LONG', BTC)).toEqual({ key: 'err.price_not_on_tick', values: { step: '0.1', coin: 'USDT' } });
    expect(contractFormMessage('leverage_required', 'LONG', BTC).values.max).toBe('125');
    expect(percentToPpm('0.40')).toBe(4000);
    expect(percentToPpm('0.0500')).toBe(500);
    expect(percentToPpm('50')).toBe(500000);
    const r = rulesFromMarket({
      symbol: 'BTC/USDT',
      base: 'BTC',
      quote: 'USDT',
      priceDecimals: 2,
      qtyDecimals: 3,
      tickSize: '0.1',
      stepSize: '0.001',
      minQty: '0.001',
      lotNotional: '1000',
      makerFeeRate: '0.0200',
      takerFeeRate: '0.0500',
      priceBandRate: '50',
      brackets: [{ notionalCap: '50000', maxLeverage: 125, maintMarginRate: '0.40' }],
    });
    expect(r.takerFeePpm).toBe(500);
    expect(r.priceBandPpm).toBe(500000);
    expect(r.brackets[0]).toEqual({ notionalCap: '50000', maxLeverage: 125, maintMarginPpm: 4000 });
  });
});

describe('stepPrice', () => {
  it('aligns to the tick then steps', async () => {
    const { stepPrice } = await import('./contract-form');
    expect(stepPrice('100.05', '0.1', 2, 1)).toBe('100.10');
    expect(stepPrice('100.05', '0.1', 2, -1)).toBe('100.00');
    expect(stepPrice('100.10', '0.1', 2, -1)).toBe('100.00');
    expect(stepPrice('', '0.1', 2, 1)).toBe('0.10');
    expect(stepPrice('0.1', '0.1', 2, -1)).toBe('');
  });
  it('steps a price typed with more places than the market from its places cut off (never refused as empty)', async () => {
    const { stepPrice } = await import('./contract-form');
    expect(stepPrice('100.057', '0.1', 2, 1)).toBe('100.10');
    expect(stepPrice('100.057', '0.1', 2, -1)).toBe('100.00');
    expect(stepPrice('0100.1', '0.1', 2, 1)).toBe('100.20');
  });
});

describe('toUnits', () => {
  it('reads what a person types or the wire sends, cutting places beyond the decimals towards zero', async () => {
    const { toUnits } = await import('./contract-form');
    expect(toUnits('123.45', 2)).toBe(12_345n);
    expect(toUnits('5.', 2)).toBe(500n);
    expect(toUnits('.5', 2)).toBe(50n);
    expect(toUnits('007', 0)).toBe(7n);
    expect(toUnits('100.057', 2)).toBe(10_005n);
    expect(toUnits('-1.5', 8)).toBe(-150_000_000n);
    expect(toUnits('-0.000000019', 8)).toBe(-1n);
    expect(toUnits(' 2 ', 1)).toBe(20n);
    for (const bad of ['', '.', '-', 'abc', '1e3', '1,5', '--5', '- 5']) expect(toUnits(bad, 2)).toBeNull();
  });
  it('a price with more places than the market is off the tick, not missing', () => {
    expect(validateContractOrder(form({ price: '50000.123' }), BTC, ctx())).toBe('price_not_on_tick');
    expect(validateContractOrder(form({ price: '50000.' }), BTC, ctx())).toBe('price_required');
  });
});

describe('atMark', () => {
  const pos = {
    side: 'LONG' as const,
    quantity: '0.040',
    markPrice: '50000.00',
    unrealizedPnl: '0.00000000',
    margin: '200.00000000',
    positionValue: '2000.00000000',
    yieldRate: '0.00',
  };
  it('a long gains size x move; yield on the margin', async () => {
    const { atMark } = await import('./contract-form');
    const p = atMark(pos, '51000.00');
    expect(p.unrealizedPnl).toBe('40.00000000');
    expect(p.positionValue).toBe('2040.00000000');
    expect(p.yieldRate).toBe('20.00');
    expect(p.markPrice).toBe('51000.00');
  });
  it('a short loses on a rise; unchanged without a mark', async () => {
    const { atMark } = await import('./contract-form');
    expect(atMark({ ...pos, side: 'SHORT' }, '50500.5').unrealizedPnl).toBe('-20.02000000');
    expect(atMark({ ...pos, side: 'SHORT' }, '50500.5').yieldRate).toBe('-10.01');
    expect(atMark(pos, '')).toBe(pos);
  });
});
