/**
 * The wallet's catalogue, unit conversions, limits, approval policy and address checks (pure functions, no server).
 */
import { describe, expect, it } from 'vitest';
import { Engine } from '@exchange/core';
import { DEV_USDT_ADDRESS } from '@exchange/chain';
import { AppError } from '../../platform/shared/errors';
import { loadConfig, type NetworkSettings } from '../../platform/config/env';
import { amountText, chainToEngine, createWalletCatalogue, engineToChain, EVM_CHAIN, networksOf, withoutDevChain } from './chains';
import { createApprovalPolicy, dailyLimit, verificationLevel } from './limits';
import { checkWithdrawAddress, parseEvmAddress } from './address';

const USDT = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const base = {
  chainRpcUrl: undefined,
  chainId: 1,
  demoMode: true,
  chainUsdtContract: '',
  chainConfirmations: 6,
  chainExplorerTxUrl: 'https://x.io/tx/',
  chainExplorerAddressUrl: '',
  chainStartBlock: 0,
  devChainPort: 8090,
  extraNetworks: [] as NetworkSettings[],
};

/** A network beside Ethereum as loadConfig builds it. */
function network(code: string, over: Partial<NetworkSettings> = {}): NetworkSettings {
  return {
    code,
    rpcUrl: undefined,
    chainId: 56,
    usdtContract: '',
    confirmations: 15,
    startBlock: 0,
    explorerTxUrl: '',
    explorerAddressUrl: '',
    devChainPort: 0,
    ...over,
  };
}

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
  return 'ok';
}

describe('unit conversions (engine scale 8)', () => {
  it('USDT (6 decimals): chain x 100 into the engine, / 100 out, exact', () => {
    expect(chainToEngine(1_500_000n, 6)).toEqual({ units: 150_000_000n, dust: 0n });
    expect(engineToChain(150_000_000n, 6)).toBe(1_500_000n);
    expect(() => engineToChain(150_000_001n, 6)).toThrow(RangeError);
  });
  it('ETH (18 decimals): wei / 10^10 into the engine with the dust apart, x 10^10 out', () => {
    expect(chainToEngine(1_000_000_000_000_000_123n, 18)).toEqual({ units: 100_000_000n, dust: 123n });
    expect(chainToEngine(9_999_999_999n, 18)).toEqual({ units: 0n, dust: 9_999_999_999n });
    expect(engineToChain(1n, 18)).toBe(10_000_000_000n);
    expect(engineToChain(99_900_000n, 18)).toBe(999_000_000_000_000_000n);
  });
  it('refuses negative amounts', () => {
    expect(() => chainToEngine(-1n, 6)).toThrow(RangeError);
    expect(() => engineToChain(-1n, 18)).toThrow(RangeError);
  });
  it('amountText trims trailing zeros', () => {
    expect([amountText(150_000_000n), amountText(100_000n), amountText(0n)]).toEqual(['1.5', '0.001', '0']);
  });
});

