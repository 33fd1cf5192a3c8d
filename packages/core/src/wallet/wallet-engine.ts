/**
 * The wallet's commands in the engine: deposits from system accounts, transfers between a user's accounts, chain
 * deposits credited once for ever, and the withdrawal life cycle (withdrawals.ts has the state and its transitions).
 * A state machine like the other domains' (otc/otc-engine.ts): the engine routes these commands here and lends it the
 * ledger, the event list and what it knows of users, assets, idempotency keys and the contract account
 * (`WalletHost`). Rules: types.ts (each command's comment); amounts in the asset's smallest unit.
 */
import { KEY_DEPOSIT, KEY_TRANSFER, KEY_WITHDRAW, MAX_IDEMPOTENCY_KEY_LENGTH, type KeyKind } from '../idempotency';
import { isKey, isNonNegInt, MAX_SAFE } from '../checks';
import type { Ledger } from '../ledger/ledger';
import { isProfile } from '../users';
import { ACCOUNT_KINDS, type Command, type CommandResult, type EngineEvent, type RejectCode, type WithdrawalView } from '../types';
import {
  chainDepositKey,
  copyWithdrawal,
  isEvmAddress,
  isHex,
  isTxHash,
  MAX_APPROVALS,
  MAX_RAW_TX_LENGTH,
  MAX_REASON_LENGTH,
  utcDay,
  WalletState,
} from './withdrawals';

/** The command types the wallet handles (the engine routes them here); `WalletCommand` is their union. */
export const WALLET_COMMANDS = [
  'deposit',
  'transfer',
  'creditDeposit',
  'requestWithdrawal',
  'approveWithdrawal',
  'rejectWithdrawal',
  'broadcastWithdrawal',
  'withdrawalMined',
  'completeWithdrawal',
  'failWithdrawal',
  'walletIdentity',
] as const satisfies readonly Command['type'][];
/** The wallet's commands (types.ts has each one's rules). */
export type WalletCommand = Extract<Command, { type: (typeof WALLET_COMMANDS)[number] }>;

/** What the wallet needs of the engine (the engine implements it). */
export interface WalletHost {
  readonly ledger: Ledger;
  /** The command's events so far; the wallet appends its own. */
  readonly events: EngineEvent[];
  isFrozen(userId: string): boolean;
  /** true for a registered user */
  isUser(userId: string): boolean;
  /** A field of a registered user's profile (e.g. withdrawLockUntil), or undefined. */
  profileField(userId: string, field: string): string | undefined;
  /** the scale of a listed asset, or undefined */
  hasAsset(code: string): number | undefined;
  /** The live idempotency entry (its seq) of (kind, userId, key) at `ts`, or undefined. */
  walletKeyLookup(kind: KeyKind, userId: string, key: string, ts: number): number | undefined;
  walletKeyAdd(kind: KeyKind, userId: string, key: string, ts: number, seq: number): void;
  /**
   * What `userId` may take out of the contract account in `asset` (the perpetuals' max withdraw amount, cross
   * unrealized losses counted), or undefined when no perpetual settles in `asset`.
   */
  contractSpendable(userId: string, asset: string): bigint | undefined;
}

const SYSTEM_OWNERS: ReadonlySet<string> = new Set(['@faucet', '@chain', '@fee', '@insurance']);
const USER_KINDS: ReadonlySet<string> = new Set(ACCOUNT_KINDS);

/** Every rejection a wallet command may answer: a closed list, the compiler refuses any other code in this file. */
export const WALLET_REJECT_CODES = [
  'invalid_config',
  'invalid_order',
  'asset_not_found',
  'amount_invalid',
  'account_frozen',
  'same_account',
  'insufficient_balance',
  'user_not_found',
  'withdrawal_locked',
  'daily_limit_exceeded',
  'withdrawal_not_found',
  'withdrawal_state_invalid',
  'withdrawal_already_approved',
  'wallet_identity_mismatch',
] as const satisfies readonly RejectCode[];
/** A wallet command's rejection (WALLET_REJECT_CODES). */
export type WalletRejectCode = (typeof WALLET_REJECT_CODES)[number];

function reject(code: WalletRejectCode): CommandResult {
  return { code, events: [] };
}

