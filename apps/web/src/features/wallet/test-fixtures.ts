/** Self-describing fixtures of the wallet page tests: the demo's coins, an address, the withdraw form's data. */
import type { Assets, CoinChain, DepositRecord, WalletCoin, WithdrawInfo, WithdrawRecord } from '@exchange/api';

export const chainEthUsdt: CoinChain = {
  chain: 'ETH',
  chainName: 'Ethereum (ERC20)',
  available: true,
  contract: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  depositEnabled: true,
  withdrawEnabled: true,
  minDeposit: '1',
  confirmations: 12,
  minWithdraw: '10',
  maxWithdraw: '300',
  withdrawFee: '1',
  withdrawDecimals: 6,
  explorerTxUrl: '',
  explorerAddressUrl: '',
};
/** USDT on the three other EVM networks, with Binance's fees and minimums (the server's catalogue). */
export const chainBscUsdt: CoinChain = {
  ...chainEthUsdt,
  chain: 'BSC',
  chainName: 'BNB Smart Chain (BEP20)',
  minDeposit: '0.01',
  confirmations: 15,
  minWithdraw: '1',
  maxWithdraw: '1000000',
  withdrawFee: '0.1',
  withdrawDecimals: 8,
};
export const chainArbitrumUsdt: CoinChain = {
  ...chainEthUsdt,
  chain: 'ARBITRUM',
  chainName: 'Arbitrum One',
  minDeposit: '0.01',
  confirmations: 20,
  minWithdraw: '2',
  maxWithdraw: '1000000',
  withdrawFee: '0.2',
};
export const chainMaticUsdt: CoinChain = {
  ...chainEthUsdt,
  chain: 'MATIC',
  chainName: 'Polygon POS',
  minDeposit: '0.01',
  confirmations: 30,
  minWithdraw: '2',
  maxWithdraw: '1000000',
  withdrawFee: '0.3',
};
/** USDT on four networks (withdrawals on Polygon suspended), ETH on Ethereum only. */
export const coinsUsdtFourNetworks: WalletCoin[] = [
  { coin: 'USDT', name: 'Tether', chains: [chainEthUsdt, chainBscUsdt, chainArbitrumUsdt, { ...chainMaticUsdt, withdrawEnabled: false }] },
  { coin: 'ETH', name: 'Ethereum', chains: [{ ...chainEthUsdt, contract: '', withdrawDecimals: 8, minWithdraw: '0.01', withdrawFee: '0.001' }] },
];

export const chainBtcUnavailable: CoinChain = { ...chainEthUsdt, chain: 'BTC', chainName: 'Bitcoin', available: false, contract: '', confirmations: 2 };

export const coinsUsdtEthBtc: WalletCoin[] = [
  { coin: 'USDT', name: 'Tether', chains: [chainEthUsdt] },
  { coin: 'ETH', name: 'Ethereum', chains: [{ ...chainEthUsdt, contract: '', withdrawDecimals: 8, minWithdraw: '0.01', withdrawFee: '0.001' }] },
  { coin: 'BTC', name: 'Bitcoin', chains: [chainBtcUnavailable] },
];

export const aliceUsdtAddress = '0x9858EfFD232B4033E47d90003D41EC34EcaEda94';

export const withdrawInfoUsdt500: WithdrawInfo = {
  coin: 'USDT',
  chain: 'ETH',
  available: '500',
  minWithdraw: '10',
  maxWithdraw: '300',
  withdrawFee: '1',
  withdrawDecimals: 6,
  dailyLimit: '10000',
  dailyUsed: '0',
  verified: true,
  transPasswordSet: true,
  googleBound: false,
  codeChannel: 'mail',
  codeTarget: 'a***@b.c',
  lock: null,
};

export const depositConfirming3of12: DepositRecord = {
  id: '41',
  coin: 'USDT',
  chain: 'ETH',
  amount: '1000',
  status: 'CONFIRMING',
  address: aliceUsdtAddress,
  fromAddress: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  txHash: '0x' + 'ab'.repeat(32),
  blockNumber: 17,
  confirmations: 3,
  confirmationsRequired: 12,
  createdAt: 1_763_900_000_000,
  creditedAt: 0,
  explorerUrl: '',
};

export const withdrawalRejected: WithdrawRecord = {
  id: '7',
  clientId: 'c-1',
  coin: 'USDT',
  chain: 'ETH',
  address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  amount: '50',
  fee: '1',
  receive: '49',
  status: 'REJECTED',
  txHash: '',
  confirmations: 0,
  confirmationsRequired: 12,
  reason: 'Address flagged by compliance',
  createdAt: 1_763_900_000_000,
  updatedAt: 1_763_900_100_000,
  explorerUrl: '',
};

/** The four accounts: USDT 8,410 in Spot, 12.5 in USDT-M futures, nothing in Funding (where withdrawals are paid from). */
export const assetsUsdtInSpot8410: Assets = {
  totalUsdt: '8422.5',
  totalCny: '0',
  usdtCnyRate: '7.2',
  accounts: (['ASSETS', 'SPOT', 'CONTRACT', 'OTC'] as const).map((type) => ({
    type,
    totalUsdt: '0',
    totalCny: '0',
    items: [
      {
        coin: 'USDT',
        available: type === 'SPOT' ? '8410.00000000' : type === 'CONTRACT' ? '12.50000000' : '0',
        frozen: '0',
        current: '0',
        convertedUsdt: '0',
        convertedCny: '0',
      },
    ],
  })),
};
