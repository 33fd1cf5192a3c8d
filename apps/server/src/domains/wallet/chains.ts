/**
 * The wallet's coin and network catalogue (spec section 2 "Deposit: choose coin and chain", section 5 "withdrawal
 * rules"), built from the configuration, and the exact conversions between engine units and chain units.
 *
 * Four EVM networks, named by Binance's network codes: "ETH" (Ethereum, ERC20) carries ETH (native, 18 decimals on
 * chain) and USDT (6 decimals); "BSC" (BNB Smart Chain, BEP20: USDT of 18 decimals), "ARBITRUM" (Arbitrum One: 6) and
 * "MATIC" (Polygon POS: 6) carry USDT. Ethereum is always listed; the others when configured (Config.extraNetworks).
 * Every network has its own chain id, contract, confirmations, fee, minimums and withdrawal maximum; the user's deposit
 * address is the same on all four (one xpub, as on Binance). Every other engine asset (BTC, LTC, ...) is listed with a
 * network that is not available in this deployment (its screens say so instead of showing an address). A network is
 * available when the deployment has a node for it: its RPC URL, or the demo's dev chain (DEMO_MODE with a dev chain:
 * DEV_CHAIN_PORT not 0; the server sets it to 0 when the dev chain did not start, so a demo without a chain says its
 * networks are not available rather than showing addresses nothing watches).
 *
 * Units: the engine keeps every coin at scale 8 (ENGINE_SCALE). Chain units to engine units: a 6-decimal USDT x 10^2;
 * an 18-decimal coin (ETH, BSC's USDT) / 10^10, the remainder below 10^-8 being dust (not credited). Engine units to
 * chain units: the inverse (exact: amounts are accepted with at most the chain's decimals). No floating point.
 * Fees and minimums: Binance's published withdrawal rules for USDT on each network, rounded up (docs/wallet.md).
 */
import type { CoinChain, WalletCoin } from '@exchange/api';
import { BSC_USDT_DECIMALS, DEV_CHAIN_ID, DEV_USDT_ADDRESS, USDT_DECIMALS } from '@exchange/chain';
import { formatDecimal, parseDecimal, pow10 } from '@exchange/core';
import { DEV_NETWORK_CHAIN_IDS, type Config, type NetworkSettings } from '../../platform/config/env';
import { COIN_FACTS } from '../market-data/seed/coins';

/** Decimals of every engine asset (the seed's ASSET_SCALE). */
export const ENGINE_SCALE = 8;
/** Network code of Ethereum. */
export const EVM_CHAIN = 'ETH';
/** Its display name. */
export const EVM_CHAIN_NAME = 'Ethereum (ERC20)';

/** The rules of one coin on one network, amounts in engine units (scale 8). */
export interface ChainRule {
  coin: string;
  /** network code (ETH, BSC, ARBITRUM, MATIC; a non-EVM coin's own code) */
  chain: string;
  chainName: string;
  available: boolean;
  /** ERC-20 contract (EIP-55), '' for the native coin */
  contract: string;
  /** decimals of the coin on chain (18 ETH, 6 USDT on Ethereum, 18 USDT on BNB Smart Chain) */
  chainDecimals: number;
  minDeposit: bigint;
  minWithdraw: bigint;
  maxWithdraw: bigint;
  withdrawFee: bigint;
  /** decimal places accepted for withdrawal amounts (at most the chain's decimals and the engine's 8) */
  withdrawDecimals: number;
  confirmations: number;
  /** explorer link prefixes of the network ('' = no link) */
  explorerTxUrl: string;
  explorerAddressUrl: string;
}

/** The fixed facts of one EVM network: its name, its USDT's decimals and its coins' rules (decimal strings in coin units). */
interface NetworkFacts {
  code: string;
  name: string;
  /** the coins it carries here, the native one first where it is an engine asset */
  coins: readonly { coin: string; native: boolean; chainDecimals: number; minDeposit: string; minWithdraw: string; maxWithdraw: string; withdrawFee: string }[];
}