/** The wallet's state machine (see the file comment). */
export class WalletEngine {
  /** Withdrawals in flight, daily withdrawn sums, credited chain deposits (withdrawals.ts). */
  readonly state = new WalletState();

  /** Applies one wallet command; rejections are result codes, never exceptions. */
  execute(cmd: WalletCommand, host: WalletHost): CommandResult {
    switch (cmd.type) {
      case 'deposit':
        return this.deposit(cmd, host);
      case 'transfer':
        return this.transfer(cmd, host);
      case 'creditDeposit':
        return this.creditDeposit(cmd, host);
      case 'requestWithdrawal':
        return this.requestWithdrawal(cmd, host);
      case 'approveWithdrawal':
        return this.approveWithdrawal(cmd, host);
      case 'rejectWithdrawal':
        return this.rejectWithdrawal(cmd, host);
      case 'broadcastWithdrawal':
        return this.broadcastWithdrawal(cmd, host);
      case 'withdrawalMined':
        return this.withdrawalMined(cmd, host);
      case 'completeWithdrawal':
        return this.completeWithdrawal(cmd, host);
      case 'failWithdrawal':
        return this.failWithdrawal(cmd, host);
      case 'walletIdentity':
        return this.walletIdentity(cmd);
    }
  }

  /** The recorded public identity of the wallet (SHA-256 hex of the deposit xpub), or null before the first record. */
  identity(): string | null {
    return this.state.identity;
  }

  private walletIdentity(cmd: Extract<Command, { type: 'walletIdentity' }>): CommandResult {
    const fp = cmd.xpubFingerprint;
    if (typeof fp !== 'string' || !/^[0-9a-f]{64}$/.test(fp)) return reject('invalid_config');
    if (this.state.identity === null) this.state.identity = fp;
    else if (this.state.identity !== fp) return reject('wallet_identity_mismatch');
    return { code: 'ok', events: [] };
  }

  /** A withdrawal not yet final (a copy), or undefined. */
  withdrawal(withdrawalId: string): WithdrawalView | undefined {
    const w = this.state.open.get(withdrawalId);
    return w === undefined ? undefined : copyWithdrawal(w);
  }

  /** Every withdrawal not yet final (copies). */
  openWithdrawals(): WithdrawalView[] {
    return [...this.state.open.values()].map(copyWithdrawal);
  }

  /** true once the chain deposit (chain, txHash, logIndex) was credited. */
  depositCredited(chain: string, txHash: string, logIndex: number): boolean {
    return this.state.credited.has(chainDepositKey(chain, txHash, logIndex));
  }

  private deposit(cmd: Extract<Command, { type: 'deposit' }>, host: WalletHost): CommandResult {
    const { userId, asset, account, amount, from, ref } = cmd;
    if (ref !== undefined && host.walletKeyLookup(KEY_DEPOSIT, userId, ref, cmd.ts) !== undefined) return { code: 'ok', events: [] };
    if (
      !isKey(userId, MAX_IDEMPOTENCY_KEY_LENGTH) ||
      userId.charCodeAt(0) === 64 ||
      !USER_KINDS.has(account) ||
      !SYSTEM_OWNERS.has(from) ||
      (ref !== undefined && !isKey(ref, MAX_IDEMPOTENCY_KEY_LENGTH))
    ) {
      return reject('invalid_config');
    }
    if (host.hasAsset(asset) === undefined) return reject('asset_not_found');
    if (typeof amount !== 'bigint' || amount <= 0n) return reject('amount_invalid');
    host.ledger.post(host.ledger.account(from, 'SYSTEM', asset), 'available', host.ledger.account(userId, account, asset), 'available', amount);
    if (ref !== undefined) host.walletKeyAdd(KEY_DEPOSIT, userId, ref, cmd.ts, 0);
    return { code: 'ok', events: host.events };
  }

