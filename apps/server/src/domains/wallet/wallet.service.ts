/**
 * The wallet, user side (spec sections 2, 3, 5, 9): the coin catalogue, deposit addresses, the withdraw
 * form's facts, withdrawals, transfers between the four accounts, capital records and the address book; and the
 * console's withdrawal review queue (approve, reject).
 *
 * Money moves only by engine commands (requestWithdrawal holds the amount at once; rejectWithdrawal releases it;
 * transfer moves available funds), each idempotent by the caller's clientId. The engine enforces frozen accounts,
 * the 24 h withdrawal lock, the daily limit and the balance again; this service checks the inputs first so that a
 * refused request changes nothing (no code consumed, no password failure counted for a bad amount).
 *
 * Withdraw, in order: the coin's network exists and is available (chain_not_available); the user is verified
 * (cardState PASS, kyc_required); the clientId was not used (a retry answers the first withdrawal, unchanged);
 * the address (address_invalid, address_internal); the amount (amount_invalid, too_many_decimals,
 * amount_below_minimum, amount_above_maximum, insufficient_balance); the lock (withdrawal_locked, with its end);
 * the transaction password (security's check, with its lockout); the TOTP code when Google is bound; the e-mail or
 * SMS code of type VERIFY; then requestWithdrawal with the daily limit of the user's level and the approvals the
 * amount needs (limits.ts). Records are read from the projection after waiting for it.
 */
import type {
  AddAddressBody,
  AddressBookEntry,
  AdminWithdrawal,
  CoinChainQuery,
  DepositRecord,
  DepositAddress,
  Lang,
  RecordDetail,
  RecordsPage,
  RecordsQuery,
  RecordType,
  TransferBody,
  TransferRecord,
  WalletAccount,
  WalletCoin,
  WithdrawBody,
  WithdrawInfo,
  WithdrawRecord,
  WithdrawStatus,
} from '@exchange/api';
import { DEFAULT_IDEMPOTENCY_WINDOW_MS, type CommandResult } from '@exchange/core';
import { formatDecimal, pow10, tryParseDecimal } from '@exchange/money';
import type { Config } from '../../platform/config/env';
import type { Db } from '../../platform/db/client';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import { AppError } from '../../platform/shared/errors';
import { createKeyedSerial } from '../../platform/shared/keyed-serial';
import { engineAuditRecord } from '../../platform/shared/operator';
import type { Account } from '../../platform/shared/account';
import { type MemberService } from '../member/member.service';
import { type SecurityService } from '../security/security.service';
import { depositById, listDeposits, type DepositRow } from './chain.repository';
import type { ChainService } from './chain.service';
import { checkWithdrawAddress, type OwnAddresses } from './address';
import { amountText, ENGINE_SCALE, type ChainRule } from './chains';
import { createApprovalPolicy, dailyLimit, verificationLevel } from './limits';
import { createWalletRepository, type TransferRow, type WithdrawalRow } from './wallet.repository';
import { createWalletWindowRepository, type WalletWindowRepository } from './wallet-window.repository';
import { parseUserId, maskAccount } from '../../platform/shared/account';

/** Most address book entries per user. */
export const MAX_ADDRESS_BOOK = 50;
/** Records per page by default and at most. */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 50;
/** The reason the engine journals when an owner cancels. */
export const CANCEL_REASON = 'user_cancelled';
/** Accounts that hold USDT only (spec section 3: contract and fiat/OTC). */
const USDT_ONLY: ReadonlySet<WalletAccount> = new Set<WalletAccount>(['CONTRACT', 'OTC']);
const CLIENT_ID_RE = /^[A-Za-z0-9_-]{1,64}$/;
const ID_RE = /^[1-9][0-9]{0,17}$/;
const DAY_MS = 86_400_000;

/** Who acts in the console (domains/admin Actor, the fields the audit record takes). */
export interface WalletActor {
  id: bigint;
  email: string;
  ip: string;
  userAgent: string;
}

