/**
 * The wallet's coin and network catalogue (spec section 2 "coin chooser", section 5 "withdrawal rules"),
 * built from the configuration, and the exact conversions between engine units and chain units.
 *
 * One EVM network, "ETH" ("Ethereum (ERC20)"), carries ETH (native, 18 decimals on chain) and USDT (an ERC-20 of 6
 * decimals, CHAIN_USDT_CONTRACT or the dev chain's token). Every other engine asset (BTC, LTC, ...) is listed with
 * a network that is not available in this deployment (its screens say so instead of showing an address). The
 * network is available when the deployment has a node: CHAIN_RPC_URL, or the demo's dev chain (DEMO_MODE).
 *
 * Units: the engine keeps every coin at scale 8 (ENGINE_SCALE). Chain units to engine units: USDT (6 decimals) x
 * 10^2; ETH (18 decimals) / 10^10, the remainder below 10^-8 ETH being dust (not credited). Engine units to chain
 * units: USDT / 10^2 (exact: USDT amounts are accepted with at most 6 decimals), ETH x 10^10. No floating point.
 */
import type { CoinChain, WalletCoin } from '@exchange/api';
import { DEV_CHAIN_ID, DEV_USDT_ADDRESS } from '@exchange/chain';
import { formatDecimal, parseDecimal, pow10 } from '@exchange/core';
import type { Config } from '../../platform/config/env';
import { COIN_FACTS } from '../market-data/seed/coins';

/** Decimals of every engine asset (the seed's ASSET_SCALE). */
export const ENGINE_SCALE = 8;
/** Network code of the EVM chain. */
export const EVM_CHAIN = 'ETH';
/** Its display name. */
export const EVM_CHAIN_NAME = 'Ethereum (ERC20)';

/** The rules of one coin on one network, amounts in engine units (scale 8). */
export interface ChainRule {
  coin: string;
  chain: string;
  chainName: string;
  available: boolean;
  /** ERC-20 contract (EIP-55), '' for the native coin */
  contract: string;
  /** decimals of the coin on chain (18 ETH, 6 USDT) */
  chainDecimals: number;
  minDeposit: bigint;
  minWithdraw: bigint;
  maxWithdraw: bigint;
  withdrawFee: bigint;
  /** decimal places accepted for withdrawal amounts */
  withdrawDecimals: number;
  confirmations: number;
}

/** The fixed rules of the coins the EVM chain carries (decimal strings in coin units). */
const EVM_COINS = [
  { coin: 'ETH', native: true, chainDecimals: 18, minDeposit: '0.001', minWithdraw: '0.01', maxWithdraw: '500', withdrawFee: '0.001', withdrawDecimals: 8 },
  { coin: 'USDT', native: false, chainDecimals: 6, minDeposit: '1', minWithdraw: '10', maxWithdraw: '1000000', withdrawFee: '1', withdrawDecimals: 6 },
] as const;

/**
 * Engine units (scale 8) of `chainAmount` chain units of a coin with `chainDecimals` decimals: `units` credited and
 * `dust` (chain units below one engine unit, never credited). Throws RangeError on a negative amount.
 */
export function chainToEngine(chainAmount: bigint, chainDecimals: number): { units: bigint; dust: bigint } {
  if (chainAmount < 0n) throw new RangeError('negative chain amount');
  if (chainDecimals >= ENGINE_SCALE) {
    const f = pow10(chainDecimals - ENGINE_SCALE);
    return { units: chainAmount / f, dust: chainAmount % f };
  }
  return { units: chainAmount * pow10(ENGINE_SCALE - chainDecimals), dust: 0n };
}

/**
 * Chain units of `units` engine units (scale 8) of a coin with `chainDecimals` decimals. Exact: throws RangeError
 * when the amount has more precision than the chain (e.g. 0.0000001 USDT) or is negative.
 */
export function engineToChain(units: bigint, chainDecimals: number): bigint {
  if (units < 0n) throw new RangeError('negative amount');
  if (chainDecimals >= ENGINE_SCALE) return units * pow10(chainDecimals - ENGINE_SCALE);
  const f = pow10(ENGINE_SCALE - chainDecimals);
  if (units % f !== 0n) throw new RangeError(`amount ${units} has more than ${chainDecimals} decimals`);
  return units / f;
}

/** The catalogue of one deployment. */
export interface WalletCatalogue {
  /** Every coin of `assets` (engine order) with its networks, for the coin chooser (GET getCoins). */
  coins(assets: readonly string[]): WalletCoin[];
  /** The rules of `coin` on `chain`: an available EVM coin, an unavailable placeholder for another engine asset, or undefined. */
  rule(coin: string, chain: string, assets: readonly string[]): ChainRule | undefined;
  /** The EVM chain's coins (ETH, USDT) with their rules. */
  evmRules(): readonly ChainRule[];
  /** `${explorerTxUrl}${txHash}`, '' without a configured explorer or a hash. */
  txUrl(txHash: string | null | undefined): string;
  /** The USDT contract in use ('' when none is known). */
  readonly usdtContract: string;
}