/** USDT's rules on a network (withdrawal fee and minimums as Binance publishes them for that network, rounded up). */
const usdt = (chainDecimals: number, minDeposit: string, minWithdraw: string, withdrawFee: string) =>
  ({ coin: 'USDT', native: false, chainDecimals, minDeposit, minWithdraw, maxWithdraw: '1000000', withdrawFee }) as const;

/** The four networks, in the order the screens list them. */
export const NETWORK_FACTS: readonly NetworkFacts[] = [
  {
    code: 'ETH',
    name: EVM_CHAIN_NAME,
    coins: [
      { coin: 'ETH', native: true, chainDecimals: 18, minDeposit: '0.001', minWithdraw: '0.01', maxWithdraw: '500', withdrawFee: '0.001' },
      usdt(USDT_DECIMALS, '1', '10', '1'),
    ],
  },
  { code: 'BSC', name: 'BNB Smart Chain (BEP20)', coins: [usdt(BSC_USDT_DECIMALS, '0.01', '1', '0.1')] },
  { code: 'ARBITRUM', name: 'Arbitrum One', coins: [usdt(USDT_DECIMALS, '0.01', '2', '0.2')] },
  { code: 'MATIC', name: 'Polygon POS', coins: [usdt(USDT_DECIMALS, '0.01', '2', '0.3')] },
];

/** The USDT decimals on network `code` (6 unless BNB Smart Chain's 18). */
export function usdtDecimalsOf(code: string): number {
  return NETWORK_FACTS.find((n) => n.code === code)?.coins.find((c) => c.coin === 'USDT')?.chainDecimals ?? USDT_DECIMALS;
}

/**
 * Every configured EVM network's settings, Ethereum first (from the CHAIN_* keys), then Config.extraNetworks.
 */
export function networksOf(
  config: Pick<
    Config,
    | 'chainRpcUrl'
    | 'chainId'
    | 'chainUsdtContract'
    | 'chainConfirmations'
    | 'chainStartBlock'
    | 'chainExplorerTxUrl'
    | 'chainExplorerAddressUrl'
    | 'devChainPort'
    | 'extraNetworks'
  >,
): NetworkSettings[] {
  return [
    {
      code: EVM_CHAIN,
      rpcUrl: config.chainRpcUrl,
      chainId: config.chainId,
      usdtContract: config.chainUsdtContract,
      confirmations: config.chainConfirmations,
      startBlock: config.chainStartBlock,
      explorerTxUrl: config.chainExplorerTxUrl,
      explorerAddressUrl: config.chainExplorerAddressUrl,
      devChainPort: config.devChainPort,
    },
    ...config.extraNetworks,
  ];
}

/** True when `chainId` is one of the demo's dev chains (Ethereum's 31337 or DEV_NETWORK_CHAIN_IDS). */
export function isDevChainId(chainId: number): boolean {
  return chainId === DEV_CHAIN_ID || Object.values(DEV_NETWORK_CHAIN_IDS).includes(chainId);
}

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
  /** Every EVM network's coins with their rules (ETH, USDT on Ethereum; USDT on each other network). */
  evmRules(): readonly ChainRule[];
  /** The coins of EVM network `chain` with their rules ([] for a network not configured). */
  networkRules(chain: string): readonly ChainRule[];
  /** `${explorerTxUrl}${txHash}` of network `chain`, '' without a configured explorer or a hash. */
  txUrl(chain: string, txHash: string | null | undefined): string;
  /** The USDT contract in use on network `chain` ('' when none is known). */
  usdtContract(chain: string): string;
}

/** The wire form of a rule (amounts as decimal strings in coin units, trailing zeros trimmed). */
export function toCoinChain(r: ChainRule): CoinChain {
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
    explorerTxUrl: r.available ? r.explorerTxUrl : '',
    explorerAddressUrl: r.available ? r.explorerAddressUrl : '',
  };
}

