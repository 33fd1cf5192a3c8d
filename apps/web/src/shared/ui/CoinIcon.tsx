/**
 * A coin's round icon at `size` px (default 24): the coin's SVG from `coin-icons.ts`, or its first
 * letter in a tinted circle when we have no icon for it or the file fails to load. Decorative
 * (aria-hidden): the coin's name is always written next to it. Import it from this file, not the
 * ui barrel, so that it stays out of the initial chunk (only lazy pages list coins).
 */
import { useState } from 'react';
import { coinIconUrl } from './coin-icons';
import './coin-icon.css';

/** Props of CoinIcon. */
export interface CoinIconProps {
  /** Coin symbol, e.g. 'BTC'. */
  coin: string;
  /** Width and height in CSS px. */
  size?: number;
  className?: string;
}

/** The icon, or the letter circle. */
export function CoinIcon({ coin, size = 24, className }: CoinIconProps) {
  const url = coinIconUrl(coin);
  const [failed, setFailed] = useState<string | null>(null);
  const cls = `ex-coin-icon${className ? ` ${className}` : ''}`;
  const style = { width: size, height: size, fontSize: Math.round(size / 2) };
  if (url && failed !== url) {
    return (
      <img
        className={cls}
        src={url}
        width={size}
        height={size}
        alt=""
        aria-hidden="true"
        loading="lazy"
        decoding="async"
        draggable={false}
        onError={() => setFailed(url)}
        style={style}
      />
    );
  }
  return (
    <span className={`${cls} ex-coin-letter`} aria-hidden="true" data-coin-letter="" style={style}>
      {coin.trim().slice(0, 1).toUpperCase()}
    </span>
  );
}
