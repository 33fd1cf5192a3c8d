/**
 * Wire schemas of the wallet (spec sections 2 "assets, deposit, withdraw, transfer, capital records, coin
 * chooser", 3 "account types, asset item", 5 "transfer and withdrawal rules", 9 "transfers free of charge").
 *
 * Amounts travel as decimal strings in coin units ("12.5"), never numbers. Times are Unix ms. A chain is named by its
 * network code (`ETH` for the EVM chain of the demo: ETH natively and USDT as an ERC-20 token).
 * Record types follow the spec's query values: coinCharging (deposits), withdrawCoin (withdrawals), transfer.
 */
import { Type, type Static } from '@sinclair/typebox';

/** The four per-user accounts (spec section 3): deposit/withdraw (ASSETS), spot, contract (USDT), fiat/OTC (USDT). */
export const WalletAccount = Type.Union([Type.Literal('ASSETS'), Type.Literal('SPOT'), Type.Literal('CONTRACT'), Type.Literal('OTC')]);
export type WalletAccount = Static<typeof WalletAccount>;

/** One network a coin can move on, with its rules. Amounts are coin units (decimal strings). */
export const CoinChain = Type.Object({
  /** network code, e.g. "ETH" */
  chain: Type.String(),
  /** display name, e.g. "Ethereum (ERC20)" */
  chainName: Type.String(),
  /** false when this deployment has no node for the network: screens say so instead of showing an address */
  available: Type.Boolean(),
  /** ERC-20 contract address, '' for the chain's native coin */
  contract: Type.String(),
  depositEnabled: Type.Boolean(),
  withdrawEnabled: Type.Boolean(),
  /** deposits below it are recorded, not credited */
  minDeposit: Type.String(),
  /** blocks a deposit (and a withdrawal) waits before it counts */
  confirmations: Type.Number(),
  minWithdraw: Type.String(),
  maxWithdraw: Type.String(),
  /** flat fee per withdrawal, in the coin, included in the amount debited */
  withdrawFee: Type.String(),
  /** decimal places accepted for withdrawal amounts */
  withdrawDecimals: Type.Number(),
  /** block explorer links: `${explorerTxUrl}${txHash}`, '' when none is configured */
  explorerTxUrl: Type.String(),
  explorerAddressUrl: Type.String(),
});
export type CoinChain = Static<typeof CoinChain>;

/** A coin of the coin chooser. */
export const WalletCoin = Type.Object({ coin: Type.String(), name: Type.String(), chains: Type.Array(CoinChain) });
export type WalletCoin = Static<typeof WalletCoin>;
/** Answer of GET asset/wallet/getCoins (public). */
export const WalletCoins = Type.Array(WalletCoin);

/** Query naming a coin and a network. */
export const CoinChainQuery = Type.Object({ coin: Type.String({ maxLength: 16 }), chain: Type.String({ maxLength: 16 }) });
export type CoinChainQuery = Static<typeof CoinChainQuery>;

/** Answer of GET asset/wallet/getDepositAddress: the caller's own address (EIP-55), derived from the HD key. */
export const DepositAddress = Type.Object({
  coin: Type.String(),
  chain: Type.String(),
  address: Type.String(),
  minDeposit: Type.String(),
  confirmations: Type.Number(),
  /** true in the demo: POST asset/wallet/demoDeposit makes the dev node pay this address */
  demoDeposit: Type.Boolean(),
});
export type DepositAddress = Static<typeof DepositAddress>;

/** POST asset/wallet/demoDeposit (demo mode only): the dev chain's faucet pays `amount` to the caller's address. */
export const DemoDepositBody = Type.Object({
  coin: Type.String({ maxLength: 16 }),
  chain: Type.String({ maxLength: 16 }),
  amount: Type.String({ maxLength: 40 }),
});
export type DemoDepositBody = Static<typeof DemoDepositBody>;
/** Answer of demoDeposit: the chain transaction that pays the address. */
export const DemoDepositResult = Type.Object({ txHash: Type.String() });

/** Why withdrawals are locked (after a password change or reset, or Google authenticator closed), null when they are not. */
export const WithdrawLockInfo = Type.Object({ until: Type.Number(), reason: Type.String() });

