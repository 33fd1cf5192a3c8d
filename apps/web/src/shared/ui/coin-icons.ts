/**
 * Icon URLs of the coins the exchange lists (the server's catalog: BTC, ETH, LTC, BNB, SOL, XRP, DOGE,
 * ADA, SUI, TON and USDT). Each SVG is imported on its own with `?url&no-inline`, so the build emits
 * it as a hashed static file and this module holds only the URL strings (about 60 bytes a coin): the
 * browser fetches an icon when an <img> first shows it and caches it after. Only the coins listed here
 * are bundled, not the package's 400-odd icons.
 *
 * Source: `cryptocurrency-icons` 0.18.1 (CC0-1.0, `svg/color`); SUI and TON, newer than that set,
 * from `./coin-icons/` (see its README). A coin missing here has no icon: callers fall back to a
 * letter circle (`CoinIcon`).
 */
import ada from 'cryptocurrency-icons/svg/color/ada.svg?url&no-inline';
import bnb from 'cryptocurrency-icons/svg/color/bnb.svg?url&no-inline';
import btc from 'cryptocurrency-icons/svg/color/btc.svg?url&no-inline';
import doge from 'cryptocurrency-icons/svg/color/doge.svg?url&no-inline';
import eth from 'cryptocurrency-icons/svg/color/eth.svg?url&no-inline';
import ltc from 'cryptocurrency-icons/svg/color/ltc.svg?url&no-inline';
import sol from 'cryptocurrency-icons/svg/color/sol.svg?url&no-inline';
import usdt from 'cryptocurrency-icons/svg/color/usdt.svg?url&no-inline';
import xrp from 'cryptocurrency-icons/svg/color/xrp.svg?url&no-inline';
import sui from './coin-icons/sui.svg?url&no-inline';
import ton from './coin-icons/ton.svg?url&no-inline';

const URLS: Readonly<Record<string, string>> = {
  ADA: ada,
  BNB: bnb,
  BTC: btc,
  DOGE: doge,
  ETH: eth,
  LTC: ltc,
  SOL: sol,
  SUI: sui,
  TON: ton,
  USDT: usdt,
  XRP: xrp,
};

/** The icon URL of `coin` (symbol, any case, e.g. 'btc' or 'BTC'), or undefined when we have none. */
export function coinIconUrl(coin: string): string | undefined {
  const key = coin.trim().toUpperCase();
  return Object.hasOwn(URLS, key) ? URLS[key] : undefined;
}
