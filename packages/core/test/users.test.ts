/**
 * Proves the engine's user registry: ids come from the command sequence ("1", "2", ...), an account or unique key
 * is never given to two users, a rejected registration changes nothing and takes no id, profile updates honour
 * their compare-and-set, genesis names the journal once, and all of it survives snapshot/restore (same hash).
 */
import { describe, expect, it } from 'vitest';
import { Engine } from '../src/engine';

const reg = (account: string, keys: string[] = [], profile: Record<string, string> = {}, ts = 1) =>
  ({ type: 'registerUser', ts, account, uniqueKeys: keys, profile }) as const;

describe('user registry', () => {
  it('assigns consecutive ids and refuses taken accounts and keys without consuming an id', () => {
    const e = new Engine();
    const a = e.execute(reg('mail:a@x.io', ['uuid:11111111'], { nickName: '' }));
    expect(a.code).toBe('ok');
    expect(a.userId).toBe('1');
    expect(a.events[0]).toEqual({ type: 'userRegistered', ts: 1, userId: '1', account: 'mail:a@x.io', uniqueKeys: ['uuid:11111111'], profile: { nickName: '' } });
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