/** Answer of GET asset/wallet/getWithdrawInfo (coin, chain): what the withdraw form needs. */
export const WithdrawInfo = Type.Object({
  coin: Type.String(),
  chain: Type.String(),
  /** ASSETS account, available */
  available: Type.String(),
  minWithdraw: Type.String(),
  /** min(available, per-withdrawal maximum, what is left of the daily limit) */
  maxWithdraw: Type.String(),
  withdrawFee: Type.String(),
  withdrawDecimals: Type.Number(),
  dailyLimit: Type.String(),
  dailyUsed: Type.String(),
  /** the user's verification (cardState PASS) */
  verified: Type.Boolean(),
  transPasswordSet: Type.Boolean(),
  googleBound: Type.Boolean(),
  /** where the e-mail or SMS code goes ('mail' or 'phone') and the masked address */
  codeChannel: Type.String(),
  codeTarget: Type.String(),
  lock: Type.Union([WithdrawLockInfo, Type.Null()]),
});
export type WithdrawInfo = Static<typeof WithdrawInfo>;

/**
 * POST asset/wallet/withdraw. `amount` is what leaves the account (fee included). `clientId` is the idempotency key
 * (a retry returns the first withdrawal). `code` is an e-mail or SMS code of type VERIFY (data/sms/sendCode to the caller's own address); `googleCode` required
 * when Google authenticator is bound.
 */
export const WithdrawBody = Type.Object({
  coin: Type.String({ maxLength: 16 }),
  chain: Type.String({ maxLength: 16 }),
  address: Type.String({ maxLength: 64 }),
  amount: Type.String({ maxLength: 40 }),
  transPassword: Type.String({ maxLength: 6 }),
  code: Type.String({ maxLength: 6 }),
  googleCode: Type.Optional(Type.String({ maxLength: 6 })),
  clientId: Type.String({ maxLength: 64 }),
});
export type WithdrawBody = Static<typeof WithdrawBody>;

/** Withdrawal states, as the engine's (packages/core WithdrawalState). */
export const WithdrawStatus = Type.Union([
  Type.Literal('REVIEW'),
  Type.Literal('APPROVED'),
  Type.Literal('BROADCASTING'),
  Type.Literal('CONFIRMING'),
  Type.Literal('COMPLETED'),
  Type.Literal('REJECTED'),
  Type.Literal('FAILED'),
]);
export type WithdrawStatus = Static<typeof WithdrawStatus>;
/** Deposit states: seen and waiting for confirmations, credited, below the minimum (never credited), orphaned by a reorg. */
export const DepositStatus = Type.Union([Type.Literal('CONFIRMING'), Type.Literal('CREDITED'), Type.Literal('BELOW_MINIMUM'), Type.Literal('ORPHANED')]);
export type DepositStatus = Static<typeof DepositStatus>;

/** One deposit (capital records, type coinCharging). */
export const DepositRecord = Type.Object({
  id: Type.String(),
  coin: Type.String(),
  chain: Type.String(),
  amount: Type.String(),
  status: DepositStatus,
  address: Type.String(),
  fromAddress: Type.String(),
  txHash: Type.String(),
  blockNumber: Type.Number(),
  confirmations: Type.Number(),
  confirmationsRequired: Type.Number(),
  createdAt: Type.Number(),
  creditedAt: Type.Number(),
  explorerUrl: Type.String(),
});
export type DepositRecord = Static<typeof DepositRecord>;

/** One withdrawal (capital records, type withdrawCoin). `receive` = amount - fee. */
export const WithdrawRecord = Type.Object({
  id: Type.String(),
  clientId: Type.String(),
  coin: Type.String(),
  chain: Type.String(),
  address: Type.String(),
  amount: Type.String(),
  fee: Type.String(),
  receive: Type.String(),
  status: WithdrawStatus,
  txHash: Type.String(),
  confirmations: Type.Number(),
  confirmationsRequired: Type.Number(),
  /** the reject or failure reason in the request's language, '' otherwise */
  reason: Type.String(),
  createdAt: Type.Number(),
  updatedAt: Type.Number(),
  explorerUrl: Type.String(),
});
export type WithdrawRecord = Static<typeof WithdrawRecord>;

/** One transfer between two of the user's accounts (capital records, type transfer). */
export const TransferRecord = Type.Object({
  id: Type.String(),
  coin: Type.String(),
  from: WalletAccount,
  to: WalletAccount,
  amount: Type.String(),
  createdAt: Type.Number(),
});
export type TransferRecord = Static<typeof TransferRecord>;

/** POST asset/wallet/transfer (spec section 5: from and to differ, amount required, not above the maximum; free). */
export const TransferBody = Type.Object({
  coin: Type.String({ maxLength: 16 }),
  from: WalletAccount,
  to: WalletAccount,
  amount: Type.String({ maxLength: 40 }),
  clientId: Type.String({ maxLength: 64 }),
});
export type TransferBody = Static<typeof TransferBody>;