/** Engine units as a coin amount without trailing fraction zeros: 150000000n -> "1.5", 100000000n -> "1". */
export function amountText(units: bigint): string {
  const s = formatDecimal(units, ENGINE_SCALE);
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

/**
 * `config` of a process that runs no dev chain of the demo (none wanted, none started, or a scale-out gateway, which
 * never starts one): in demo mode without CHAIN_RPC_URL its DEV_CHAIN_PORT becomes 0, so the catalogue lists its
 * networks as not available; any other config is answered as it is.
 */
export function withoutDevChain<C extends Pick<Config, 'demoMode' | 'chainRpcUrl' | 'devChainPort'>>(config: C): C {
  return config.demoMode && config.chainRpcUrl === undefined ? { ...config, devChainPort: 0 } : config;
}

/**
 * Builds the catalogue. A network's USDT contract: its configured contract (CHAIN_USDT_CONTRACT,
 * CHAIN_<CODE>_USDT_CONTRACT), else `opts.usdtContracts[code]`, else on a dev chain (isDevChainId) the demo token's
 * address (@exchange/chain DEV_USDT_ADDRESS: the same on every fresh dev chain), else ''.
 */
export function createWalletCatalogue(
  config: Parameters<typeof networksOf>[0] & Pick<Config, 'demoMode' | 'devChainPort'>,
  opts: { usdtContracts?: Readonly<Record<string, string>> } = {},
): WalletCatalogue {
  const names = new Map(COIN_FACTS.map((c) => [c.code, c.fullName]));
  const byNetwork = new Map<string, ChainRule[]>();
  const contracts = new Map<string, string>();
  for (const n of networksOf(config)) {
    const facts = NETWORK_FACTS.find((f) => f.code === n.code);
    if (!facts) continue;
    const available = n.rpcUrl !== undefined || (config.demoMode && config.devChainPort > 0);
    const usdtContract = n.usdtContract || opts.usdtContracts?.[n.code] || (isDevChainId(n.chainId) ? DEV_USDT_ADDRESS : '');
    contracts.set(n.code, usdtContract);
    byNetwork.set(
      n.code,
      facts.coins.map((c) => ({
        coin: c.coin,
        chain: n.code,
        chainName: facts.name,
        // a token needs its contract: without one, it cannot be watched or sent.
        available: available && (c.native || usdtContract !== ''),
        contract: c.native ? '' : usdtContract,
        chainDecimals: c.chainDecimals,
        minDeposit: parseDecimal(c.minDeposit, ENGINE_SCALE),
        minWithdraw: parseDecimal(c.minWithdraw, ENGINE_SCALE),
        maxWithdraw: parseDecimal(c.maxWithdraw, ENGINE_SCALE),
        withdrawFee: parseDecimal(c.withdrawFee, ENGINE_SCALE),
        withdrawDecimals: Math.min(c.chainDecimals, ENGINE_SCALE),
        confirmations: n.confirmations,
        explorerTxUrl: n.explorerTxUrl,
        explorerAddressUrl: n.explorerAddressUrl,
      })),
    );
  }
  const evm = [...byNetwork.values()].flat();
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
    explorerTxUrl: '',
    explorerAddressUrl: '',
  });
  const rulesOf = (coin: string): ChainRule[] => {
    const r = evm.filter((x) => x.coin === coin);
    return r.length > 0 ? r : [placeholder(coin)];
  };
  return {
    coins(assets) {
      return assets.map((coin) => ({ coin, name: names.get(coin) ?? coin, chains: rulesOf(coin).map(toCoinChain) }));
    },
    rule(coin, chain, assets) {
      if (!assets.includes(coin)) return undefined;
      return rulesOf(coin).find((r) => r.chain === chain);
    },
    evmRules() {
      return evm;
    },
    networkRules(chain) {
      return byNetwork.get(chain) ?? [];
    },
    txUrl(chain, txHash) {
      const prefix = byNetwork.get(chain)?.[0]?.explorerTxUrl ?? '';
      return txHash && prefix ? `${prefix}${txHash}` : '';
    },
    usdtContract(chain) {
      return contracts.get(chain) ?? '';
    },
  };
}
