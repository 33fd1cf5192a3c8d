/**
 * The wallet's catalogue, unit conversions, limits, approval policy and address checks (pure functions, no server).
 */
import { describe, expect, it } from 'vitest';
import { Engine } from '@exchange/core';
import { DEV_USDT_ADDRESS } from '@exchange/chain';
import { AppError } from '../../platform/shared/errors';
import { amountText, chainToEngine, createWalletCatalogue, engineToChain, EVM_CHAIN } from './chains';
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
};

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
    const cat = createWalletCatalogue(base, { usdtContract: USDT });
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
    expect(cat.txUrl('0xab')).toBe('https://x.io/tx/0xab');
  });
  it('no node (neither CHAIN_RPC_URL nor demo): nothing available; CHAIN_USDT_CONTRACT wins over the dev token', () => {
    const none = createWalletCatalogue({ ...base, demoMode: false });
    expect(none.evmRules().map((r) => r.available)).toEqual([false, false]);
    const real = createWalletCatalogue(
      { ...base, demoMode: false, chainRpcUrl: 'http://n', chainUsdtContract: '0xdAC17F958D2ee523a2206206994597C13D831ec7' },
      { usdtContract: USDT },
    );
    expect(real.usdtContract).toBe('0xdAC17F958D2ee523a2206206994597C13D831ec7');
    // USDT without any contract cannot be available; on the dev chain (31337) the demo token is the default
    expect(
      createWalletCatalogue(base)
        .evmRules()
        .map((r) => r.available),
    ).toEqual([true, false]);
    expect(createWalletCatalogue({ ...base, chainId: 31337 }).usdtContract).toBe(DEV_USDT_ADDRESS);
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
  });
});
