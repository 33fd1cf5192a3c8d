/**
 * Proves the engine's user registry: ids come from the command sequence ("1", "2", ...), an account or unique key
 * is never given to two users, a rejected registration changes nothing and takes no id, profile updates honour
 * their compare-and-set, genesis names the journal once, and all of it survives snapshot/restore (same hash).
 * Also: updateUser `addKeys` binds further unique keys (refused when another user owns one, nothing
 * half-applied), `audit` is copied into the event untouched, and profile `frozen` = '1' refuses the user's orders
 * and transfers but not cancels; the new fields survive the binary journal codec and snapshots.
 */
import { describe, expect, it } from 'vitest';
import { decodeCommand, encodeCommand } from '../src/codec';
import { Engine } from '../src/engine';
import type { Command } from '../src/types';
import { COIN, engineWithMarket, fund, limit, nextTs, ok, PX } from './fixtures';

const reg = (account: string, keys: string[] = [], profile: Record<string, string> = {}, ts = 1) =>
  ({ type: 'registerUser', ts, account, uniqueKeys: keys, profile }) as const;

describe('user registry', () => {
  it('assigns consecutive ids and refuses taken accounts and keys without consuming an id', () => {
    const e = new Engine();
    const a = e.execute(reg('mail:a@x.io', ['uuid:11111111'], { nickName: '' }));
    expect(a.code).toBe('ok');
    expect(a.userId).toBe('1');
    expect(a.events[0]).toEqual({
      type: 'userRegistered',
      ts: 1,
      userId: '1',
      account: 'mail:a@x.io',
      uniqueKeys: ['uuid:11111111'],
      profile: { nickName: '' },
    });
    expect(e.execute(reg('mail:a@x.io', ['uuid:22222222']))).toEqual({ code: 'account_exists', events: [] });
    expect(e.execute(reg('mail:b@x.io', ['uuid:11111111']))).toEqual({ code: 'user_key_taken', events: [] });
    expect(e.execute(reg('uuid:11111111'))).toEqual({ code: 'account_exists', events: [] });
    expect(e.execute(reg('mail:c@x.io', ['k', 'k'])).code).toBe('invalid_config');
    expect(e.execute(reg('', [])).code).toBe('invalid_config');
    expect(e.execute(reg('mail:d@x.io', [], { bad: 1 as unknown as string })).code).toBe('invalid_config');
    const b = e.execute(reg('mail:b@x.io', ['uuid:22222222']));
    expect(b.userId).toBe('2');
    expect(e.userByKey('uuid:22222222')).toBe('2');
    expect(e.user('1')?.account).toBe('mail:a@x.io');
  });

  it('updates profiles with an optional compare-and-set', () => {
    const e = new Engine();
    e.execute(reg('mail:a@x.io', [], { nickName: '', passwordHash: 'h1' }));
    expect(e.execute({ type: 'updateUser', ts: 2, userId: '9', profile: { nickName: 'x' } }).code).toBe('user_not_found');
    const ok = e.execute({ type: 'updateUser', ts: 2, userId: '1', profile: { nickName: 'neo' }, expect: { nickName: '' } });
    expect(ok.code).toBe('ok');
    expect(ok.events).toEqual([{ type: 'userUpdated', ts: 2, userId: '1', profile: { nickName: 'neo', passwordHash: 'h1' } }]);
    expect(e.execute({ type: 'updateUser', ts: 3, userId: '1', profile: { nickName: 'again' }, expect: { nickName: '' } })).toEqual({
      code: 'user_field_mismatch',
      events: [],
    });
    expect(e.user('1')?.profile.nickName).toBe('neo');
  });

  it('accepts genesis once and keeps users and the journal id through snapshot/restore', () => {
    const e = new Engine();
    expect(e.journalId()).toBeNull();
    expect(e.execute({ type: 'genesis', ts: 1, journalId: 'j-1' }).code).toBe('ok');
    expect(e.execute({ type: 'genesis', ts: 2, journalId: 'j-2' }).code).toBe('invalid_config');
    e.execute(reg('mail:a@x.io', ['wel:AAAA'], { nickName: 'n' }));
    const r = Engine.restore(JSON.parse(JSON.stringify(e.snapshot())) as ReturnType<Engine['snapshot']>);
    expect(r.stateHash()).toBe(e.stateHash());
    expect(r.journalId()).toBe('j-1');
    expect(r.execute(reg('mail:a@x.io')).code).toBe('account_exists');
    expect(r.execute(reg('mail:z@x.io', ['wel:AAAA'])).code).toBe('user_key_taken');
    expect(r.execute(reg('mail:b@x.io')).userId).toBe('2');
  });
});

