/**
 * Property test of the rebate state (rebate-state.ts) against an independent model: random fees of random invitees at
 * increasing times across several Asia/Shanghai days, interleaved with settlements of random days (some not over,
 * some repeated, some skipping days). The model keeps a flat list of (effective day, invitee, fee) and pays, per
 * settled (day, invitee), floor(sum x 3 / 10) when the inviter holds the threshold; the engine state must pay exactly
 * the same to every inviter, return the same codes, keep its accruals equal to the unsettled list, and survive a
 * snapshot round trip at any step.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Ledger } from '../ledger/ledger';
import type { EngineEvent } from '../types';
import { RebateState, type RebateHost } from './rebate-state';
import { rebateDay, rebateDayStart } from './types';

const U = 100_000_000n;
const INVITER: Record<string, string> = { a: 'X', b: 'X', c: 'Y', d: 'Z' };
/** X and Z hold the threshold (5,000 USDT), Y holds 1 unit less. */
const HOLDINGS: Record<string, bigint> = { X: 5_000n * U, Y: 5_000n * U - 1n, Z: 9_000n * U };
const D0 = rebateDay(1_793_491_200_000); // 2026-11-01 00:00 UTC

type Op = { kind: 'fee'; dtMs: number; invitee: string; fee: bigint } | { kind: 'settle'; dtMs: number; dayBack: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('fee' as const),
      dtMs: fc.integer({ min: 0, max: 10 * 3_600_000 }),
      invitee: fc.constantFrom('a', 'b', 'c', 'd'),
      fee: fc.bigInt({ min: 1n, max: 10n ** 12n }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('settle' as const), dtMs: fc.integer({ min: 0, max: 3_600_000 }), dayBack: fc.integer({ min: -1, max: 3 }) }),
  },
);

describe('rebate state vs an independent model', () => {
  it('pays floor(30%) per invitee and day, once, to qualifying inviters', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 80 }), fc.integer({ min: 0, max: 86_399_999 }), (ops, startOffset) => {
        const ledger = new Ledger();
        for (const [who, amount] of Object.entries(HOLDINGS))
          ledger.post(ledger.account('@faucet', 'SYSTEM', 'USDT'), 'available', ledger.account(who, 'SPOT', 'USDT'), 'available', amount);
        const host: RebateHost & { events: EngineEvent[] } = { ledger, events: [], hasAsset: (c) => (c === 'USDT' ? 8 : undefined) };
        let st = new RebateState();
        // the model
        const open: { day: number; invitee: string; fee: bigint }[] = [];
        let through = -1;
        const paid: Record<string, bigint> = { X: 0n, Y: 0n, Z: 0n };
        let ts = rebateDayStart(D0) + startOffset;
        for (const op of ops) {
          ts += op.dtMs;
          if (op.kind === 'fee') {
            st.accrue(ts, op.invitee, INVITER[op.invitee]!, op.fee);
            open.push({ day: Math.max(Math.floor((ts + 8 * 3_600_000) / 86_400_000), through + 1), invitee: op.invitee, fee: op.fee });
          } else {
            const today = Math.floor((ts + 8 * 3_600_000) / 86_400_000);
            const day = today - op.dayBack;
            host.events.length = 0;
            ledger.beginCommand();
            const r = st.execute({ type: 'settleRebates', ts, day }, host);
            if (day >= today) {
              expect(r.code).toBe('rebate_day_open');
            } else if (day <= through) {
              expect(r).toMatchObject({ code: 'ok', duplicate: true, events: [] });
            } else {
              expect(r.code).toBe('ok');
              const sums = new Map<string, bigint>();
              for (let i = open.length - 1; i >= 0; i--) {
                const o = open[i]!;
                if (o.day > day) continue;
                const k = `${o.day}|${o.invitee}`;
                sums.set(k, (sums.get(k) ?? 0n) + o.fee);
                open.splice(i, 1);
              }
              let expectedPayouts = 0;
              for (const [k, sum] of sums) {
                const inviter = INVITER[k.split('|')[1]!]!;
                if (HOLDINGS[inviter]! + paid[inviter]! >= 5_000n * U) paid[inviter] = paid[inviter]! + (sum * 3n) / 10n;
                expectedPayouts++;
              }
              expect(r.events.filter((e) => e.type === 'rebatePaid').length).toBe(expectedPayouts);
              through = day;
            }
            for (const who of Object.keys(HOLDINGS)) expect(ledger.balance(who, 'CONTRACT', 'USDT').available, who).toBe(paid[who]);
          }
          expect(st.rebateSettledThrough()).toBe(through);
          for (const inv of Object.keys(INVITER)) {
            const byDay = new Map<number, bigint>();
            for (const o of open) if (o.invitee === inv) byDay.set(o.day, (byDay.get(o.day) ?? 0n) + o.fee);
            expect(st.rebateAccrued(inv).map((x) => [x.day, x.fee])).toEqual([...byDay].sort((p, q) => p[0] - q[0]));
          }
          // A snapshot round trip at any step changes nothing.
          st = RebateState.restore(JSON.parse(JSON.stringify(st.rows())));
        }
      }),
      { numRuns: 300 },
    );
  });
});
