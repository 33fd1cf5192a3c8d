// A password reset ends every session of the account on the server; the page clears the local session only when
// the reset account is the one logged in here.
import { describe, expect, it } from 'vitest';
import { resetEndsOwnSession } from './ForgetPage';

describe('resetEndsOwnSession', () => {
  it.each([
    ['a@b.com', { isLogin: true, phone: 'a@b.com' }, true],
    [' A@B.com ', { isLogin: true, phone: 'a@b.com' }, true],
    ['13800000000', { isLogin: true, phone: '13800000000' }, true],
    ['c@d.com', { isLogin: true, phone: 'a@b.com' }, false],
    ['a@b.com', { isLogin: false, phone: 'a@b.com' }, false],
    ['', { isLogin: true, phone: '' }, false],
  ])('reset of %j with %j -> %s', (account, state, want) => {
    expect(resetEndsOwnSession(account, state)).toBe(want);
  });
});
