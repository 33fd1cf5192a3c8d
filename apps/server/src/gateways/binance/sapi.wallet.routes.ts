/**
 * Binance's wallet endpoints under /sapi (https://developers.binance.com/docs/wallet: "User Universal Transfer",
 * "Query User Universal Transfer History", "Deposit Address", "Deposit History", "Withdraw", "Withdraw History"):
 * money movement through the app's own wallet service, so each transfer and withdrawal is the same journaled engine
 * command, with the same rules, as the app's transfer and withdraw screens.
 *
 * Accounts: Binance's MAIN (spot wallet) is our SPOT account, UMFUTURE (USDⓈ-M futures) our CONTRACT account and
 * FUNDING our ASSETS account (where deposits land and withdrawals leave from). Transfer types are the six between
 * those three; any other type is -1100.
 *
 * The second factor of an API withdrawal is the key itself, as on Binance: the route needs the key's `withdraw`
 * permission (-2015 without it) and the key must carry an IP whitelist (-2015 without one; the verifier already
 * refused a request from an address outside it, and a key with withdraw cannot be created without one). Every other
 * rule of the app's withdraw applies unchanged (WalletService.withdrawByApiKey): identity verification, the frozen
 * account, the address checks, minimum, maximum, fee and decimals, the balance, the daily limit of the user's level,
 * the 24 h lock after a security change and the operators' review above the threshold. A refusal changes nothing.
 *
 * Transfers need a trading permission of the key for the accounts involved (futuresTrade for UMFUTURE, spotTrade
 * otherwise): we have no separate "Permits Universal Transfer" flag. Histories are the caller's only (keyed by the
 * key's user in every query).
 */
import crypto from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { Type, type TOptional, type TProperties } from '@sinclair/typebox';
import { formatDecimal } from '@exchange/core';
import type { WalletAccount, WalletCoin } from '@exchange/api';
import { AppError } from '../../platform/shared/errors';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import type { ServerClock } from '../../platform/shared/clock';
import type { WalletService } from '../../domains/wallet/wallet.service';
import type { ChainService } from '../../domains/wallet/chain.service';
import type { ApiKeyService, KeyPermission } from '../../domains/api-keys/api-keys.service';
import type { WithdrawalRow } from '../../domains/wallet/wallet.repository';
import { ENGINE_SCALE } from '../../domains/wallet/chains';
import { callerOf, type BinanceRouteConfig } from './binance.auth';
import { BinanceError, BX, fromAppError } from './binance.errors';
import { paramsOf } from './binance.hooks';
import { uidWeight } from './binance.weights';
import { DecimalParam, EnumParam, IntParam, intParam, outOfRange, signedParams, signedPartialParams, timeParam } from './spot.params';
import { projectionCaughtUp } from './spot.repository';
import {
  answers,
  DepositAddressResponse,
  DepositHistoryResponse,
  TransferHistoryResponse,
  TransferResponse,
  WithdrawApplyResponse,
  WithdrawHistoryResponse,
} from './binance.responses';

/** Binance's transfer types served here, each as our (from, to) accounts. */
export const TRANSFER_TYPES: Readonly<Record<string, { from: WalletAccount; to: WalletAccount }>> = {
  MAIN_UMFUTURE: { from: 'SPOT', to: 'CONTRACT' },
  UMFUTURE_MAIN: { from: 'CONTRACT', to: 'SPOT' },
  MAIN_FUNDING: { from: 'SPOT', to: 'ASSETS' },
  FUNDING_MAIN: { from: 'ASSETS', to: 'SPOT' },
  UMFUTURE_FUNDING: { from: 'CONTRACT', to: 'ASSETS' },
  FUNDING_UMFUTURE: { from: 'ASSETS', to: 'CONTRACT' },
};

