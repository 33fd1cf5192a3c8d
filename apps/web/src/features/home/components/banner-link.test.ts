// Proves the banner link rule: logged out, every link is followed as it is; logged in, links to
// sign-up or log-in (with a query or a trailing slash too) go to the trade screen instead; other
// links and external URLs are unchanged; an empty link opens nothing.
import { describe, expect, it } from 'vitest';
import { bannerTarget } from './banner-link';

describe('bannerTarget', () => {
  it('follows every link when logged out', () => {
    expect(bannerTarget('/register', false)).toBe('/register');
    expect(bannerTarget('/quotes', false)).toBe('/quotes');
  });
  it('sends a logged-in user from sign-up or log-in links to the trade screen', () => {
    expect(bannerTarget('/register', true)).toBe('/transaction');
    expect(bannerTarget('/register/?code=AB12', true)).toBe('/transaction');
    expect(bannerTarget(' /login#x ', true)).toBe('/transaction');
  });
  it('keeps other links and external URLs; nothing for an empty link', () => {
    expect(bannerTarget('/contract', true)).toBe('/contract');
    expect(bannerTarget('/registered-users', true)).toBe('/registered-users');
    expect(bannerTarget('https://example.com/register', true)).toBe('https://example.com/register');
    expect(bannerTarget('  ', true)).toBeNull();
  });
});
