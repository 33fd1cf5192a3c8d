/**
 * Proves that each state machine answers from its own closed list of rejection codes: the lists together are exactly
 * the engine's union (REJECT_CODES and the codes a given machine declares, here the savings' `earn_*`: no code unused
 * by every machine, none missing from the union), each holds only codes of the union, once, in the union's order (a
 * given machine's own codes after the core's it shares), and the compiler refuses another domain's code in a machine's type
 * (the `@ts-expect-error` lines: `tsc` fails if one of those assignments compiles, so the core's typecheck runs this
 * half of the test).
 */
import { describe, expect, it } from 'vitest';
import { ACTIVITY_REJECT_CODES, type ActivityRejectCode } from './activity/activity-engine';
import { EARN_REJECT_CODES, type EarnRejectCode } from './earn/earn-engine';
import { ENGINE_REJECT_CODES, type EngineRejectCode } from './engine';
import { OTC_REJECT_CODES, type OtcRejectCode } from './otc/otc-engine';
import { PERP_REJECT_CODES, type PerpRejectCode } from './perp/perp-engine';
import { reject as perpReject } from './perp/perp-market';
import { REBATE_REJECT_CODES, type RebateRejectCode } from './rebate/rebate-state';
import { SPOT_REJECT_CODES } from './spot/spot-engine';
import { REJECT_CODES } from './types';
import { USER_REJECT_CODES } from './users';
import { WALLET_REJECT_CODES } from './wallet/wallet-engine';

/** Every machine's list, by the machine's name (the router's own list included). */
const LISTS: Readonly<Record<string, readonly string[]>> = {
  engine: ENGINE_REJECT_CODES,
  users: USER_REJECT_CODES,
  wallet: WALLET_REJECT_CODES,
  spot: SPOT_REJECT_CODES,
  perp: PERP_REJECT_CODES,
  otc: OTC_REJECT_CODES,
  earn: EARN_REJECT_CODES,
  activity: ACTIVITY_REJECT_CODES,
  rebate: REBATE_REJECT_CODES,
};

/** The codes the savings machine declares itself (MachineRejectCodes in earn/types.ts): its own namespace. */
const EARN_OWN = EARN_REJECT_CODES.filter((c) => !(REJECT_CODES as readonly string[]).includes(c));
/** The engine's union as the server sees it: the core's list and the given machines' own codes. */
const UNION: readonly string[] = [...REJECT_CODES, ...EARN_OWN];

describe("the machines' rejection codes", () => {
  it('together are exactly the engine union: no code unused, none missing', () => {
    expect(EARN_OWN).toEqual([
      'earn_product_not_found',
      'earn_product_closed',
      'earn_amount_out_of_limits',
      'earn_quota_exceeded',
      'earn_lock_not_found',
      'earn_early_redeem_not_allowed',
    ]);
    const used = new Set(Object.values(LISTS).flat());
    expect(UNION.filter((c) => !used.has(c))).toEqual([]);
    expect([...used].filter((c) => !UNION.includes(c))).toEqual([]);
    expect([...used].sort()).toEqual([...UNION].sort());
  });

  it("each list holds a code once; the perpetuals', OTC, savings, activities', rebates' and router's in the union's order", () => {
    for (const list of Object.values(LISTS)) expect(new Set(list).size).toBe(list.length);
    for (const name of ['engine', 'perp', 'otc', 'earn', 'activity', 'rebate']) {
      const positions = (LISTS[name] as readonly string[]).map((c) => UNION.indexOf(c));
      expect(positions.every((p) => p >= 0)).toBe(true);
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    }
  });

  it("refuses another domain's code in a machine's type", () => {
    // Each pair: a code of the machine's own (compiles) and one of another domain (must not compile).
    const perp: PerpRejectCode[] = [
      'funding_not_due',
      // @ts-expect-error an OTC code is not a perpetuals' rejection
      'otc_disabled',
    ];
    const otc: OtcRejectCode[] = [
      'otc_disabled',
      // @ts-expect-error a perpetuals' code is not an OTC rejection
      'leverage_too_high',
    ];
    const earn: EarnRejectCode[] = [
      'earn_quota_exceeded',
      // @ts-expect-error a convert code (spot) is not a savings rejection
      'convert_slippage',
    ];
    const activity: ActivityRejectCode[] = [
      'activity_ended',
      // @ts-expect-error a savings code is not an activity rejection
      'earn_product_closed',
    ];
    const rebate: RebateRejectCode[] = [
      'rebate_day_open',
      // @ts-expect-error a wallet code is not a rebate rejection
      'insufficient_balance',
    ];
    const engine: EngineRejectCode[] = [
      'invalid_order',
      // @ts-expect-error a users' code is not the router's rejection
      'user_not_found',
    ];
    // The perpetuals' reject helper, shared by the perp-*.ts layer files, takes only the perpetuals' codes.
    // @ts-expect-error an activity code is refused by the perpetuals' reject helper
    const refused = perpReject('activity_not_found');
    expect(refused).toEqual({ code: 'activity_not_found', events: [] });

    const lists: [string[], readonly string[]][] = [
      [perp, PERP_REJECT_CODES],
      [otc, OTC_REJECT_CODES],
      [earn, EARN_REJECT_CODES],
      [activity, ACTIVITY_REJECT_CODES],
      [rebate, REBATE_REJECT_CODES],
      [engine, ENGINE_REJECT_CODES],
    ];
    for (const [[own, foreign], list] of lists) {
      expect(list).toContain(own);
      expect(list).not.toContain(foreign);
    }
  });
});