/** Binance's withdrawal status codes (Withdraw History): 2 awaiting approval, 4 processing, 6 completed, 3 rejected, 1 cancelled, 5 failure. */
export function withdrawStatusCode(r: Pick<WithdrawalRow, 'status' | 'reason'>): number {
  switch (r.status) {
    case 'REVIEW':
      return 2;
    case 'APPROVED':
    case 'BROADCASTING':
    case 'CONFIRMING':
      return 4;
    case 'COMPLETED':
      return 6;
    case 'REJECTED':
      return r.reason === 'user_cancelled' ? 1 : 3;
    default:
      return 5;
  }
}
/** Our withdrawal states of a Binance status code (the `status` filter); undefined for a code we never answer. */
const WITHDRAW_STATES: Readonly<Record<string, readonly string[]>> = {
  '2': ['REVIEW'],
  '4': ['APPROVED', 'BROADCASTING', 'CONFIRMING'],
  '6': ['COMPLETED'],
  '3': ['REJECTED'],
  '1': ['REJECTED'],
  '5': ['FAILED'],
  '0': [],
};
/** Binance's deposit status codes (Deposit History): 0 pending, 1 success, 7 wrong deposit (below the minimum), 2 rejected (orphaned by a reorg). */
const DEPOSIT_CODE: Readonly<Record<string, number>> = { CONFIRMING: 0, CREDITED: 1, BELOW_MINIMUM: 7, ORPHANED: 2 };
const DEPOSIT_STATES: Readonly<Record<string, readonly string[]>> = {
  '0': ['CONFIRMING'],
  '1': ['CREDITED'],
  '7': ['BELOW_MINIMUM'],
  '2': ['ORPHANED'],
  '6': [],
  '8': [],
};

const DAY_MS = 86_400_000;
/** Binance: deposit and withdraw history windows of at most 90 days (-4047), 7 days with withdrawOrderId; transfers default to the last 7 days. */
const MAX_WINDOW_MS = 90 * DAY_MS;
const ORDER_ID_WINDOW_MS = 7 * DAY_MS;
const TRANSFER_DEFAULT_MS = 7 * DAY_MS;
/** Most ids in withdraw history's idList (Binance: 45). */
const MAX_ID_LIST = 45;
const CLIENT_ID_RE = /^[A-Za-z0-9_-]{1,64}$/;
const ID_RE = /^[1-9][0-9]{0,17}$/;

/** "YYYY-MM-DD HH:mm:ss" (UTC) of a Unix ms time: Binance's applyTime and completeTime. */
export function binanceUtc(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** An asset or network code parameter ("USDT", "ETH"). */
const CodeParam = Type.String({ pattern: '^[A-Z0-9]{1,16}$' });
/** A free text parameter of printable ASCII up to `max` characters (an address, a client id, a list): the route checks its form. */
const textParam = (max: number) => Type.String({ pattern: `^[\\x21-\\x7E]{1,${max}}$` });
/** A client withdrawal id (withdrawOrderId): the app's client id form. */
const ClientIdParam = Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' });

/** The parameters of each route. */
const TRANSFER = { type: EnumParam, asset: CodeParam, amount: DecimalParam };
const TRANSFER_HISTORY = optional({ type: EnumParam, startTime: IntParam, endTime: IntParam, current: IntParam, size: IntParam });
const DEPOSIT_ADDRESS = optional({ coin: CodeParam, network: CodeParam });
const DEPOSIT_HISTORY = optional({ coin: CodeParam, status: IntParam, startTime: IntParam, endTime: IntParam, offset: IntParam, limit: IntParam });
const WITHDRAW = {
  coin: CodeParam,
  network: CodeParam,
  address: textParam(128),
  addressTag: textParam(64),
  amount: DecimalParam,
  withdrawOrderId: ClientIdParam,
};
const WITHDRAW_HISTORY = optional({
  coin: CodeParam,
  withdrawOrderId: ClientIdParam,
  status: IntParam,
  offset: IntParam,
  limit: IntParam,
  idList: textParam(MAX_ID_LIST * 19 + MAX_ID_LIST - 1),
  startTime: IntParam,
  endTime: IntParam,
});

/** Every parameter of `props` optional: the routes check mandatory ones themselves, with Binance's -1102. */
function optional<T extends TProperties>(props: T): { [K in keyof T]: TOptional<T[K]> } {
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, Type.Optional(v)])) as { [K in keyof T]: TOptional<T[K]> };
}

/** Route config of a USER_DATA route needing `permission` (read unless said), weighing `weight`. */
const userData = (weight: number, permission: KeyPermission = 'read'): { binance: BinanceRouteConfig } => ({
  binance: { weight, security: 'USER_DATA', permission },
});