/** Capital record types (spec section 2's query values). */
export const RecordType = Type.Union([Type.Literal('coinCharging'), Type.Literal('withdrawCoin'), Type.Literal('transfer')]);
export type RecordType = Static<typeof RecordType>;

/** GET asset/wallet/getRecords: newest first; `page` from 1, `pageSize` at most 50 (default 20). */
export const RecordsQuery = Type.Object({
  type: RecordType,
  coin: Type.Optional(Type.String({ maxLength: 16 })),
  page: Type.Optional(Type.String({ maxLength: 6 })),
  pageSize: Type.Optional(Type.String({ maxLength: 3 })),
});
export type RecordsQuery = Static<typeof RecordsQuery>;
/** Answer of getRecords: one of the three lists by `type`, the others empty. */
export const RecordsPage = Type.Object({
  type: RecordType,
  total: Type.Number(),
  deposits: Type.Array(DepositRecord),
  withdrawals: Type.Array(WithdrawRecord),
  transfers: Type.Array(TransferRecord),
});
export type RecordsPage = Static<typeof RecordsPage>;

/** GET asset/wallet/getRecordDetail: one record of the caller (not_found for another user's). */
export const RecordDetailQuery = Type.Object({ type: RecordType, id: Type.String({ maxLength: 32 }) });
export type RecordDetailQuery = Static<typeof RecordDetailQuery>;
export const RecordDetail = Type.Object({
  type: RecordType,
  deposit: Type.Union([DepositRecord, Type.Null()]),
  withdrawal: Type.Union([WithdrawRecord, Type.Null()]),
  transfer: Type.Union([TransferRecord, Type.Null()]),
});
export type RecordDetail = Static<typeof RecordDetail>;

/** POST asset/wallet/cancelWithdraw: the owner cancels a withdrawal still under review. */
export const CancelWithdrawBody = Type.Object({ id: Type.String({ maxLength: 32 }) });

/** Address book entry. */
export const AddressBookEntry = Type.Object({
  id: Type.String(),
  coin: Type.String(),
  chain: Type.String(),
  address: Type.String(),
  label: Type.String(),
  createdAt: Type.Number(),
});
export type AddressBookEntry = Static<typeof AddressBookEntry>;
export const AddressBook = Type.Array(AddressBookEntry);
/** POST asset/wallet/addAddress: the address must be valid for the chain (EIP-55 when mixed case). */
export const AddAddressBody = Type.Object({
  coin: Type.String({ maxLength: 16 }),
  chain: Type.String({ maxLength: 16 }),
  address: Type.String({ maxLength: 64 }),
  label: Type.String({ maxLength: 32 }),
});
export type AddAddressBody = Static<typeof AddAddressBody>;
export const DeleteAddressBody = Type.Object({ id: Type.String({ maxLength: 32 }) });

// ---- proof of reserves ---------------------------------------------------------------------------------------------

/** One asset's totals in a reserves snapshot: user liabilities (Merkle-sum root), on-chain reserves, ratio. */
export const ReserveAsset = Type.Object({
  coin: Type.String(),
  liabilities: Type.String(),
  /** balances of the exchange's addresses on chain ('' when the coin has no chain in this deployment) */
  reserves: Type.String(),
  /** reserves / liabilities as a decimal string with 4 places ('' when liabilities are 0 or no chain) */
  ratio: Type.String(),
  /** the reserves per network that carries the coin (ETH, BSC, ARBITRUM, MATIC); they add up to `reserves` */
  networks: Type.Array(Type.Object({ chain: Type.String(), reserves: Type.String() })),
});
/** Answer of GET asset/reserves/getRoot (public): the latest published snapshot. */
export const ReservesRoot = Type.Object({
  snapshotId: Type.String(),
  createdAt: Type.Number(),
  /** hex sha256 of the root node */
  rootHash: Type.String(),
  leafCount: Type.Number(),
  /** asset codes in the order used by every node's sums */
  assets: Type.Array(Type.String()),
  totals: Type.Array(ReserveAsset),
});
export type ReservesRoot = Static<typeof ReservesRoot>;
/** One sibling on the path from a leaf to the root. Sums in each asset's smallest unit, as decimal strings. */
export const ProofStep = Type.Object({ side: Type.Union([Type.Literal('L'), Type.Literal('R')]), hash: Type.String(), sums: Type.Array(Type.String()) });
/** Answer of GET asset/reserves/getMyProof: the caller's leaf (salt, balances) and its path. */
export const ReservesProof = Type.Object({
  snapshotId: Type.String(),
  rootHash: Type.String(),
  assets: Type.Array(Type.String()),
  /** asset scales, same order as `assets` */
  scales: Type.Array(Type.Number()),
  userId: Type.String(),
  /** hex, 16 random bytes, per user per snapshot */
  salt: Type.String(),
  /** the user's liabilities per asset (smallest unit, decimal strings) */
  balances: Type.Array(Type.String()),
  leafIndex: Type.Number(),
  path: Type.Array(ProofStep),
});
export type ReservesProof = Static<typeof ReservesProof>;