  private transfer(cmd: Extract<Command, { type: 'transfer' }>, host: WalletHost): CommandResult {
    const { userId, asset, from, to, amount, clientId } = cmd;
    if (clientId !== undefined && host.walletKeyLookup(KEY_TRANSFER, userId, clientId, cmd.ts) !== undefined) return { code: 'ok', events: [] };
    if (
      !isKey(userId, MAX_IDEMPOTENCY_KEY_LENGTH) ||
      userId.charCodeAt(0) === 64 ||
      !USER_KINDS.has(from) ||
      !USER_KINDS.has(to) ||
      (clientId !== undefined && !isKey(clientId, MAX_IDEMPOTENCY_KEY_LENGTH))
    ) {
      return reject('invalid_order');
    }
    if (host.hasAsset(asset) === undefined) return reject('asset_not_found');
    if (typeof amount !== 'bigint' || amount <= 0n) return reject('amount_invalid');
    if (host.isFrozen(userId)) return reject('account_frozen');
    if (from === to) return reject('same_account');
    const src = host.ledger.find(userId, from, asset);
    if (src === undefined || src.available < amount) return reject('insufficient_balance');
    // Out of the contract account: at most its max withdraw amount, which counts cross unrealized losses (perp).
    if (from === 'CONTRACT') {
      const spendable = host.contractSpendable(userId, asset);
      if (spendable !== undefined && spendable < amount) return reject('insufficient_balance');
    }
    host.ledger.post(src, 'available', host.ledger.account(userId, to, asset), 'available', amount);
    host.events.push({ type: 'transferred', ts: cmd.ts, userId, asset, from, to, amount, clientId: clientId ?? null });
    if (clientId !== undefined) host.walletKeyAdd(KEY_TRANSFER, userId, clientId, cmd.ts, 0);
    return { code: 'ok', events: host.events };
  }

  private creditDeposit(cmd: Extract<Command, { type: 'creditDeposit' }>, host: WalletHost): CommandResult {
    const { userId, asset, amount, chain, txHash, logIndex, address, blockNumber } = cmd;
    if (
      !isKey(userId, MAX_IDEMPOTENCY_KEY_LENGTH) ||
      userId.charCodeAt(0) === 64 ||
      !isKey(chain, 16) ||
      !isTxHash(txHash) ||
      (logIndex !== -1 && !isNonNegInt(logIndex, MAX_SAFE)) ||
      !isEvmAddress(address) ||
      !isNonNegInt(blockNumber, MAX_SAFE)
    ) {
      return reject('invalid_config');
    }
    const key = chainDepositKey(chain, txHash, logIndex);
    if (this.state.credited.has(key)) return { code: 'ok', events: [], duplicate: true };
    if (host.hasAsset(asset) === undefined) return reject('asset_not_found');
    if (typeof amount !== 'bigint' || amount <= 0n) return reject('amount_invalid');
    if (!host.isUser(userId)) return reject('user_not_found');
    host.ledger.post(host.ledger.account('@chain', 'SYSTEM', asset), 'available', host.ledger.account(userId, 'ASSETS', asset), 'available', amount);
    this.state.credited.add(key);
    host.events.push({ type: 'depositCredited', ts: cmd.ts, deposit: { userId, asset, amount, chain, txHash, logIndex, address, blockNumber } });
    return { code: 'ok', events: host.events };
  }