/** What the wallet routes use: the engine and database (projected records), the clock, the wallet and chain services and the key list (IP whitelist). */
export interface SapiWalletRoutesDeps {
  host: EnginePort;
  clock: Pick<ServerClock, 'now'>;
  wallet: Pick<WalletService, 'transfer' | 'withdrawByApiKey' | 'depositAddress' | 'coins' | 'transfersWithin' | 'depositsWithin' | 'withdrawalsWithin'>;
  chain: Pick<ChainService, 'depositRecords' | 'head'>;
  apiKeys: Pick<ApiKeyService, 'list'>;
}

/** A transfer refusal of the wallet service as Binance words it (-5013 insufficient balance, -5007, -4018, -1111, -5010). */
export function transferError(err: unknown): unknown {
  if (!(err instanceof AppError)) return err;
  switch (err.code) {
    case 'transfer_amount_exceeds':
    case 'transfer_exceeds_withdrawable':
    case 'insufficient_balance':
      return new BinanceError(-5013, 'Asset transfer failed: insufficient balance', 400);
    case 'amount_invalid':
      return new BinanceError(-5007, 'Quantity must be greater than zero.', 400);
    case 'asset_not_found':
      return new BinanceError(-4018, "We don't have this asset.", 400);
    case 'too_many_decimals':
      return BX.badPrecision('amount');
    case 'transfer_coin_not_allowed':
      return new BinanceError(-5010, 'Asset transfer fail: the USDⓈ-M futures account holds USDT only.', 400);
    default:
      return fromAppError(err);
  }
}

/** A withdrawal refusal of the wallet service as Binance words it (its -40xx withdraw codes; see docs/binance-api.md). */
export function withdrawError(err: unknown): unknown {
  if (!(err instanceof AppError)) return err;
  const p = (err.params ?? {}) as Record<string, string>;
  switch (err.code) {
    case 'kyc_required':
      return new BinanceError(-4015, 'Withdraw is limited: identity verification is required.', 400);
    case 'account_frozen':
      return new BinanceError(-4015, 'Withdraw is limited.', 400);
    case 'asset_not_found':
      return new BinanceError(-4018, "We don't have this asset.", 400);
    case 'chain_not_available':
      return new BinanceError(-4019, 'Current asset is not open for withdrawal.', 400);
    case 'address_invalid':
      return new BinanceError(-4033, 'Illegal address.', 400);
    case 'address_internal':
      return new BinanceError(-4033, 'Illegal address: an address of this exchange.', 400);
    case 'address_wrong_network':
      return new BinanceError(-4033, 'Illegal address: an address of another network.', 400);
    case 'amount_invalid':
      return BX.illegalChars('amount');
    case 'too_many_decimals':
      return new BinanceError(-4021, `Asset withdrawal must be an integer multiple of ${p.step ?? ''}.`, 400);
    case 'amount_below_minimum':
      return new BinanceError(-4022, `Not less than the minimum pick-up quantity ${p.min ?? ''}.`, 400);
    case 'amount_above_maximum':
      return new BinanceError(-1130, `Parameter 'amount' above the maximum withdrawal of ${p.max ?? ''} ${p.coin ?? ''}.`, 400);
    case 'insufficient_balance':
      return new BinanceError(-4026, 'You have insufficient balance.', 400);
    case 'daily_limit_exceeded':
      return new BinanceError(-4023, 'Within 24 hours, the withdrawal exceeds the maximum amount.', 400);
    case 'withdrawal_locked':
      return new BinanceError(-4016, `Within 24 hours after a security change, withdrawal is prohibited${p.until ? ` (until ${p.until} UTC)` : ''}.`, 400);
    case 'service_unavailable':
      return BX.disconnected();
    default:
      return fromAppError(err);
  }
}

/** The [start, end] window of a history query: defaults as Binance's, -4047 when wider than `max` ms. */
function windowOf(startTime: number | undefined, endTime: number | undefined, now: number, defaultMs: number, max: number): [number, number] {
  const end = endTime ?? (startTime !== undefined ? Math.min(startTime + defaultMs, now) : now);
  const start = startTime ?? end - defaultMs;
  if (end - start > max) throw new BinanceError(-4047, `Time interval must be within 0-${Math.round(max / DAY_MS)} days`, 400);
  return [start, end];
}

