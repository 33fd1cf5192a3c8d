/**
 * The rebate state on its own, with a real ledger (the engine's settlement is in test/rebate.test.ts): accruals land
 * on the fill's Asia/Shanghai day, or the day after the last settled one when that day is settled already; days stay
 * ascending whatever order they arrive in; a zero fee accrues nothing; the settlement pays 30% rounded down to
 * inviters holding at least 5,000 USDT (judged before it pays anything), from @fee to their CONTRACT account, and
 * nothing is posted for an unqualified inviter or without the USDT asset; malformed days are refused; isEmpty and
 * the snapshot rows follow.
 */
import { describe, expect, it } from 'vitest';
import { Ledger } from '../ledger/ledger';
import type { EngineEvent } from '../types';
import { RebateState } from './rebate-state';
import { MAX_REBATE_DAY, rebateDayStart } from './types';

const U = 100_000_000n; // USDT units
const DAY = 19_000;
const at = (day: number, hour = 12) => rebateDayStart(day) + hour * 3_600_000;

function host(withUsdt = true) {
  const ledger = new Ledger();
  const events: EngineEvent[] = [];
  return { ledger, events, hasAsset: (code: string) => (withUsdt && code === 'USDT' ? 8 : undefined) };
}
/** Gives `owner` `amount` USDT in `kind` from the faucet account. */
function give(ledger: Ledger, owner: string, kind: 'CONTRACT' | 'SPOT', amount: bigint): void {
  ledger.post(ledger.account('@faucet', 'SYSTEM', 'USDT'), 'available', ledger.account(owner, kind, 'USDT'), 'available', amount);
}

describe('RebateState accrual', () => {
  it('accrues on the fill day; a fee of 0 accrues nothing; empty until something is accrued or settled', () => {
    const s = new RebateState();
    expect(s.isEmpty).toBe(true);
    s.accrue(at(DAY), 'b', 'a', 0n);
    expect(s.isEmpty).toBe(true);
    expect(s.rows()).toEqual({ settledThrough: -1, days: [] });
    s.accrue(at(DAY), 'b', 'a', 10n);
    s.accrue(at(DAY, 23), 'b', 'a', 5n);
    expect(s.isEmpty).toBe(false);
    expect(s.rebateAccrued('b')).toEqual([{ day: DAY, inviterId: 'a', fee: 15n, rebate: 4n }]);
  });

  it('keeps the days ascending whatever order the fills arrive in', () => {
    const s = new RebateState();
    s.accrue(at(DAY + 2), 'b', 'a', 1n);
    s.accrue(at(DAY), 'b', 'a', 2n);
    s.accrue(at(DAY + 3), 'b', 'a', 3n);
    s.accrue(at(DAY + 1), 'c', 'a', 4n);
    expect(s.rows().days.map(([d]) => d)).toEqual([DAY, DAY + 1, DAY + 2, DAY + 3]);
    expect(s.rows().days).toEqual([
      [DAY, [['b', 'a', '2']]],
      [DAY + 1, [['c', 'a', '4']]],
      [DAY + 2, [['b', 'a', '1']]],
      [DAY + 3, [['b', 'a', '3']]],
    ]);
    expect(RebateState.restore(JSON.parse(JSON.stringify(s.rows()))).rows()).toEqual(s.rows());
  });

  it('a fill on a day already settled accrues on the day after the last settled one', () => {
    const h = host();
    const s = new RebateState();
    expect(s.execute({ type: 'settleRebates', ts: at(DAY + 1), day: DAY }, h).code).toBe('ok');
    expect(s.isEmpty).toBe(false);
    s.accrue(at(DAY - 3), 'b', 'a', 7n); // the command time went back across midnight
    s.accrue(at(DAY), 'c', 'a', 8n);
    expect(s.rows().days).toEqual([
      [
        DAY + 1,
        [
          ['b', 'a', '7'],
          ['c', 'a', '8'],
        ],
      ],
    ]);
  });
});