describe('updateUser addKeys and audit', () => {
  it('adds unique keys, refuses one owned by another user without changing anything, and finds the user by them', () => {
    const e = new Engine();
    e.execute(reg('mail:a@x.io', ['uuid:11111111']));
    e.execute(reg('phone:86:13800000000', ['uuid:22222222']));
    const bound = e.execute({ type: 'updateUser', ts: 2, userId: '1', profile: { phone: '13900000000', areaCode: '86' }, addKeys: ['phone:86:13900000000'] });
    expect(bound.code).toBe('ok');
    expect(bound.events).toEqual([
      { type: 'userUpdated', ts: 2, userId: '1', profile: { phone: '13900000000', areaCode: '86' }, addedKeys: ['phone:86:13900000000'] },
    ]);
    expect(e.userByKey('phone:86:13900000000')).toBe('1');
    expect(e.user('1')?.uniqueKeys).toEqual(['uuid:11111111', 'phone:86:13900000000']);
    // Owned by user 2 (its account): refused, and neither the profile nor the keys of user 1 change.
    const taken = e.execute({ type: 'updateUser', ts: 3, userId: '1', profile: { phone: '13800000000' }, addKeys: ['phone:86:13800000000'] });
    expect(taken).toEqual({ code: 'user_key_taken', events: [] });
    expect(e.user('1')?.profile.phone).toBe('13900000000');
    expect(e.userByKey('phone:86:13800000000')).toBe('2');
    // A key the user owns already is a no-op (no addedKeys in the event).
    const again = e.execute({ type: 'updateUser', ts: 4, userId: '1', profile: {}, addKeys: ['mail:a@x.io', 'uuid:11111111'] });
    expect(again.events).toEqual([{ type: 'userUpdated', ts: 4, userId: '1', profile: { phone: '13900000000', areaCode: '86' } }]);
    expect(e.execute({ type: 'updateUser', ts: 5, userId: '1', profile: {}, addKeys: ['k', 'k'] }).code).toBe('invalid_config');
    expect(e.execute({ type: 'updateUser', ts: 5, userId: '1', profile: {}, addKeys: [''] }).code).toBe('invalid_config');
    const many = Array.from({ length: 8 }, (_, i) => `x:${i}`);
    expect(e.execute({ type: 'updateUser', ts: 5, userId: '1', profile: {}, addKeys: many }).code).toBe('invalid_config');
    // The added key is kept by snapshot/restore (same state hash) and still refused to others.
    const r = Engine.restore(JSON.parse(JSON.stringify(e.snapshot())) as ReturnType<Engine['snapshot']>);
    expect(r.stateHash()).toBe(e.stateHash());
    expect(r.userByKey('phone:86:13900000000')).toBe('1');
    expect(r.execute(reg('phone:86:13900000000')).code).toBe('account_exists');
  });

  it('copies audit into the event as given and refuses a malformed one', () => {
    const e = new Engine();
    e.execute(reg('mail:a@x.io'));
    const audit = { operatorId: '7', action: 'freeze', reason: 'fraud report' };
    const r = e.execute({ type: 'updateUser', ts: 2, userId: '1', profile: { frozen: '1' }, audit });
    expect(r.events).toEqual([{ type: 'userUpdated', ts: 2, userId: '1', profile: { frozen: '1' }, audit }]);
    expect(e.execute({ type: 'updateUser', ts: 3, userId: '1', profile: {}, audit: { n: 1 as unknown as string } }).code).toBe('invalid_config');
  });

  it('round-trips addKeys and audit through the binary journal codec', () => {
    const cmd: Command = { type: 'updateUser', ts: 9, userId: '3', profile: { a: 'b' }, expect: { a: '' }, addKeys: ['mail:z@x.io'], audit: { op: '1' } };
    expect(decodeCommand(encodeCommand(cmd))).toEqual(cmd);
    expect(encodeCommand(cmd)[0]).not.toBe(0x7b); // binary, not the JSON fallback
    const plain: Command = { type: 'updateUser', ts: 9, userId: '3', profile: { a: 'b' } };
    expect(decodeCommand(encodeCommand(plain))).toEqual(plain);
  });
});

describe('frozen accounts', () => {
  it("refuses a frozen user's orders and transfers, still lets them cancel, and unfreezing restores trading", () => {
    const e = engineWithMarket();
    ok(e, reg('mail:a@x.io', [], {}, nextTs()));
    fund(e, '1', 'USDT', 1_000n * COIN);
    const resting = ok(e, limit('1', 'BUY', 100n * PX, COIN / 100n));
    ok(e, { type: 'updateUser', ts: nextTs(), userId: '1', profile: { frozen: '1' } });
    expect(e.execute(limit('1', 'BUY', 100n * PX, COIN / 100n))).toEqual({ code: 'account_frozen', events: [] });
    const transfer: Command = { type: 'transfer', ts: nextTs(), userId: '1', asset: 'USDT', from: 'SPOT', to: 'ASSETS', amount: COIN };
    expect(e.execute(transfer)).toEqual({ code: 'account_frozen', events: [] });
    const cancel = e.execute({ type: 'cancelOrder', ts: nextTs(), userId: '1', orderId: resting.order!.orderId });
    expect(cancel.code).toBe('ok');
    expect(cancel.order?.status).toBe('CANCELED');
    // Snapshot/restore keeps the freeze (it is a profile field).
    expect(Engine.restore(e.snapshot()).execute({ ...transfer, ts: nextTs() }).code).toBe('account_frozen');
    ok(e, { type: 'updateUser', ts: nextTs(), userId: '1', profile: { frozen: '' } });
    expect(e.execute({ ...transfer, ts: nextTs() }).code).toBe('ok');
    expect(e.execute(limit('1', 'BUY', 100n * PX, COIN / 100n)).code).toBe('ok');
  });
});