/** The wire form of a rule (amounts as decimal strings in coin units, trailing zeros trimmed). */
export function toCoinChain(r: ChainRule, config: Pick<Config, 'chainExplorerTxUrl' | 'chainExplorerAddressUrl'>): CoinChain {
  return {
    chain: r.chain,
    chainName: r.chainName,
    available: r.available,
    contract: r.contract,
    depositEnabled: r.available,
    withdrawEnabled: r.available,
    minDeposit: amountText(r.minDeposit),
    confirmations: r.confirmations,
    minWithdraw: amountText(r.minWithdraw),
    maxWithdraw: amountText(r.maxWithdraw),
    withdrawFee: amountText(r.withdrawFee),
    withdrawDecimals: r.withdrawDecimals,
    explorerTxUrl: r.available ? config.chainExplorerTxUrl : '',
    explorerAddressUrl: r.available ? config.chainExplorerAddressUrl : '',
  };
}

/** Engine units as a coin amount without trailing fraction zeros: 150000000n -> "1.5", 100000000n -> "1". */
export function amountText(units: bigint): string {
  const s = formatDecimal(units, ENGINE_SCALE);
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

/**
 * Builds the catalogue. The USDT contract: CHAIN_USDT_CONTRACT, else `opts.usdtContract`, else on the dev chain (CHAIN_ID
 * 31337) the demo token's address (@exchange/chain DEV_USDT_ADDRESS: the same on every fresh dev chain), else ''.
 */
export function createWalletCatalogue(
  config: Pick<Config, 'chainRpcUrl' | 'chainId' | 'demoMode' | 'chainUsdtContract' | 'chainConfirmations' | 'chainExplorerTxUrl' | 'chainExplorerAddressUrl'>,
  opts: { usdtContract?: string } = {},
): WalletCatalogue {
  const available = config.chainRpcUrl !== undefined || config.demoMode;
  const usdtContract = config.chainUsdtContract || opts.usdtContract || (config.chainId === DEV_CHAIN_ID ? DEV_USDT_ADDRESS : '');
  const names = new Map(COIN_FACTS.map((c) => [c.code, c.fullName]));
  const evm: ChainRule[] = EVM_COINS.map((c) => ({
    coin: c.coin,
    chain: EVM_CHAIN,
    chainName: EVM_CHAIN_NAME,
    // USDT needs its contract: without one, the token cannot be watched or sent.
    available: available && (c.native || usdtContract !== ''),
    contract: c.native ? '' : usdtContract,
    chainDecimals: c.chainDecimals,
    minDeposit: parseDecimal(c.minDeposit, ENGINE_SCALE),
    minWithdraw: parseDecimal(c.minWithdraw, ENGINE_SCALE),
    maxWithdraw: parseDecimal(c.maxWithdraw, ENGINE_SCALE),
    withdrawFee: parseDecimal(c.withdrawFee, ENGINE_SCALE),
    withdrawDecimals: c.withdrawDecimals,
    confirmations: config.chainConfirmations,
  }));
  const evmByCoin = new Map(evm.map((r) => [r.coin, r]));
  /** The network code of a coin without a chain here: its own code (BTC on "BTC", ...). */
  const placeholder = (coin: string): ChainRule => ({
    coin,
    chain: coin,
    chainName: names.get(coin) ?? coin,
    available: false,
    contract: '',
    chainDecimals: ENGINE_SCALE,
    minDeposit: 0n,
    minWithdraw: 0n,
    maxWithdraw: 0n,
    withdrawFee: 0n,
    withdrawDecimals: ENGINE_SCALE,
    confirmations: 0,
  });
  const rulesOf = (coin: string): ChainRule[] => {
    const r = evmByCoin.get(coin);
    return r ? [r] : [placeholder(coin)];
  };
  return {
    usdtContract,
    coins(assets) {
      return assets.map((coin) => ({ coin, name: names.get(coin) ?? coin, chains: rulesOf(coin).map((r) => toCoinChain(r, config)) }));
    },
    rule(coin, chain, assets) {
      if (!assets.includes(coin)) return undefined;
      return rulesOf(coin).find((r) => r.chain === chain);
    },
    evmRules() {
      return evm;
    },
    txUrl(txHash) {
      return txHash && config.chainExplorerTxUrl ? `${config.chainExplorerTxUrl}${txHash}` : '';
    },
  };
}