  private requestWithdrawal(cmd: Extract<Command, { type: 'requestWithdrawal' }>, host: WalletHost): CommandResult {
    const { userId, asset, chain, address, amount, fee, clientId, approvalsRequired, dailyLimit } = cmd;
    if (!isKey(userId, MAX_IDEMPOTENCY_KEY_LENGTH) || userId.charCodeAt(0) === 64 || !isKey(clientId, MAX_IDEMPOTENCY_KEY_LENGTH))
      return reject('invalid_config');
    const k = host.walletKeyLookup(KEY_WITHDRAW, userId, clientId, cmd.ts);
    if (k !== undefined) {
      const first = this.state.open.get(`${k}`);
      const r: CommandResult = { code: 'ok', events: [], duplicate: true };
      if (first !== undefined) r.withdrawal = copyWithdrawal(first);
      return r;
    }
    if (!isKey(chain, 16) || !isKey(address, 128) || !isNonNegInt(approvalsRequired, MAX_APPROVALS) || typeof dailyLimit !== 'bigint' || dailyLimit < 0n) {
      return reject('invalid_config');
    }
    if (host.hasAsset(asset) === undefined) return reject('asset_not_found');
    if (host.isFrozen(userId)) return reject('account_frozen');
    if (typeof amount !== 'bigint' || typeof fee !== 'bigint' || amount <= 0n || fee < 0n || fee >= amount) return reject('amount_invalid');
    const src = host.ledger.find(userId, 'ASSETS', asset);
    if (src === undefined || src.available < amount) return reject('insufficient_balance');
    if (!host.isUser(userId)) return reject('user_not_found');
    // The lock's end (the server's security module writes it, Unix ms as decimal digits); compared as integers.
    const lockUntil = host.profileField(userId, 'withdrawLockUntil');
    if (lockUntil !== undefined && /^[0-9]{1,16}$/.test(lockUntil) && BigInt(lockUntil) > BigInt(cmd.ts)) return reject('withdrawal_locked');
    const day = utcDay(cmd.ts);
    if (this.state.usedOn(userId, asset, day) + amount > dailyLimit) return reject('daily_limit_exceeded');
    host.ledger.hold(src, amount);
    this.state.addUsed(userId, asset, day, amount);
    const id = ++this.state.seq;
    const w: WithdrawalView = {
      withdrawalId: `${id}`,
      userId,
      clientId,
      asset,
      chain,
      address,
      amount,
      fee,
      state: approvalsRequired > 0 ? 'REVIEW' : 'APPROVED',
      approvalsRequired,
      approvals: [],
      from: null,
      nonce: null,
      txHash: null,
      rawTx: null,
      blockNumber: null,
      reason: null,
      rejectedBy: null,
      createdTs: cmd.ts,
      updatedTs: cmd.ts,
    };
    this.state.open.set(w.withdrawalId, w);
    host.walletKeyAdd(KEY_WITHDRAW, userId, clientId, cmd.ts, id);
    return this.withdrawalChanged(host, w, cmd.ts);
  }

  /** The open withdrawal `id` allowed to take `action`, or the rejection. */
  private withdrawalFor(id: unknown, action: Parameters<typeof WalletState.allowed>[1]): WithdrawalView | WalletRejectCode {
    const w = typeof id === 'string' ? this.state.open.get(id) : undefined;
    if (w === undefined) return 'withdrawal_not_found';
    return WalletState.allowed(w.state, action) ? w : 'withdrawal_state_invalid';
  }

  /** Pushes the withdrawal's event (dropping it from the state when final) and answers with its view. */
  private withdrawalChanged(host: WalletHost, w: WithdrawalView, ts: number, audit?: Record<string, string>): CommandResult {
    w.updatedTs = ts;
    const final = w.state === 'COMPLETED' || w.state === 'REJECTED' || w.state === 'FAILED';
    if (final) this.state.open.delete(w.withdrawalId);
    const ev: Extract<EngineEvent, { type: 'withdrawalUpdated' }> = { type: 'withdrawalUpdated', ts, withdrawal: copyWithdrawal(w) };
    if (audit !== undefined) ev.audit = { ...audit };
    host.events.push(ev);
    return { code: 'ok', events: host.events, withdrawal: copyWithdrawal(w) };
  }

  /** Releases a withdrawal's hold and takes its amount off the daily sum of the day it was requested. */
  private releaseWithdrawal(host: WalletHost, w: WithdrawalView): void {
    host.ledger.release(host.ledger.account(w.userId, 'ASSETS', w.asset), w.amount);
    this.state.addUsed(w.userId, w.asset, utcDay(w.createdTs), -w.amount);
  }

  private approveWithdrawal(cmd: Extract<Command, { type: 'approveWithdrawal' }>, host: WalletHost): CommandResult {
    const { operatorId, audit } = cmd;
    if (!isKey(operatorId, MAX_IDEMPOTENCY_KEY_LENGTH) || (audit !== undefined && !isProfile(audit))) return reject('invalid_config');
    const w = this.withdrawalFor(cmd.withdrawalId, 'approve');
    if (typeof w === 'string') return reject(w);
    if (w.approvals.includes(operatorId)) return reject('withdrawal_already_approved');
    w.approvals.push(operatorId);
    if (w.approvals.length >= w.approvalsRequired) w.state = 'APPROVED';
    return this.withdrawalChanged(host, w, cmd.ts, audit);
  }