/**
 * The default network of `coin` for `operation`: its first available one; -4018 for an unknown coin, -4019 when none
 * is available ("Current asset is not open for deposit." or "... withdrawal.").
 */
function defaultNetwork(coins: WalletCoin[], coin: string, operation: 'deposit' | 'withdrawal'): string {
  const c = coins.find((x) => x.coin === coin);
  if (c === undefined) throw new BinanceError(-4018, "We don't have this asset.", 400);
  const n = c.chains.find((x) => x.available);
  if (n === undefined) throw new BinanceError(-4019, `Current asset is not open for ${operation}.`, 400);
  return n.chain;
}

/** Binance's wallet routes over the app's wallet service (see the file comment). */
export default function sapiWalletRoutes({ host, clock, wallet, chain, apiKeys }: SapiWalletRoutesDeps): FastifyPluginAsync {
  return async function sapiWalletRoutes(app) {
    const userOf = (req: FastifyRequest) => callerOf(req).userId;
    /** The `coin` filter of a history: undefined when absent, -4018 for a coin the exchange does not have. */
    const knownCoin = (coin: string | undefined): string | undefined => {
      if (coin === undefined || coin === '') return undefined;
      if (host.engine.asset(coin) === undefined) throw new BinanceError(-4018, "We don't have this asset.", 400);
      return coin;
    };

    // ------------------------------------------------------------------ transfers
    app.post(
      '/sapi/v1/asset/transfer',
      {
        config: userData(uidWeight(900)),
        schema: { querystring: signedPartialParams(TRANSFER), body: signedPartialParams(TRANSFER), response: answers(TransferResponse) },
      },
      async (req) => {
        const caller = callerOf(req);
        const p = paramsOf(req);
        for (const k of ['type', 'asset', 'amount'] as const) if (p[k] === undefined || p[k] === '') throw BX.mandatoryMissing(k);
        const accounts = TRANSFER_TYPES[p.type!];
        if (accounts === undefined) throw BX.illegalChars('type');
        const needs: KeyPermission = accounts.from === 'CONTRACT' || accounts.to === 'CONTRACT' ? 'futuresTrade' : 'spotTrade';
        if (!caller.permissions.includes(needs)) throw BX.rejectedApiKey();
        try {
          const rec = await wallet.transfer(caller.userId, {
            coin: p.asset!,
            from: accounts.from,
            to: accounts.to,
            amount: p.amount!,
            clientId: `sapi-${crypto.randomUUID()}`,
          });
          return { tranId: Number(rec.id) };
        } catch (err) {
          throw transferError(err);
        }
      },
    );

    app.get(
      '/sapi/v1/asset/transfer',
      { config: userData(1), schema: { querystring: signedParams(TRANSFER_HISTORY), response: answers(TransferHistoryResponse) } },
      async (req) => {
        const q = req.query as Record<string, string | undefined>;
        if (q.type === undefined || q.type === '') throw BX.mandatoryMissing('type');
        const accounts = TRANSFER_TYPES[q.type];
        if (accounts === undefined) throw BX.illegalChars('type');
        const now = clock.now();
        const [start, end] = windowOf(timeParam(q.startTime, 'startTime'), timeParam(q.endTime, 'endTime'), now, TRANSFER_DEFAULT_MS, 183 * DAY_MS);
        const current = intParam(q.current, 'current', { min: 1, max: 1_000_000, fallback: 1 });
        const size = intParam(q.size, 'size', { min: 1, max: 100, fallback: 10 });
        await projectionCaughtUp(host);
        const page = await wallet.transfersWithin(BigInt(userOf(req)), { ...accounts, startMs: start, endMs: end, limit: size, offset: (current - 1) * size });
        return {
          total: page.total,
          rows: page.rows.map((r) => ({
            asset: r.coin,
            amount: formatDecimal(BigInt(r.amount), ENGINE_SCALE),
            type: q.type!,
            status: 'CONFIRMED' as const,
            tranId: Number(r.id),
            timestamp: r.ts,
          })),
        };
      },
    );

    // ------------------------------------------------------------------ deposits
    app.get(
      '/sapi/v1/capital/deposit/address',
      { config: userData(10), schema: { querystring: signedParams(DEPOSIT_ADDRESS), response: answers(DepositAddressResponse) } },
      async (req) => {
        const q = req.query as Record<string, string | undefined>;
        if (q.coin === undefined || q.coin === '') throw BX.mandatoryMissing('coin');
        const coins = wallet.coins();
        const network = q.network !== undefined && q.network !== '' ? q.network : defaultNetwork(coins, q.coin, 'deposit');
        try {
          const a = wallet.depositAddress(userOf(req), { coin: q.coin, chain: network });
          const explorer = coins.find((c) => c.coin === a.coin)?.chains.find((c) => c.chain === a.chain)?.explorerAddressUrl ?? '';
          return { address: a.address, coin: a.coin, tag: '', url: explorer === '' ? '' : `${explorer}${a.address}` };
        } catch (err) {
          if (err instanceof AppError && err.code === 'chain_not_available')
            throw new BinanceError(-4019, 'Current asset is not open for deposit on this network.', 400);
          throw withdrawError(err);
        }
      },
    );

    app.get(
      '/sapi/v1/capital/deposit/hisrec',
      { config: userData(1), schema: { querystring: signedParams(DEPOSIT_HISTORY), response: answers(DepositHistoryResponse) } },
      async (req) => {
        const q = req.query as Record<string, string | undefined>;
        const [start, end] = windowOf(timeParam(q.startTime, 'startTime'), timeParam(q.endTime, 'endTime'), clock.now(), MAX_WINDOW_MS, MAX_WINDOW_MS);
        const limit = intParam(q.limit, 'limit', { min: 1, max: 1000, fallback: 1000 });
        const offset = intParam(q.offset, 'offset', { min: 0, max: 1_000_000_000, fallback: 0 });
        let statuses: readonly string[] | undefined;
        if (q.status !== undefined && q.status !== '') {
          statuses = DEPOSIT_STATES[String(Number(q.status))];
          if (statuses === undefined) throw outOfRange('status', '0, 1, 2, 6, 7, 8');
        }
        const coin = knownCoin(q.coin);
        await projectionCaughtUp(host);
        const page = await wallet.depositsWithin(BigInt(userOf(req)), {
          startMs: start,
          endMs: end,
          limit,
          offset,
          ...(coin !== undefined ? { coin } : {}),
          ...(statuses !== undefined ? { statuses } : {}),
        });
        const records = await chain.depositRecords(page.rows);
        return page.rows.map((row, i) => {
          const d = records[i]!;
          return {
            id: d.id,
            amount: /^[0-9]+$/.test(row.amount) ? formatDecimal(BigInt(row.amount), ENGINE_SCALE) : row.amount,
            coin: d.coin,
            network: d.chain,
            status: DEPOSIT_CODE[d.status] ?? 0,
            address: d.address,
            addressTag: '',
            txId: d.txHash,
            insertTime: d.createdAt,
            completeTime: d.creditedAt,
            transferType: 0,
            confirmTimes: `${d.confirmations}/${d.confirmationsRequired}`,
            unlockConfirm: 0,
            walletType: 1,
          };
        });
      },
    );

    // ------------------------------------------------------------------ withdrawals
    app.post(
      '/sapi/v1/capital/withdraw/apply',
      {
        config: userData(uidWeight(900), 'withdraw'),
        schema: { querystring: signedPartialParams(WITHDRAW), body: signedPartialParams(WITHDRAW), response: answers(WithdrawApplyResponse) },
      },
      async (req) => {
        const caller = callerOf(req);
        // The key's IP whitelist is the withdrawal's second factor (Binance requires one on a key that withdraws).
        const key = (await apiKeys.list(caller.userId)).find((k) => k.id === caller.keyId);
        if (key === undefined || !key.withdraw || key.ipWhitelist.length === 0) throw BX.rejectedApiKey();
        const p = paramsOf(req);
        for (const k of ['coin', 'address', 'amount'] as const) if (p[k] === undefined || p[k] === '') throw BX.mandatoryMissing(k);
        if (p.addressTag !== undefined && p.addressTag !== '') throw BX.paramNotRequired('addressTag');
        const clientId = p.withdrawOrderId !== undefined && p.withdrawOrderId !== '' ? p.withdrawOrderId : `sapi-${crypto.randomUUID()}`;
        if (!CLIENT_ID_RE.test(clientId)) throw outOfRange('withdrawOrderId', '^[A-Za-z0-9_-]{1,64}$');
        try {
          const network = p.network !== undefined && p.network !== '' ? p.network : defaultNetwork(wallet.coins(), p.coin!, 'withdrawal');
          const rec = await wallet.withdrawByApiKey(caller.userId, { coin: p.coin!, chain: network, address: p.address!, amount: p.amount!, clientId }, 'en');
          return { id: rec.id };
        } catch (err) {
          throw withdrawError(err);
        }
      },
    );

    app.get(
      '/sapi/v1/capital/withdraw/history',
      { config: userData(uidWeight(18000)), schema: { querystring: signedParams(WITHDRAW_HISTORY), response: answers(WithdrawHistoryResponse) } },
      async (req) => {
        const q = req.query as Record<string, string | undefined>;
        const clientId = q.withdrawOrderId === undefined || q.withdrawOrderId === '' ? undefined : q.withdrawOrderId;
        const span = clientId !== undefined ? ORDER_ID_WINDOW_MS : MAX_WINDOW_MS;
        const [start, end] = windowOf(timeParam(q.startTime, 'startTime'), timeParam(q.endTime, 'endTime'), clock.now(), span, span);
        const limit = intParam(q.limit, 'limit', { min: 1, max: 1000, fallback: 1000 });
        const offset = intParam(q.offset, 'offset', { min: 0, max: 1_000_000_000, fallback: 0 });
        let statuses: readonly string[] | undefined;
        if (q.status !== undefined && q.status !== '') {
          statuses = WITHDRAW_STATES[String(Number(q.status))];
          if (statuses === undefined) throw outOfRange('status', '0 to 6');
        }
        let ids: bigint[] | undefined;
        if (q.idList !== undefined && q.idList !== '') {
          const parts = q.idList.split(',');
          if (parts.length > MAX_ID_LIST) throw BX.tooManyParams();
          if (!parts.every((x) => ID_RE.test(x))) throw BX.illegalChars('idList');
          ids = parts.map((x) => BigInt(x));
        }
        const coin = knownCoin(q.coin);
        await projectionCaughtUp(host);
        const page = await wallet.withdrawalsWithin(BigInt(userOf(req)), {
          startMs: start,
          endMs: end,
          limit,
          offset,
          ...(coin !== undefined ? { coin } : {}),
          ...(statuses !== undefined ? { statuses } : {}),
          ...(clientId !== undefined ? { clientId } : {}),
          ...(ids !== undefined ? { ids } : {}),
        });
        const wantCode = q.status !== undefined && q.status !== '' ? Number(q.status) : undefined;
        // each network's followed head, read once
        const heads = new Map<string, number>();
        for (const r of page.rows) if (r.blockNumber !== null && !heads.has(r.chain)) heads.set(r.chain, await chain.head(r.chain));
        return page.rows
          .filter((r) => wantCode === undefined || withdrawStatusCode(r) === wantCode)
          .map((r) => {
            const code = withdrawStatusCode(r);
            const head = heads.get(r.chain) ?? 0;
            const confirmNo = r.blockNumber !== null && head > 0 ? Math.max(0, head - r.blockNumber + 1) : 0;
            return {
              id: r.id.toString(),
              amount: formatDecimal(BigInt(r.amount), ENGINE_SCALE),
              transactionFee: formatDecimal(BigInt(r.fee), ENGINE_SCALE),
              coin: r.coin,
              status: code,
              address: r.address,
              txId: r.txHash ?? '',
              applyTime: binanceUtc(r.createdTs),
              network: r.chain,
              transferType: 0,
              withdrawOrderId: r.clientId,
              info: code === 3 || code === 5 ? r.reasonEn || r.reason : '',
              confirmNo,
              walletType: 1,
              txKey: '',
              ...(r.status === 'COMPLETED' ? { completeTime: binanceUtc(r.updatedTs) } : {}),
            };
          });
      },
    );
  };
}