/** The wallet operations (ctx.wallet). */
export interface WalletService {
  /** The coin chooser: every engine asset with its networks (public). */
  coins(): WalletCoin[];
  /** The caller's deposit address (chain_not_available; asset_not_found). */
  depositAddress(userId: string, q: CoinChainQuery): DepositAddress;
  /** What the withdraw form needs. */
  withdrawInfo(userId: string, q: CoinChainQuery): Promise<WithdrawInfo>;
  /** Requests a withdrawal (see the file comment); answers the record (the first one on a retried clientId). */
  withdraw(userId: string, body: WithdrawBody, lang: Lang): Promise<WithdrawRecord>;
  /**
   * Requests a withdrawal for the Binance API (POST /sapi/v1/capital/withdraw/apply): every rule of `withdraw` (identity
   * verification, frozen account, clientId retry, address, amount limits and fee, balance, daily limit of the level,
   * the 24 h lock after a security change, the approvals the amount needs) except the transaction password, TOTP and
   * VERIFY code: the caller's API key stands for them (its withdraw permission and its IP whitelist, checked by the
   * gateway, docs/binance-api.md). Answers the record (the first one on a retried clientId).
   */
  withdrawByApiKey(userId: string, body: ApiWithdrawBody, lang: Lang): Promise<WithdrawRecord>;
  /** The owner cancels a withdrawal under review (withdrawal_not_found, withdrawal_state_invalid). */
  cancelWithdraw(userId: string, id: string, lang: Lang): Promise<WithdrawRecord>;
  /** Moves available funds between two of the caller's accounts; answers the record (the first on a retry). */
  transfer(userId: string, body: TransferBody): Promise<TransferRecord>;
  /** A page of the caller's records of one type, newest first. */
  records(userId: string, q: RecordsQuery, lang: Lang): Promise<RecordsPage>;
  /** One record of the caller (record_not_found for another user's). */
  recordDetail(userId: string, type: RecordType, id: string, lang: Lang): Promise<RecordDetail>;
  /**
   * The Binance gateway's histories (gateways/binance/sapi.wallet.routes.ts), rows as projected, newest first, within a
   * time window with Binance's offset/limit paging (wallet-window.repository.ts); the caller waits for the projection.
   * `transfersWithin`: user `userId`'s transfers from account `from` to account `to` made within the window.
   */
  transfersWithin: WalletWindowRepository['transfers'];
  /** User `userId`'s deposits first seen within the window, of `coin` and of one of `statuses` when given (as transfersWithin). */
  depositsWithin: WalletWindowRepository['deposits'];
  /** User `userId`'s withdrawals requested within the window, with the optional filters (as transfersWithin). */
  withdrawalsWithin: WalletWindowRepository['withdrawals'];
  /** The caller's address book, newest first. */
  addressBook(userId: string): Promise<AddressBookEntry[]>;
  /** Saves an address (checked for the chain). */
  addAddress(userId: string, body: AddAddressBody): Promise<AddressBookEntry>;
  /** Deletes one of the caller's addresses (address_book_not_found). */
  deleteAddress(userId: string, id: string): Promise<void>;
  /** Console: withdrawals by status (default REVIEW; ALL), optionally of one user, 20 a page, newest first. */
  adminWithdrawals(q: {
    status?: WithdrawStatus | 'ALL' | undefined;
    userId?: string | undefined;
    page?: string | undefined;
  }): Promise<{ total: number; list: AdminWithdrawal[] }>;
  /** Console: one operator approves (withdrawal_already_approved for the same operator twice). */
  approve(actor: WalletActor, id: string): Promise<AdminWithdrawal>;
  /** Console: rejects with the reason in both languages; the hold is released. */
  reject(actor: WalletActor, id: string, reasonZh: string, reasonEn: string): Promise<AdminWithdrawal>;
}

/** A withdrawal request without the app's second factors (the Binance API's: coin, network, address, amount, client id). */
export type ApiWithdrawBody = Pick<WithdrawBody, 'coin' | 'chain' | 'address' | 'amount' | 'clientId'>;

/** What the wallet service needs of the security service. */
export type WalletSecurity = Pick<SecurityService, 'verifyTransactionPassword' | 'withdrawalLock' | 'totpBound' | 'verifyTotp'>;

