/**
 * Proves the engine's router (engine.ts): every domain machine's command list is disjoint from the others', a command
 * of an unknown type is rejected `invalid_order` with no events and changes nothing, and spot's closed list of
 * rejections (SPOT_REJECT_CODES) holds only codes of the engine's union, in the union's precedence order.
 * That every command type of types.ts is in some machine's list is checked by the compiler (engine.ts).
 */
import { describe, expect, it } from 'vitest';
import { ACTIVITY_COMMANDS } from '../src/activity/activity-engine';
import { EARN_COMMANDS } from '../src/earn/earn-engine';
import { Engine } from '../src/engine';
import { OTC_COMMANDS } from '../src/otc/otc-engine';
import { PERP_COMMANDS } from '../src/perp/perp-engine';
import { REBATE_COMMANDS } from '../src/rebate/rebate-state';
import { SPOT_COMMANDS, SPOT_REJECT_CODES } from '../src/spot/spot-engine';
import { REJECT_CODES, type Command } from '../src/types';
import { USER_COMMANDS } from '../src/users';
import { WALLET_COMMANDS } from '../src/wallet/wallet-engine';
import { engineWithMarket } from './fixtures';

describe('engine router', () => {
  it('gives each command type to one machine only', () => {
    const lists: readonly (readonly string[])[] = [
      USER_COMMANDS,
      WALLET_COMMANDS,
      SPOT_COMMANDS,
      PERP_COMMANDS,
      REBATE_COMMANDS,
      OTC_COMMANDS,
      ACTIVITY_COMMANDS,
      EARN_COMMANDS,
    ];
    const all = lists.flat();
    expect(new Set(all).size).toBe(all.length);
    expect(all).not.toContain('genesis');
  });

  it('rejects a command of an unknown type with invalid_order and changes nothing', () => {
    const e = engineWithMarket();
    const before = e.stateHash();
    const r = e.execute({ type: 'noSuchCommand', ts: 1 } as unknown as Command);
    expect(r).toEqual({ code: 'invalid_order', events: [] });
    expect(e.stateHash()).toBe(before);
    expect(new Engine().execute({ type: 'noSuchCommand', ts: 1 } as unknown as Command).code).toBe('invalid_order');
  });

  it("lists spot's rejections in the union's precedence order", () => {
    const positions = SPOT_REJECT_CODES.map((c) => REJECT_CODES.indexOf(c));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });
});