describe('RebateState settlement', () => {
  it('pays 30% rounded down from @fee to qualified inviters only (threshold judged before paying), once', () => {
    const h = host();
    h.ledger.post(h.ledger.account('@faucet', 'SYSTEM', 'USDT'), 'available', h.ledger.account('@fee', 'SYSTEM', 'USDT'), 'available', 1_000n * U);
    give(h.ledger, 'rich', 'SPOT', 4_000n * U);
    give(h.ledger, 'rich', 'CONTRACT', 1_000n * U); // 5,000 over two accounts: qualifies
    give(h.ledger, 'poor', 'CONTRACT', 5_000n * U - 1n); // one unit short
    const s = new RebateState();
    s.accrue(at(DAY), 'x', 'rich', 101n);
    s.accrue(at(DAY), 'y', 'poor', 1_000n);
    s.accrue(at(DAY), 'z', 'rich', 3n); // rebate 0 (0.9 rounded down): a payout row with nothing paid
    const r = s.execute({ type: 'settleRebates', ts: at(DAY + 1), day: DAY }, h);
    expect(r.code).toBe('ok');
    const paid = h.events
      .filter((e) => e.type === 'rebatePaid')
      .map((e) => (e.type === 'rebatePaid' ? [e.inviteeId, e.inviterId, e.fee, e.rebate, e.paid] : []));
    expect(paid).toEqual([
      ['x', 'rich', 101n, 30n, 30n],
      ['y', 'poor', 1_000n, 300n, 0n],
      ['z', 'rich', 3n, 0n, 0n],
    ]);
    expect(h.events.at(-1)).toMatchObject({ type: 'rebatesSettled', fromDay: 0, day: DAY, payouts: 3, paid: 30n });
    expect(h.ledger.balance('rich', 'CONTRACT', 'USDT').available).toBe(1_000n * U + 30n);
    expect(h.ledger.balance('poor', 'CONTRACT', 'USDT').available).toBe(5_000n * U - 1n);
    expect(h.ledger.balance('@fee', 'SYSTEM', 'USDT').available).toBe(1_000n * U - 30n);
    expect(s.rows()).toEqual({ settledThrough: DAY, days: [] });
    // Again: a duplicate, nothing more posted.
    const again = s.execute({ type: 'settleRebates', ts: at(DAY + 1), day: DAY }, host());
    expect(again).toMatchObject({ code: 'ok', events: [], duplicate: true });
  });

  it('the threshold counts the inviter before this settlement pays: a payout does not qualify the next row', () => {
    const h = host();
    h.ledger.post(h.ledger.account('@faucet', 'SYSTEM', 'USDT'), 'available', h.ledger.account('@fee', 'SYSTEM', 'USDT'), 'available', 10_000n * U);
    give(h.ledger, 'a', 'CONTRACT', 5_000n * U - 10n);
    const s = new RebateState();
    s.accrue(at(DAY), 'x', 'a', 100n); // would pay 30, lifting 'a' over the threshold
    s.accrue(at(DAY), 'y', 'a', 100n);
    s.execute({ type: 'settleRebates', ts: at(DAY + 1), day: DAY }, h);
    expect(h.ledger.balance('a', 'CONTRACT', 'USDT').available).toBe(5_000n * U - 10n);
  });

  it('without the USDT asset nothing is posted and the events say nothing was paid', () => {
    const h = host(false);
    const s = new RebateState();
    s.accrue(at(DAY), 'x', 'a', 100n);
    expect(s.execute({ type: 'settleRebates', ts: at(DAY + 1), day: DAY }, h).code).toBe('ok');
    expect(h.events.find((e) => e.type === 'rebatePaid')).toMatchObject({ rebate: 30n, paid: 0n });
    expect(h.events.at(-1)).toMatchObject({ type: 'rebatesSettled', paid: 0n });
    expect(h.ledger.balance('@fee', 'SYSTEM', 'USDT').available).toBe(0n);
  });

  it('refuses a malformed or open day, changing nothing; day 0 and MAX_REBATE_DAY are valid days', () => {
    const s = new RebateState();
    s.accrue(at(DAY), 'x', 'a', 100n);
    const before = s.rows();
    for (const day of [-1, 1.5, MAX_REBATE_DAY + 1, 0 / 0, '5' as unknown as number]) {
      expect(s.execute({ type: 'settleRebates', ts: at(DAY + 1), day }, host()).code, String(day)).toBe('invalid_config');
    }
    expect(s.execute({ type: 'settleRebates', ts: at(DAY, 23), day: DAY }, host()).code).toBe('rebate_day_open');
    expect(s.rows()).toEqual(before);
    expect(new RebateState().execute({ type: 'settleRebates', ts: at(DAY), day: 0 }, host()).code).toBe('ok');
    expect(new RebateState().execute({ type: 'settleRebates', ts: rebateDayStart(MAX_REBATE_DAY + 1), day: MAX_REBATE_DAY }, host()).code).toBe('ok');
  });
});