// ---- operator console (x-admin-token; roles: finance and admin decide withdrawals, support reads) -----------------

/** A withdrawal in the console's review queue: the record plus who asked and who approved. */
export const AdminWithdrawal = Type.Object({
  id: Type.String(),
  userId: Type.String(),
  account: Type.String(),
  coin: Type.String(),
  chain: Type.String(),
  address: Type.String(),
  amount: Type.String(),
  fee: Type.String(),
  status: WithdrawStatus,
  approvalsRequired: Type.Number(),
  /** operator e-mails that approved, in order */
  approvals: Type.Array(Type.String()),
  txHash: Type.String(),
  reason: Type.String(),
  createdAt: Type.Number(),
  updatedAt: Type.Number(),
  explorerUrl: Type.String(),
});
export type AdminWithdrawal = Static<typeof AdminWithdrawal>;
/** GET admin/wallet/withdrawals: `status` filter (default REVIEW), newest first. */
export const AdminWithdrawalsQuery = Type.Object({
  status: Type.Optional(Type.Union([WithdrawStatus, Type.Literal('ALL')])),
  userId: Type.Optional(Type.String({ maxLength: 20 })),
  page: Type.Optional(Type.String({ maxLength: 6 })),
});
export const AdminWithdrawalsPage = Type.Object({ total: Type.Number(), list: Type.Array(AdminWithdrawal) });
/** POST admin/wallet/approveWithdrawal. */
export const AdminApproveWithdrawalBody = Type.Object({ id: Type.String({ maxLength: 32 }) });
/** POST admin/wallet/rejectWithdrawal: the reason in both languages (the user sees their own). */
export const AdminRejectWithdrawalBody = Type.Object({
  id: Type.String({ maxLength: 32 }),
  reasonZh: Type.String({ maxLength: 200 }),
  reasonEn: Type.String({ maxLength: 200 }),
});

/** A deposit in the console's monitor (every status) with the user's id and account. */
export const AdminDeposit = Type.Composite([DepositRecord, Type.Object({ userId: Type.String(), account: Type.String() })]);
/** GET admin/wallet/deposits: `status` filter (default ALL), newest first. */
export const AdminDepositsQuery = Type.Object({
  status: Type.Optional(Type.Union([DepositStatus, Type.Literal('ALL')])),
  page: Type.Optional(Type.String({ maxLength: 6 })),
});
export const AdminDepositsPage = Type.Object({ total: Type.Number(), list: Type.Array(AdminDeposit) });

/** A chain alert (a reorg deeper than the confirmations, a failed broadcast ...). */
export const ChainAlert = Type.Object({
  id: Type.String(),
  chain: Type.String(),
  kind: Type.String(),
  message: Type.String(),
  createdAt: Type.Number(),
});
/** GET admin/wallet/alerts: newest first. */
export const ChainAlerts = Type.Array(ChainAlert);

/** GET admin/wallet/hotWallet: per chain and coin, what the exchange holds on chain against what it owes users. */
export const HotWalletRow = Type.Object({
  chain: Type.String(),
  coin: Type.String(),
  hotWalletAddress: Type.String(),
  /** the hot wallet's balance on chain */
  hotWallet: Type.String(),
  /** the deposit addresses' balances on chain (not swept) */
  depositAddresses: Type.String(),
  /** every user account's balance of the coin in the engine (available + frozen) */
  liabilities: Type.String(),
});
export const HotWallet = Type.Array(HotWalletRow);
/** POST admin/wallet/reservesSnapshot: builds and publishes a new proof-of-reserves snapshot. */
export const AdminReservesResult = Type.Object({ snapshotId: Type.String(), rootHash: Type.String(), leafCount: Type.Number() });