describe('catalogue', () => {
  it('ETH and USDT on the EVM chain with their rules; other coins without a chain', () => {
    const cat = createWalletCatalogue(base, { usdtContracts: { ETH: USDT } });
    const coins = cat.coins(['BTC', 'ETH', 'USDT']);
    expect(coins.map((c) => [c.coin, c.name, c.chains.map((x) => [x.chain, x.available])])).toEqual([
      ['BTC', 'Bitcoin', [['BTC', false]]],
      ['ETH', 'Ethereum', [[EVM_CHAIN, true]]],
      ['USDT', 'Tether USD', [[EVM_CHAIN, true]]],
    ]);
    const eth = coins[1]!.chains[0]!;
    expect([eth.chainName, eth.contract, eth.minDeposit, eth.minWithdraw, eth.maxWithdraw, eth.withdrawFee, eth.withdrawDecimals, eth.confirmations]).toEqual([
      'Ethereum (ERC20)',
      '',
      '0.001',
      '0.01',
      '500',
      '0.001',
      8,
      6,
    ]);
    const usdt = coins[2]!.chains[0]!;
    expect([usdt.contract, usdt.minDeposit, usdt.minWithdraw, usdt.maxWithdraw, usdt.withdrawFee, usdt.withdrawDecimals, usdt.explorerTxUrl]).toEqual([
      USDT,
      '1',
      '10',
      '1000000',
      '1',
      6,
      'https://x.io/tx/',
    ]);
    expect(coins[0]!.chains[0]!.explorerTxUrl).toBe('');
    expect(cat.rule('USDT', 'ETH', ['USDT'])?.withdrawFee).toBe(100_000_000n);
    expect(cat.rule('USDT', 'TRX', ['USDT'])).toBeUndefined();
    expect(cat.rule('DOGE', 'ETH', ['USDT'])).toBeUndefined();
    expect(cat.txUrl('ETH', '0xab')).toBe('https://x.io/tx/0xab');
    expect(cat.txUrl('BSC', '0xab')).toBe('');
  });
  it('no node (neither CHAIN_RPC_URL nor a dev chain of the demo): nothing available; CHAIN_USDT_CONTRACT wins over the dev token', () => {
    const none = createWalletCatalogue({ ...base, demoMode: false });
    expect(none.evmRules().map((r) => r.available)).toEqual([false, false]);
    // a demo without its dev chain (DEV_CHAIN_PORT=0, or the server set it so when the chain did not start)
    expect(withoutDevChain(base).devChainPort).toBe(0);
    expect(withoutDevChain({ ...base, chainRpcUrl: 'http://n' }).devChainPort).toBe(8090);
    expect(withoutDevChain({ ...base, demoMode: false }).devChainPort).toBe(8090);
    const chainless = createWalletCatalogue(withoutDevChain(base), { usdtContracts: { ETH: USDT } });
    expect(chainless.evmRules().map((r) => r.available)).toEqual([false, false]);
    expect(chainless.coins(['USDT'])[0]!.chains.map((c) => [c.chain, c.available, c.depositEnabled, c.explorerTxUrl])).toEqual([[EVM_CHAIN, false, false, '']]);
    const real = createWalletCatalogue(
      { ...base, demoMode: false, chainRpcUrl: 'http://n', chainUsdtContract: '0xdAC17F958D2ee523a2206206994597C13D831ec7' },
      { usdtContracts: { ETH: USDT } },
    );
    expect(real.usdtContract('ETH')).toBe('0xdAC17F958D2ee523a2206206994597C13D831ec7');
    // USDT without any contract cannot be available; on the dev chain (31337) the demo token is the default
    expect(
      createWalletCatalogue(base)
        .evmRules()
        .map((r) => r.available),
    ).toEqual([true, false]);
    expect(createWalletCatalogue({ ...base, chainId: 31337 }).usdtContract('ETH')).toBe(DEV_USDT_ADDRESS);
  });
  it('USDT on four networks, each with its own contract, decimals, fee, minimums, confirmations and explorer', () => {
    const BSC_USDT = '0x55d398326f99059fF775485246999027B3197955';
    const cat = createWalletCatalogue(
      {
        ...base,
        demoMode: false,
        chainRpcUrl: 'http://eth',
        chainUsdtContract: USDT,
        extraNetworks: [
          network('BSC', { rpcUrl: 'http://bsc', usdtContract: BSC_USDT, explorerTxUrl: 'https://bscscan.com/tx/' }),
          network('ARBITRUM', { rpcUrl: 'http://arb', chainId: 31339, confirmations: 20 }),
          // configured without a node: listed, not available
          network('MATIC', { chainId: 137, usdtContract: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F' }),
        ],
      },
      {},
    );
    const usdt = cat.coins(['ETH', 'USDT'])[1]!.chains;
    expect(usdt.map((c) => [c.chain, c.chainName, c.available, c.withdrawFee, c.minWithdraw, c.minDeposit, c.withdrawDecimals, c.confirmations])).toEqual([
      ['ETH', 'Ethereum (ERC20)', true, '1', '10', '1', 6, 6],
      ['BSC', 'BNB Smart Chain (BEP20)', true, '0.1', '1', '0.01', 8, 15],
      ['ARBITRUM', 'Arbitrum One', true, '0.2', '2', '0.01', 6, 20],
      ['MATIC', 'Polygon POS', false, '0.3', '2', '0.01', 6, 15],
    ]);
    expect(usdt.map((c) => c.contract)).toEqual([USDT, BSC_USDT, DEV_USDT_ADDRESS, '0xc2132D05D31c914a87C6611C10748AEb04B58e8F']);
    // ETH the coin stays on Ethereum
    expect(cat.coins(['ETH'])[0]!.chains.map((c) => c.chain)).toEqual(['ETH']);
    expect(cat.rule('ETH', 'BSC', ['ETH'])).toBeUndefined();
    // BSC's USDT has 18 decimals on chain: 1.5 USDT is 1.5 x 10^18 token units, credited 1.5 in engine units
    const bsc = cat.rule('USDT', 'BSC', ['USDT'])!;
    expect(bsc.chainDecimals).toBe(18);
    expect(chainToEngine(1_500_000_000_000_000_000n, bsc.chainDecimals)).toEqual({ units: 150_000_000n, dust: 0n });
    expect(engineToChain(150_000_000n, bsc.chainDecimals)).toBe(1_500_000_000_000_000_000n);
    expect(cat.rule('USDT', 'ARBITRUM', ['USDT'])!.chainDecimals).toBe(6);
    expect(cat.networkRules('MATIC').map((r) => r.coin)).toEqual(['USDT']);
    expect(cat.networkRules('TRON')).toEqual([]);
    expect(cat.txUrl('BSC', '0xcd')).toBe('https://bscscan.com/tx/0xcd');
  });
  it('loadConfig: CHAIN_NETWORKS and CHAIN_<CODE>_* keys; the demo has all four networks on ports PORT + 10 .. 13', () => {
    const demo = loadConfig({ NODE_ENV: 'test', DEMO_MODE: '1', PORT: '8100' });
    expect(networksOf(demo).map((n) => [n.code, n.chainId, n.devChainPort])).toEqual([
      ['ETH', 31337, 8110],
      ['BSC', 31338, 8111],
      ['ARBITRUM', 31339, 8112],
      ['MATIC', 31340, 8113],
    ]);
    expect(networksOf(loadConfig({ NODE_ENV: 'test', DEMO_MODE: '1', CHAIN_NETWORKS: 'none' })).map((n) => n.code)).toEqual(['ETH']);
    const real = loadConfig({
      NODE_ENV: 'test',
      CHAIN_RPC_URL: 'http://eth:8545',
      CHAIN_BSC_RPC_URL: 'http://bsc:8545',
      CHAIN_BSC_ID: '56',
      CHAIN_BSC_CONFIRMATIONS: '15',
      CHAIN_BSC_USDT_CONTRACT: '0x55d398326f99059fF775485246999027B3197955',
    });
    expect(real.extraNetworks.map((n) => [n.code, n.rpcUrl, n.chainId, n.confirmations, n.usdtContract])).toEqual([
      ['BSC', 'http://bsc:8545', 56, 15, '0x55d398326f99059fF775485246999027B3197955'],
    ]);
    expect(() => loadConfig({ NODE_ENV: 'test', CHAIN_NETWORKS: 'BSC,TRON' })).toThrow(/CHAIN_NETWORKS: unknown network "TRON"/);
    expect(() => loadConfig({ NODE_ENV: 'test', CHAIN_NETWORKS: 'BSC', CHAIN_BSC_USDT_CONTRACT: '0x12' })).toThrow(/CHAIN_BSC_USDT_CONTRACT/);
    expect(() => loadConfig({ NODE_ENV: 'test', CHAIN_NETWORKS: 'ARBITRUM', CHAIN_ARBITRUM_RPC_URL: 'ws://x' })).toThrow(/CHAIN_ARBITRUM_RPC_URL/);
  });
});

describe('limits and approvals', () => {
  it('daily limits per verification level', () => {
    expect(verificationLevel(undefined)).toBe('NONE');
    expect(verificationLevel({ cardState: 'PENDING' })).toBe('NONE');
    expect(verificationLevel({ cardState: 'PASS' })).toBe('BASIC');
    expect(verificationLevel({ cardState: 'PASS', kycAdvState: 'PASS' })).toBe('ADVANCED');
    expect(dailyLimit('NONE', 'USDT')).toBe(0n);
    expect(dailyLimit('BASIC', 'USDT')).toBe(5_000_000_000_000n);
    expect(dailyLimit('BASIC', 'ETH')).toBe(2_000_000_000n);
    expect(dailyLimit('ADVANCED', 'ETH')).toBe(20_000_000_000n);
    expect(dailyLimit('ADVANCED', 'BTC')).toBe(0n);
  });
  it('approvals: 0 below the auto threshold, 2 at or above the dual one, 1 between; an unpriced coin is reviewed', () => {
    const engine = new Engine();
    engine.execute({ type: 'addAsset', ts: 1, asset: { code: 'USDT', scale: 8 } });
    engine.execute({ type: 'addAsset', ts: 1, asset: { code: 'ETH', scale: 8 } });
    const p = createApprovalPolicy({ withdrawAutoApproveBelowUsdt: '100', withdrawDualApprovalUsdt: '100000' });
    const usdt = (n: bigint) => n * 100_000_000n;
    expect(p.approvalsRequired(engine, 'USDT', usdt(99n))).toBe(0);
    expect(p.approvalsRequired(engine, 'USDT', usdt(100n))).toBe(1);
    expect(p.approvalsRequired(engine, 'USDT', usdt(99_999n))).toBe(1);
    expect(p.approvalsRequired(engine, 'USDT', usdt(100_000n))).toBe(2);
    // ETH has no ETH/USDT market here: never auto-approved
    expect(p.approvalsRequired(engine, 'ETH', 1n)).toBe(1);
    const none = createApprovalPolicy({ withdrawAutoApproveBelowUsdt: '0', withdrawDualApprovalUsdt: '100000' });
    expect(none.approvalsRequired(engine, 'USDT', 1n)).toBe(1);
  });
});

describe('addresses', () => {
  const lower = '0x52908400098527886e0f7030069857d2e4169ee7';
  const checksummed = '0x52908400098527886E0F7030069857D2E4169EE7';
  it('lower case is accepted and returned in EIP-55; mixed case must be the checksum', () => {
    expect(parseEvmAddress(lower)).toBe(checksummed);
    expect(parseEvmAddress(checksummed)).toBe(checksummed);
    expect(parseEvmAddress('0xde709f2102306220921060314715629080e2fb77')).toBe('0xde709f2102306220921060314715629080e2fb77');
    expect(codeOf(() => parseEvmAddress('0x52908400098527886E0F7030069857D2E4169Ee7'))).toBe('address_invalid');
    expect(codeOf(() => parseEvmAddress('0x5290840009852788'))).toBe('address_invalid');
    expect(codeOf(() => parseEvmAddress('52908400098527886e0f7030069857d2e4169ee7'))).toBe('address_invalid');
    expect(codeOf(() => parseEvmAddress('0xg2908400098527886e0f7030069857d2e4169ee7'))).toBe('address_invalid');
  });
  it('zero and token-contract destinations are invalid; our hot wallet and deposit addresses internal', () => {
    const own = { hotWallet: checksummed, isDepositAddress: (a: string) => a === '0xde709f2102306220921060314715629080e2fb77' };
    const noOwn = { hotWallet: null, isDepositAddress: () => false };
    expect(codeOf(() => checkWithdrawAddress('0x0000000000000000000000000000000000000000', '', noOwn))).toBe('address_invalid');
    expect(codeOf(() => checkWithdrawAddress(USDT.toLowerCase(), USDT, noOwn))).toBe('address_invalid');
    expect(checkWithdrawAddress(USDT.toLowerCase(), '', noOwn)).toBe(USDT);
    expect(codeOf(() => checkWithdrawAddress(lower, '', own))).toBe('address_internal');
    expect(codeOf(() => checkWithdrawAddress('0xde709f2102306220921060314715629080e2fb77', '', own))).toBe('address_internal');
    // addresses of networks outside the EVM family: the wrong network, not a malformed address
    for (const other of [
      'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', // TRON (USDT's TRC20 contract)
      'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', // Bitcoin bech32
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', // Bitcoin legacy
      '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', // Bitcoin P2SH
      'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', // Solana (USDT's SPL mint)
      '0x' + 'a'.repeat(64), // Aptos / Sui
    ]) {
      expect([other, codeOf(() => checkWithdrawAddress(other, USDT, noOwn))]).toEqual([other, 'address_wrong_network']);
    }
    expect(codeOf(() => checkWithdrawAddress('T123', USDT, noOwn))).toBe('address_invalid');
  });
});