  private rejectWithdrawal(cmd: Extract<Command, { type: 'rejectWithdrawal' }>, host: WalletHost): CommandResult {
    const { reason, operatorId, userId, audit } = cmd;
    if (
      typeof reason !== 'string' ||
      reason.length > MAX_REASON_LENGTH ||
      (operatorId === undefined) === (userId === undefined) ||
      (operatorId !== undefined && !isKey(operatorId, MAX_IDEMPOTENCY_KEY_LENGTH)) ||
      (audit !== undefined && !isProfile(audit))
    ) {
      return reject('invalid_config');
    }
    const byOwner = userId !== undefined;
    const found = typeof cmd.withdrawalId === 'string' ? this.state.open.get(cmd.withdrawalId) : undefined;
    // Another user's withdrawal is not found for the caller (no hint that the id exists).
    if (found === undefined || (byOwner && found.userId !== userId)) return reject('withdrawal_not_found');
    const w = this.withdrawalFor(cmd.withdrawalId, byOwner ? 'rejectByOwner' : 'rejectByOperator');
    if (typeof w === 'string') return reject(w);
    this.releaseWithdrawal(host, w);
    w.state = 'REJECTED';
    w.reason = reason;
    w.rejectedBy = operatorId ?? null;
    return this.withdrawalChanged(host, w, cmd.ts, audit);
  }

  private broadcastWithdrawal(cmd: Extract<Command, { type: 'broadcastWithdrawal' }>, host: WalletHost): CommandResult {
    const { from, nonce, txHash, rawTx } = cmd;
    if (!isEvmAddress(from) || !isNonNegInt(nonce, MAX_SAFE) || !isTxHash(txHash) || !isHex(rawTx, MAX_RAW_TX_LENGTH)) return reject('invalid_config');
    const w = this.withdrawalFor(cmd.withdrawalId, 'broadcast');
    if (typeof w === 'string') return reject(w);
    w.state = 'BROADCASTING';
    w.from = from;
    w.nonce = nonce;
    w.txHash = txHash;
    w.rawTx = rawTx;
    return this.withdrawalChanged(host, w, cmd.ts);
  }

  private withdrawalMined(cmd: Extract<Command, { type: 'withdrawalMined' }>, host: WalletHost): CommandResult {
    if (!isNonNegInt(cmd.blockNumber, MAX_SAFE)) return reject('invalid_config');
    const w = this.withdrawalFor(cmd.withdrawalId, 'mined');
    if (typeof w === 'string') return reject(w);
    w.state = 'CONFIRMING';
    w.blockNumber = cmd.blockNumber;
    return this.withdrawalChanged(host, w, cmd.ts);
  }

  private completeWithdrawal(cmd: Extract<Command, { type: 'completeWithdrawal' }>, host: WalletHost): CommandResult {
    if (!isNonNegInt(cmd.blockNumber, MAX_SAFE)) return reject('invalid_config');
    const w = this.withdrawalFor(cmd.withdrawalId, 'complete');
    if (typeof w === 'string') return reject(w);
    const acc = host.ledger.account(w.userId, 'ASSETS', w.asset);
    host.ledger.post(acc, 'frozen', host.ledger.account('@chain', 'SYSTEM', w.asset), 'available', w.amount - w.fee);
    host.ledger.post(acc, 'frozen', host.ledger.account('@fee', 'SYSTEM', w.asset), 'available', w.fee);
    w.state = 'COMPLETED';
    w.blockNumber = cmd.blockNumber;
    return this.withdrawalChanged(host, w, cmd.ts);
  }

  private failWithdrawal(cmd: Extract<Command, { type: 'failWithdrawal' }>, host: WalletHost): CommandResult {
    if (typeof cmd.reason !== 'string' || cmd.reason.length > MAX_REASON_LENGTH) return reject('invalid_config');
    const w = this.withdrawalFor(cmd.withdrawalId, 'fail');
    if (typeof w === 'string') return reject(w);
    this.releaseWithdrawal(host, w);
    w.state = 'FAILED';
    w.reason = cmd.reason;
    return this.withdrawalChanged(host, w, cmd.ts);
  }
}
