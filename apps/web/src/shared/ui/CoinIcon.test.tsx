// Proves the coin icon rules: every coin the exchange lists has an icon file (any case of its symbol),
// a coin without one shows its first letter in a circle, and an icon that fails to load falls back to
// the letter too.
import { describe, expect, it } from 'vitest';
import { fireEvent, render } from '@testing-library/react';
import { CoinIcon } from './CoinIcon';
import { coinIconUrl } from './coin-icons';

const LISTED = ['BTC', 'ETH', 'LTC', 'BNB', 'SOL', 'XRP', 'DOGE', 'ADA', 'SUI', 'TON', 'USDT'];

describe('coinIconUrl', () => {
  it('has an SVG for every listed coin, whatever the case', () => {
    for (const c of LISTED) expect(coinIconUrl(c), c).toMatch(/\.svg($|\?)/);
    expect(coinIconUrl('btc')).toBe(coinIconUrl('BTC'));
    expect(coinIconUrl(' eth ')).toBe(coinIconUrl('ETH'));
    expect(coinIconUrl('SUI')).toMatch(/sui/);
  });
  it('has none for an unknown coin or an inherited key', () => {
    expect(coinIconUrl('FOO')).toBeUndefined();
    expect(coinIconUrl('constructor')).toBeUndefined();
    expect(coinIconUrl('')).toBeUndefined();
  });
});

describe('CoinIcon', () => {
  it('shows the image of a listed coin at the asked size', () => {
    const { container } = render(<CoinIcon coin="BTC" size={32} />);
    const img = container.querySelector('img');
    expect(img).not.toBeNull();
    expect(img!.getAttribute('src')).toBe(coinIconUrl('BTC'));
    expect(img!.getAttribute('width')).toBe('32');
    expect(img!.getAttribute('aria-hidden')).toBe('true');
    expect(container.querySelector('[data-coin-letter]')).toBeNull();
  });
  it('shows the first letter for a coin without an icon', () => {
    const { container } = render(<CoinIcon coin="zzz" />);
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('[data-coin-letter]')!.textContent).toBe('Z');
  });
  it('falls back to the letter when the icon fails to load', () => {
    const { container } = render(<CoinIcon coin="ETH" />);
    fireEvent.error(container.querySelector('img')!);
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('[data-coin-letter]')!.textContent).toBe('E');
  });
});
