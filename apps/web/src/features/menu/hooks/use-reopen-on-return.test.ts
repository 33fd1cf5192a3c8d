// Proves the spec section 2 rule "going back from personalCenter, accountCenter, setting, payment,
// customer or about reopens the side menu": only a return to the page the menu was opened on, from
// one of those pages, reopens it; wandering elsewhere forgets the return path.
import { describe, expect, it } from 'vitest';
import { isReopenSource, reopenDecision } from './use-reopen-on-return';

describe('side menu reopen rule', () => {
  it('reopens when coming back from a listed page', () => {
    for (const from of ['/personalCenter', '/accountCenter', '/setting', '/payment', '/customer', '/about', '/accountCenter/bind']) {
      expect(reopenDecision(from, '/', '/')).toBe('reopen');
    }
  });
  it('does not reopen without a recorded return path, or from other pages', () => {
    expect(reopenDecision('/setting', '/', null)).toBe('keep');
    expect(reopenDecision('/helpCenter', '/', '/')).toBe('keep');
    expect(isReopenSource('/helpCenter')).toBe(false);
  });
  it('keeps the path while moving between listed pages and forgets it elsewhere', () => {
    expect(reopenDecision('/setting', '/langue', '/')).toBe('keep');
    expect(reopenDecision('/langue', '/setting', '/')).toBe('keep');
    expect(reopenDecision('/setting', '/quotes', '/')).toBe('forget');
  });
});
