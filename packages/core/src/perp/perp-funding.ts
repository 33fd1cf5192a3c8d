/**
 * Funding (the layer above perp-liquidation.ts): at each funding time, longs pay shorts (or the other way) the position
 * notional at the mark times the rate, payers rounded up and receivers down, through '@funding'.
 */
import type { CommandResult } from '../types';
import { fundingPayment, fundingRateE8 } from './math';
import type { PerpCommand } from './types';
import { INSURANCE, isInt, type Pos, reject } from './perp-market';
import { PerpLiquidation } from './perp-liquidation';

/** Funding. */
export abstract class PerpFunding extends PerpLiquidation {
  protected funding(cmd: Extract<PerpCommand, { type: 'perpFunding' }>): CommandResult {
    const m = this.markets.get(cmd.symbol);
    if (m === undefined) return reject('market_not_found');
    const c = m.cfg;
    if (!isInt(cmd.fundingTs, 1, 9_007_199_254_740_991) || cmd.fundingTs % c.fundingIntervalMs !== 0) return reject('invalid_config');
    if (cmd.fundingTs > cmd.ts || cmd.fundingTs <= m.lastFundingTs) return reject('funding_not_due');
    const mark = m.markPrice;
    if (mark === null) return reject('mark_price_unavailable');
    const rate = fundingRateE8(m.premiumWeighted, m.premiumWeights, c.interestRateE8, c.fundingCapE8);
    const pool = this.sys('@funding', c.quote);
    let paid = 0n;
    let received = 0n;
    let count = 0;
    const pays: [Pos, bigint][] = [];
    const gets: [Pos, bigint][] = [];
    for (const p of m.positions.values()) {
      if (p.userId === INSURANCE) continue;
      const amt = fundingPayment(p.side, p.size, mark, m.mult, rate);
      count++;
      if (amt < 0n) pays.push([p, amt]);
      else if (amt > 0n) gets.push([p, amt]);
    }
    // Funding passes from payers to receivers and never draws on the insurance fund: what a payer cannot pay (its
    // margin, available balance and cross margins are gone: a position past bankruptcy between two ticks) is not paid,
    // and every receiver then gets its share of what was collected, floor(amount x collected / owed).
    let owed = 0n;
    for (const [p, amt] of pays) {
      const unpaid = this.pay(p.userId, c.quote, -amt, pool, p.mode === 'ISOLATED' ? p : null, null, false);
      const got = -amt - unpaid;
      owed += -amt;
      paid += got;
      p.funding -= got;
      this.touch(p);
      this.host.events.push({ type: 'fundingPayment', ts: cmd.ts, userId: p.userId, symbol: c.symbol, fundingTs: cmd.fundingTs, rateE8: rate, amount: -got });
    }
    for (const [p, full] of gets) {
      const amt = paid < owed ? (full * paid) / owed : full;
      if (amt === 0n) continue;
      const a = this.acc(p.userId, c.quote);
      this.ledger.post(pool, 'available', a, 'available', amt);
      if (p.mode === 'ISOLATED') {
        this.ledger.hold(a, amt);
        p.margin += amt;
      }
      received += amt;
      p.funding += amt;
      this.touch(p);
      this.host.events.push({ type: 'fundingPayment', ts: cmd.ts, userId: p.userId, symbol: c.symbol, fundingTs: cmd.fundingTs, rateE8: rate, amount: amt });
    }
    m.lastFundingRateE8 = rate;
    m.lastFundingTs = cmd.fundingTs;
    m.premiumWeighted = 0n;
    m.premiumWeights = 0n;
    m.premiumCount = 0;
    this.host.events.push({
      type: 'fundingSettled',
      ts: cmd.ts,
      symbol: c.symbol,
      fundingTs: cmd.fundingTs,
      rateE8: rate,
      markPrice: mark,
      paid,
      received,
      positions: count,
    });
    return { code: 'ok', events: this.host.events };
  }
}