/** "2026-11-24 21:57" (UTC) of a Unix ms time: the withdrawal lock's end in its message. */
export function utcMinute(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

/** The largest amount a request may name: 10^20 whole coins (a typo guard; the engine checks the balance). */
const MAX_WHOLE_COINS_DIGITS = 20;

/**
 * Parses a coin amount into engine units (10^-ENGINE_SCALE of the coin) with the one decimal parser: zeros beyond
 * `decimals` are accepted ("1.500000000"), anything else beyond them is 'too_many_decimals' (with the step and coin
 * for the message); bad syntax, zero, or 10^20 coins and more are 'amount_invalid'.
 */
export function parseAmount(input: string, decimals: number, coin: string, field = 'amount'): bigint {
  const r = tryParseDecimal(input.trim(), decimals, { trailingZeros: true });
  if (!r.ok && r.error === 'too_many_decimals') throw new AppError('too_many_decimals', 400, field, { step: formatDecimal(1n, decimals), coin });
  if (!r.ok || r.value <= 0n || r.value >= pow10(MAX_WHOLE_COINS_DIGITS + decimals)) throw new AppError('amount_invalid', 400, field);
  return r.value * pow10(ENGINE_SCALE - decimals);
}

/** The engine's rejections of the wallet commands as API errors. */
function engineError(r: CommandResult, field?: string): AppError {
  switch (r.code) {
    case 'insufficient_balance':
      return new AppError('insufficient_balance', 400, field);
    case 'account_frozen':
      return new AppError('account_frozen', 403);
    case 'withdrawal_locked':
      return new AppError('withdrawal_locked', 400);
    case 'daily_limit_exceeded':
      return new AppError('daily_limit_exceeded', 400, 'amount');
    case 'withdrawal_not_found':
      return new AppError('withdrawal_not_found', 404, 'id');
    case 'withdrawal_state_invalid':
      return new AppError('withdrawal_state_invalid', 409);
    case 'withdrawal_already_approved':
      return new AppError('withdrawal_already_approved', 409);
    case 'same_account':
      return new AppError('same_account', 400, 'to');
    case 'asset_not_found':
      return new AppError('asset_not_found', 400, 'coin');
    case 'amount_invalid':
      return new AppError('amount_invalid', 400, 'amount');
    default:
      return new AppError('service_unavailable', 503);
  }
}

/** What the wallet service needs of the chain side (HW2's ChainService, ctx.chain). */
export type WalletChain = Pick<
  ChainService,
  'catalogue' | 'depositAddress' | 'isDepositAddress' | 'hotWalletAddress' | 'depositRecord' | 'depositRecords' | 'head' | 'network' | 'demoDepositEnabled'
>;

/** Builds the wallet service over the chain side `chain` (deposit addresses, hot wallet, catalogue, followed head). */
export function createWalletService(deps: {
  config: Config;
  db: Db;
  host: EnginePort;
  members: Pick<MemberService, 'codes'>;
  security: () => WalletSecurity | undefined;
  chain: WalletChain;
  now?: () => number;
}): WalletService {
  const { config, host, chain } = deps;
  const catalogue = chain.catalogue;
  const engine = host.engine;
  const repo = createWalletRepository(deps.db);
  const windowed = createWalletWindowRepository(deps.db);
  const now = deps.now ?? Date.now;
  const policy = createApprovalPolicy(config);
  const assetCodes = () => engine.assets().map((a) => a.code);
  /** One withdrawal or transfer of a user at a time (a retried clientId then finds the first). */
  const serial = createKeyedSerial();

  const own: OwnAddresses = {
    get hotWallet() {
      return chain.hotWalletAddress;
    },
    isDepositAddress: (a) => chain.isDepositAddress(a),
  };

  function userOf(userId: string): { id: bigint; profile: Readonly<Record<string, string>> } {
    const id = parseUserId(userId);
    const u = id === null ? undefined : engine.user(id.toString());
    if (id === null || !u) throw new AppError('not_found', 404);
    return { id, profile: u.profile };
  }

  /** The available rule of `coin` on `chain`; asset_not_found for an unknown coin, chain_not_available otherwise. */
  function availableRule(coin: string, chain: string): ChainRule {
    const codes = assetCodes();
    if (!codes.includes(coin)) throw new AppError('asset_not_found', 400, 'coin');
    const r = catalogue.rule(coin, chain, codes);
    if (!r || !r.available) throw new AppError('chain_not_available', 400, 'chain');
    return r;
  }

  function security(): WalletSecurity {
    const s = deps.security();
    if (!s) throw new AppError('service_unavailable', 503);
    return s;
  }

  function parseClientId(clientId: string): string {
    if (!CLIENT_ID_RE.test(clientId)) throw new AppError('validation_failed', 400, 'clientId');
    return clientId;
  }

  /** Consumes a VERIFY code sent to one of the user's own addresses (verify_code_required, code_invalid). */
  async function consumeVerify(profile: Readonly<Record<string, string>>, code: string): Promise<void> {
    if (code === '') throw new AppError('verify_code_required', 400, 'code');
    const accounts: Account[] = [];
    if ((profile.mail ?? '') !== '') accounts.push({ kind: 'email', mail: profile.mail! });
    if ((profile.phone ?? '') !== '') accounts.push({ kind: 'phone', phone: profile.phone!, areaCode: profile.areaCode || '86' });
    let last: unknown = new AppError('code_invalid', 400, 'code');
    for (const a of accounts) {
      try {
        await deps.members.codes.consume(a, 'VERIFY', code);
        return;
      } catch (err) {
        last = err;
      }
    }
    throw last;
  }

  function lockError(until: number): AppError {
    return new AppError('withdrawal_locked', 400, undefined, { until: utcMinute(until) });
  }

  // ---- wire forms ----
  const reasonText = (r: WithdrawalRow, lang: Lang): string => {
    if (r.status !== 'REJECTED' && r.status !== 'FAILED') return '';
    const own = lang === 'zh' ? r.reasonZh : r.reasonEn;
    if (own !== '') return own;
    if (r.reason === CANCEL_REASON) return lang === 'zh' ? '用户取消' : 'Cancelled by you';
    return r.reason;
  };

  /** The confirmations network `code` asks (Ethereum's CHAIN_CONFIRMATIONS for a network no longer configured). */
  const confirmationsOf = (code: string): number => chain.network(code)?.confirmations ?? config.chainConfirmations;

  async function withdrawConfirmations(r: WithdrawalRow): Promise<number> {
    const required = confirmationsOf(r.chain);
    if (r.status === 'COMPLETED') return required;
    if (r.status !== 'CONFIRMING' || r.blockNumber === null) return 0;
    const head = await chain.head(r.chain);
    return Math.min(required, Math.max(0, head - r.blockNumber + 1));
  }

  async function withdrawRecord(r: WithdrawalRow, lang: Lang): Promise<WithdrawRecord> {
    const amount = BigInt(r.amount);
    const fee = BigInt(r.fee);
    return {
      id: r.id.toString(),
      clientId: r.clientId,
      coin: r.coin,
      chain: r.chain,
      address: r.address,
      amount: amountText(amount),
      fee: amountText(fee),
      receive: amountText(amount - fee),
      status: r.status as WithdrawStatus,
      txHash: r.txHash ?? '',
      confirmations: await withdrawConfirmations(r),
      confirmationsRequired: confirmationsOf(r.chain),
      reason: reasonText(r, lang),
      createdAt: r.createdTs,
      updatedAt: r.updatedTs,
      explorerUrl: catalogue.txUrl(r.chain, r.txHash),
    };
  }

  function transferRecord(r: TransferRow): TransferRecord {
    return {
      id: r.id.toString(),
      coin: r.coin,
      from: r.fromAccount as WalletAccount,
      to: r.toAccount as WalletAccount,
      amount: amountText(BigInt(r.amount)),
      createdAt: r.ts,
    };
  }

  /** The chain side's deposit record, its amount written as every other record's (no trailing zeros). */
  function depositRecord(d: DepositRow, head: number): DepositRecord {
    return amountWritten(d, chain.depositRecord(d, head));
  }

  /** `r` (the record of row `d`) with its amount written as every other record's (no trailing zeros). */
  function amountWritten(d: DepositRow, r: DepositRecord): DepositRecord {
    return /^[0-9]+$/.test(d.amount) ? { ...r, amount: amountText(BigInt(d.amount)) } : r;
  }

  async function adminRecord(r: WithdrawalRow, emails?: Map<string, string>): Promise<AdminWithdrawal> {
    const map = emails ?? (await repo.operatorEmails(r.approvals.filter((x) => /^[0-9]{1,18}$/.test(x)).map((x) => BigInt(x))));
    return {
      id: r.id.toString(),
      userId: r.userId.toString(),
      account: engine.user(r.userId.toString())?.account ?? '',
      coin: r.coin,
      chain: r.chain,
      address: r.address,
      amount: amountText(BigInt(r.amount)),
      fee: amountText(BigInt(r.fee)),
      status: r.status as WithdrawStatus,
      approvalsRequired: r.approvalsRequired,
      approvals: r.approvals.map((x) => map.get(x) ?? x),
      txHash: r.txHash ?? '',
      reason: r.reasonEn || r.reason,
      createdAt: r.createdTs,
      updatedAt: r.updatedTs,
      explorerUrl: catalogue.txUrl(r.chain, r.txHash),
    };
  }

  function pageOf(page: string | undefined, size: string | undefined): { limit: number; offset: number } {
    const p = page === undefined || page === '' ? 1 : /^[1-9][0-9]{0,5}$/.test(page) ? Number(page) : NaN;
    const s = size === undefined || size === '' ? DEFAULT_PAGE_SIZE : /^[1-9][0-9]{0,2}$/.test(size) ? Number(size) : NaN;
    if (Number.isNaN(p)) throw new AppError('validation_failed', 400, 'page');
    if (Number.isNaN(s) || s > MAX_PAGE_SIZE) throw new AppError('validation_failed', 400, 'pageSize');
    return { limit: s, offset: (p - 1) * s };
  }

  /** The projected withdrawal `id` after the command (waits for the projection). */
  async function projectedWithdrawal(userId: bigint, id: string): Promise<WithdrawalRow> {
    await host.projected();
    const r = await repo.withdrawal(userId, BigInt(id));
    if (!r) throw new AppError('service_unavailable', 503);
    return r;
  }

  /** Any user's withdrawal `id` as projected up to now (console). */
  async function anyWithdrawal(id: string): Promise<WithdrawalRow> {
    if (!ID_RE.test(id)) throw new AppError('withdrawal_not_found', 404, 'id');
    await host.projected();
    const r = await repo.withdrawalAny(BigInt(id));
    if (!r) throw new AppError('withdrawal_not_found', 404, 'id');
    return r;
  }

  /**
   * A withdrawal request (see the file comment for the order of the checks), `secondFactor` run after the lock and
   * before the engine command: the app's transaction password, TOTP and VERIFY code, or nothing for an API key that
   * proved it (withdrawByApiKey).
   */
  function requestWithdrawal(
    userId: string,
    body: ApiWithdrawBody,
    lang: Lang,
    secondFactor: (s: WalletSecurity, profile: Readonly<Record<string, string>>) => Promise<void>,
  ): Promise<WithdrawRecord> {
    return serial(userId, async () => {
      const u = userOf(userId);
      const r = availableRule(body.coin, body.chain);
      if (verificationLevel(u.profile) === 'NONE') throw new AppError('kyc_required', 403);
      // A frozen account is refused before any code is spent (the engine refuses it again, in order).
      if (u.profile.frozen === '1') throw new AppError('account_frozen', 403);
      const clientId = parseClientId(body.clientId);
      await host.projected();
      const first = await repo.withdrawalByClientId(u.id, clientId);
      if (first && now() - first.createdTs < DEFAULT_IDEMPOTENCY_WINDOW_MS) return withdrawRecord(first, lang);
      const address = checkWithdrawAddress(body.address, r.contract, own);
      const amount = parseAmount(body.amount, r.withdrawDecimals, r.coin);
      if (amount < r.minWithdraw) throw new AppError('amount_below_minimum', 400, 'amount', { min: amountText(r.minWithdraw), coin: r.coin });
      if (amount > r.maxWithdraw) throw new AppError('amount_above_maximum', 400, 'amount', { max: amountText(r.maxWithdraw), coin: r.coin });
      if (amount <= r.withdrawFee) throw new AppError('amount_below_minimum', 400, 'amount', { min: amountText(r.minWithdraw), coin: r.coin });
      if (engine.balance(u.id.toString(), 'ASSETS', r.coin).available < amount) throw new AppError('insufficient_balance', 400, 'amount');
      // The daily limit before any one-time code is spent (the engine checks it again, in order with other requests).
      const t0 = now();
      const dayStart = t0 - (t0 % DAY_MS);
      const usedToday = await repo.withdrawnBetween(u.id, r.coin, dayStart, dayStart + DAY_MS);
      if (usedToday + amount > dailyLimit(verificationLevel(u.profile), r.coin)) throw new AppError('daily_limit_exceeded', 400, 'amount');
      const s = security();
      const lock = s.withdrawalLock(userId);
      if (lock !== null) throw lockError(lock.until);
      await secondFactor(s, u.profile);
      const res = await host.submit({
        type: 'requestWithdrawal',
        userId: u.id.toString(),
        asset: r.coin,
        chain: r.chain,
        address,
        amount,
        fee: r.withdrawFee,
        clientId,
        approvalsRequired: policy.approvalsRequired(engine, r.coin, amount),
        dailyLimit: dailyLimit(verificationLevel(u.profile), r.coin),
      });
      if (res.code === 'withdrawal_locked') {
        const l = s.withdrawalLock(userId);
        throw l ? lockError(l.until) : engineError(res);
      }
      if (res.code !== 'ok') throw engineError(res, 'amount');
      await host.projected();
      const row = res.withdrawal ? await repo.withdrawal(u.id, BigInt(res.withdrawal.withdrawalId)) : await repo.withdrawalByClientId(u.id, clientId);
      if (!row) throw new AppError('service_unavailable', 503);
      return withdrawRecord(row, lang);
    });
  }

  return {
    coins() {
      return catalogue.coins(assetCodes());
    },

    depositAddress(userId, q) {
      const u = userOf(userId);
      const r = availableRule(q.coin, q.chain);
      if (u.id > 0x7fffffffn) throw new AppError('chain_not_available', 400, 'chain');
      return {
        coin: r.coin,
        chain: r.chain,
        address: chain.depositAddress(u.id.toString()),
        minDeposit: amountText(r.minDeposit),
        confirmations: r.confirmations,
        demoDeposit: chain.demoDepositEnabled,
      };
    },

    async withdrawInfo(userId, q) {
      const u = userOf(userId);
      const r = availableRule(q.coin, q.chain);
      const t = now();
      const level = verificationLevel(u.profile);
      const limit = dailyLimit(level, r.coin);
      const dayStart = t - (t % DAY_MS);
      const used = await repo.withdrawnBetween(u.id, r.coin, dayStart, dayStart + DAY_MS);
      const available = engine.balance(u.id.toString(), 'ASSETS', r.coin).available;
      const step = pow10(ENGINE_SCALE - r.withdrawDecimals);
      let max = available < r.maxWithdraw ? available : r.maxWithdraw;
      const left = limit > used ? limit - used : 0n;
      if (left < max) max = left;
      max -= max % step;
      const s = security();
      const lock = s.withdrawalLock(userId);
      const mail = u.profile.mail ?? '';
      const phone = u.profile.phone ?? '';
      return {
        coin: r.coin,
        chain: r.chain,
        available: amountText(available),
        minWithdraw: amountText(r.minWithdraw),
        maxWithdraw: amountText(max),
        withdrawFee: amountText(r.withdrawFee),
        withdrawDecimals: r.withdrawDecimals,
        dailyLimit: amountText(limit),
        dailyUsed: amountText(used),
        verified: level !== 'NONE',
        transPasswordSet: (u.profile.transPasswordHash ?? '') !== '',
        googleBound: s.totpBound(userId),
        codeChannel: mail !== '' ? 'mail' : phone !== '' ? 'phone' : '',
        codeTarget: maskAccount(mail !== '' ? mail : phone),
        lock: lock === null ? null : { until: lock.until, reason: lock.reason },
      };
    },

    withdraw(userId, body, lang) {
      return requestWithdrawal(userId, body, lang, async (s, profile) => {
        await s.verifyTransactionPassword(userId, body.transPassword);
        if (s.totpBound(userId)) {
          const g = body.googleCode ?? '';
          if (g === '') throw new AppError('google_code_required', 400, 'googleCode');
          await s.verifyTotp(userId, g);
        }
        await consumeVerify(profile, body.code);
      });
    },

    withdrawByApiKey(userId, body, lang) {
      // The second factor was the API key's: its withdraw permission and IP whitelist (the Binance gateway checks both).
      return requestWithdrawal(userId, body, lang, async () => {});
    },

    async cancelWithdraw(userId, id, lang) {
      const u = userOf(userId);
      if (!ID_RE.test(id)) throw new AppError('withdrawal_not_found', 404, 'id');
      const res = await host.submit({ type: 'rejectWithdrawal', withdrawalId: id, reason: CANCEL_REASON, userId: u.id.toString() });
      if (res.code !== 'ok') throw engineError(res);
      return withdrawRecord(await projectedWithdrawal(u.id, id), lang);
    },

    transfer(userId, body) {
      return serial(userId, async () => {
        const u = userOf(userId);
        if (!assetCodes().includes(body.coin)) throw new AppError('asset_not_found', 400, 'coin');
        if (body.from === body.to) throw new AppError('same_account', 400, 'to');
        if ((USDT_ONLY.has(body.from) || USDT_ONLY.has(body.to)) && body.coin !== 'USDT') throw new AppError('transfer_coin_not_allowed', 400, 'coin');
        const clientId = parseClientId(body.clientId);
        await host.projected();
        const first = await repo.transferByClientId(u.id, clientId);
        if (first && now() - first.ts < DEFAULT_IDEMPOTENCY_WINDOW_MS) return transferRecord(first);
        const amount = parseAmount(body.amount, ENGINE_SCALE, body.coin);
        const uid = u.id.toString();
        const exceeds = (): AppError => {
          // Out of the contract account with positions or orders open: what may leave is the max withdraw amount
          // (margin held, cross unrealized losses counted; never an unrealized profit), and the message says it.
          if (body.from === 'CONTRACT' && (engine.positions(uid).length > 0 || engine.perpOpenOrders(uid).length > 0)) {
            const max = engine.perpAccount(uid).maxWithdrawAmount;
            return new AppError('transfer_exceeds_withdrawable', 400, 'amount', { max: formatDecimal(max, ENGINE_SCALE), coin: body.coin });
          }
          return new AppError('transfer_amount_exceeds', 400, 'amount');
        };
        const have = engine.balance(uid, body.from, body.coin).available;
        if (have < amount || (body.from === 'CONTRACT' && engine.perpAccount(uid).maxWithdrawAmount < amount)) throw exceeds();
        const res = await host.submit({ type: 'transfer', userId: uid, asset: body.coin, from: body.from, to: body.to, amount, clientId });
        if (res.code === 'insufficient_balance') throw exceeds();
        if (res.code !== 'ok') throw engineError(res);
        await host.projected();
        const row = await repo.transferByClientId(u.id, clientId);
        if (!row) throw new AppError('service_unavailable', 503);
        return transferRecord(row);
      });
    },

    async records(userId, q, lang) {
      const u = userOf(userId);
      const { limit, offset } = pageOf(q.page, q.pageSize);
      const coin = q.coin === undefined || q.coin === '' ? undefined : q.coin;
      if (coin !== undefined && !assetCodes().includes(coin)) throw new AppError('asset_not_found', 400, 'coin');
      const out: RecordsPage = { type: q.type, total: 0, deposits: [], withdrawals: [], transfers: [] };
      if (q.type === 'coinCharging') {
        const page = await listDeposits(deps.db, u.id, { coin, limit, offset });
        out.deposits = (await chain.depositRecords(page.rows)).map((r, i) => amountWritten(page.rows[i]!, r));
        out.total = page.total;
      } else if (q.type === 'withdrawCoin') {
        const page = await repo.listWithdrawals(u.id, { coin, limit, offset });
        out.withdrawals = await Promise.all(page.rows.map((r) => withdrawRecord(r, lang)));
        out.total = page.total;
      } else {
        const page = await repo.listTransfers(u.id, { coin, limit, offset });
        out.transfers = page.rows.map(transferRecord);
        out.total = page.total;
      }
      return out;
    },

    transfersWithin: (userId, q) => windowed.transfers(userId, q),
    depositsWithin: (userId, q) => windowed.deposits(userId, q),
    withdrawalsWithin: (userId, q) => windowed.withdrawals(userId, q),

    async recordDetail(userId, type, id, lang) {
      const u = userOf(userId);
      const out: RecordDetail = { type, deposit: null, withdrawal: null, transfer: null };
      if (!ID_RE.test(id)) throw new AppError('record_not_found', 404, 'id');
      if (type === 'coinCharging') {
        const d = await depositById(deps.db, u.id, id);
        if (!d) throw new AppError('record_not_found', 404, 'id');
        out.deposit = depositRecord(d, await chain.head(d.chain));
      } else if (type === 'withdrawCoin') {
        const r = await repo.withdrawal(u.id, BigInt(id));
        if (!r) throw new AppError('record_not_found', 404, 'id');
        out.withdrawal = await withdrawRecord(r, lang);
      } else {
        const r = await repo.transfer(u.id, BigInt(id));
        if (!r) throw new AppError('record_not_found', 404, 'id');
        out.transfer = transferRecord(r);
      }
      return out;
    },

    async addressBook(userId) {
      const u = userOf(userId);
      return (await repo.addresses(u.id)).map((r) => ({
        id: r.id.toString(),
        coin: r.coin,
        chain: r.chain,
        address: r.address,
        label: r.label,
        createdAt: r.createdTs,
      }));
    },

    async addAddress(userId, body) {
      const u = userOf(userId);
      const r = availableRule(body.coin, body.chain);
      const address = checkWithdrawAddress(body.address, r.contract, own);
      const label = body.label.trim();
      if (label === '') throw new AppError('address_label_required', 400, 'label');
      if ((await repo.addressCount(u.id)) >= MAX_ADDRESS_BOOK) throw new AppError('address_book_full', 400);
      const row = await repo.insertAddress({ userId: u.id, coin: r.coin, chain: r.chain, address, label, createdTs: now() });
      if (!row) throw new AppError('address_book_exists', 400, 'address');
      return { id: row.id.toString(), coin: row.coin, chain: row.chain, address: row.address, label: row.label, createdAt: row.createdTs };
    },

    async deleteAddress(userId, id) {
      const u = userOf(userId);
      if (!ID_RE.test(id) || !(await repo.deleteAddress(u.id, BigInt(id)))) throw new AppError('address_book_not_found', 404, 'id');
    },

    async adminWithdrawals(q) {
      const status = q.status === undefined ? 'REVIEW' : q.status === 'ALL' ? undefined : q.status;
      let userId: bigint | undefined;
      if (q.userId !== undefined && q.userId !== '') {
        const id = parseUserId(q.userId);
        if (id === null) throw new AppError('validation_failed', 400, 'userId');
        userId = id;
      }
      const { limit, offset } = pageOf(q.page, undefined);
      const page = await repo.adminWithdrawals({ status, userId, limit, offset });
      const ids = [...new Set(page.rows.flatMap((r) => r.approvals))].filter((x) => /^[0-9]{1,18}$/.test(x)).map((x) => BigInt(x));
      const emails = await repo.operatorEmails(ids);
      return { total: page.total, list: await Promise.all(page.rows.map((r) => adminRecord(r, emails))) };
    },

    async approve(actor, id) {
      const before = await anyWithdrawal(id);
      const after = { status: before.approvals.length + 1 >= before.approvalsRequired ? 'APPROVED' : 'REVIEW', approvals: before.approvals.length + 1 };
      const res = await host.submit({
        type: 'approveWithdrawal',
        withdrawalId: id,
        operatorId: actor.id.toString(),
        audit: engineAuditRecord(
          actor,
          'withdrawal_approve',
          { withdrawalId: id, status: before.status, approvals: before.approvals.length },
          { withdrawalId: id, ...after },
        ),
      });
      if (res.code !== 'ok') throw engineError(res);
      await host.projected();
      return adminRecord(await anyWithdrawal(id));
    },

    async reject(actor, id, reasonZh, reasonEn) {
      const zh = reasonZh.trim();
      const en = reasonEn.trim();
      if (zh === '' || en === '') throw new AppError('reason_required', 400, zh === '' ? 'reasonZh' : 'reasonEn');
      const before = await anyWithdrawal(id);
      const res = await host.submit({
        type: 'rejectWithdrawal',
        withdrawalId: id,
        reason: en,
        operatorId: actor.id.toString(),
        audit: engineAuditRecord(
          actor,
          'withdrawal_reject',
          { withdrawalId: id, status: before.status },
          { withdrawalId: id, status: 'REJECTED', reasonZh: zh, reasonEn: en },
          { reasonZh: zh, reasonEn: en },
        ),
      });
      if (res.code !== 'ok') throw engineError(res);
      await host.projected();
      return adminRecord(await anyWithdrawal(id));
    },
  };
}
