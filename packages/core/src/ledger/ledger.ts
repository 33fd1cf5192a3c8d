/**
 * Double-entry ledger of the engine.
 *
 * An account is keyed by (owner, kind, asset) and has two buckets, `available` and `frozen`, both
 * bigint amounts in the asset's smallest unit. Balances change only through `post`, which moves an
 * amount from one bucket to another (possibly of the same account, as a hold does), so for every
 * asset the sum of all buckets of all accounts stays 0n: system accounts (owners starting with '@',
 * kind 'SYSTEM') go negative by exactly what they issued. User buckets never go negative; a posting
 * that would make one negative is a programmer error (the engine checks balances before posting)
 * and throws. (TigerBeetle's double-entry accounts; ARCHITECTURE.md, convention 6.)
 */
import type { AccountKind, Balance } from '../types';

/** Account kinds including the system accounts' kind. */
export type LedgerKind = AccountKind | 'SYSTEM';
/** One of the two buckets of an account. */
export type Bucket = 'available' | 'frozen';

/** A ledger account (mutable; owned by the ledger). Amounts in the asset's smallest unit. */
export class Account {
  available: bigint;
  frozen: bigint;
  /** Ledger's command stamp of the last change, used to collect changed accounts once per command. */
  touchedStamp: number;
  /** True for system accounts (kind 'SYSTEM', '@...' owners), which may go negative. */
  readonly isSystem: boolean;
  // Fields are assigned in the constructor (not as class field initialisers): V8 creates such
  // objects with one shape and plain stores, which is measurably cheaper on the hot path.
  constructor(
    readonly owner: string,
    readonly kind: LedgerKind,
    readonly asset: string,
  ) {
    this.available = 0n;
    this.frozen = 0n;
    this.touchedStamp = -1;
    this.isSystem = kind === 'SYSTEM';
  }
}

const LEDGER_KINDS: readonly LedgerKind[] = ['ASSETS', 'SPOT', 'CONTRACT', 'OTC', 'SYSTEM'];

/** The accounts of one owner, by kind then asset. */
class OwnerAccounts {
  readonly ASSETS = new Map<string, Account>();
  readonly SPOT = new Map<string, Account>();
  readonly CONTRACT = new Map<string, Account>();
  readonly OTC = new Map<string, Account>();
  readonly SYSTEM = new Map<string, Account>();
}

/**
 * The accounts of one kind of an owner. A switch on the kind instead of `kinds[kind]`: a computed
 * key that takes several values makes a megamorphic keyed load on the hot path.
 */
function kindMap(kinds: OwnerAccounts, kind: LedgerKind): Map<string, Account> | undefined {
  switch (kind) {
    case 'SPOT':
      return kinds.SPOT;
    case 'SYSTEM':
      return kinds.SYSTEM;
    case 'ASSETS':
      return kinds.ASSETS;
    case 'CONTRACT':
      return kinds.CONTRACT;
    case 'OTC':
      return kinds.OTC;
    default:
      return undefined;
  }
}

/** True when `owner` names a system account ('@faucet', '@chain', '@fee', '@insurance', ...). */
export function isSystemOwner(owner: string): boolean {
  return owner.charCodeAt(0) === 64; // '@'
}

/** The ledger: accounts, postings, and the set of accounts changed by the current command. */
export class Ledger {
  /** owner -> kind -> asset -> account (kinds as fixed properties: one Map lookup fewer on the hot path) */
  private readonly byOwner = new Map<string, OwnerAccounts>();
  /**
   * Accounts changed since `beginCommand`, in first-change order: the first `touchedCount` entries
   * (the array is reused between commands; entries past the count are stale). Resetting a count
   * instead of `length = 0` keeps the backing store and avoids a runtime call per command.
   */
  readonly touched: Account[] = [];
  touchedCount = 0;
  private stamp = 0;

  /** Start collecting changed accounts for a new command (clears the touched list). */
  beginCommand(): void {
    this.stamp++;
    this.touchedCount = 0;
  }

  /** The account (owner, kind, asset), created empty if missing. */
  account(owner: string, kind: LedgerKind, asset: string): Account {
    let kinds = this.byOwner.get(owner);
    if (kinds === undefined) {
      kinds = new OwnerAccounts();
      this.byOwner.set(owner, kinds);
    }
    const assets = kindMap(kinds, kind);
    if (assets === undefined) throw new RangeError(`ledger: unknown account kind ${String(kind)}`);
    let acc = assets.get(asset);
    if (acc === undefined) {
      acc = new Account(owner, kind, asset);
      assets.set(asset, acc);
    }
    return acc;
  }

  /** The account if it exists (no creation). */
  find(owner: string, kind: LedgerKind, asset: string): Account | undefined {
    const kinds = this.byOwner.get(owner);
    return kinds === undefined ? undefined : kindMap(kinds, kind)?.get(asset);
  }

  /** Balance of an account (zeroes if it never existed). */
  balance(owner: string, kind: LedgerKind, asset: string): Balance {
    const a = this.find(owner, kind, asset);
    return a === undefined ? { available: 0n, frozen: 0n } : { available: a.available, frozen: a.frozen };
  }

  /** All non-zero balances of an owner: kind -> asset -> balance. */
  balancesOf(owner: string): Map<LedgerKind, Map<string, Balance>> {
    const out = new Map<LedgerKind, Map<string, Balance>>();
    const kinds = this.byOwner.get(owner);
    if (kinds === undefined) return out;
    for (const kind of LEDGER_KINDS) {
      const assets = kinds[kind];
      for (const [asset, a] of assets) {
        if (a.available === 0n && a.frozen === 0n) continue;
        let m = out.get(kind);
        if (m === undefined) {
          m = new Map();
          out.set(kind, m);
        }
        m.set(asset, { available: a.available, frozen: a.frozen });
      }
    }
    return out;
  }

  /**
   * Move `amount` (>= 0, asset's smallest unit) from `from[fromBucket]` to `to[toBucket]`.
   * Both accounts must hold the same asset. Throws if a user bucket would go negative
   * (a programmer error: callers check balances first).
   */
  post(from: Account, fromBucket: Bucket, to: Account, toBucket: Bucket, amount: bigint): void {
    if (amount === 0n) return;
    if (amount < 0n) throw new RangeError('ledger: negative posting');
    if (from.asset !== to.asset) throw new Error('ledger: posting between different assets');
    // Explicit branches instead of from[fromBucket]: computed keys make megamorphic property accesses.
    const fromAvailable = fromBucket === 'available';
    const left = (fromAvailable ? from.available : from.frozen) - amount;
    if (left < 0n && !from.isSystem) {
      throw new Error(`ledger: ${from.owner}/${from.kind}/${from.asset}.${fromBucket} would go negative`);
    }
    if (fromAvailable) from.available = left;
    else from.frozen = left;
    if (toBucket === 'available') to.available += amount;
    else to.frozen += amount;
    this.touch(from);
    if (to !== from) this.touch(to);
  }

  /** Hold: available -> frozen of the same account (amount >= 0; same checks as `post`). */
  hold(acc: Account, amount: bigint): void {
    if (amount === 0n) return;
    const left = acc.available - amount;
    if (amount < 0n || (left < 0n && !acc.isSystem)) throw new RangeError(`ledger: bad hold on ${acc.owner}/${acc.kind}/${acc.asset}`);
    acc.available = left;
    acc.frozen += amount;
    this.touch(acc);
  }

  /** Release: frozen -> available of the same account (amount >= 0; same checks as `post`). */
  release(acc: Account, amount: bigint): void {
    if (amount === 0n) return;
    const left = acc.frozen - amount;
    if (amount < 0n || (left < 0n && !acc.isSystem)) throw new RangeError(`ledger: bad release on ${acc.owner}/${acc.kind}/${acc.asset}`);
    acc.frozen = left;
    acc.available += amount;
    this.touch(acc);
  }

  private touch(a: Account): void {
    if (a.touchedStamp !== this.stamp) {
      a.touchedStamp = this.stamp;
      this.touched[this.touchedCount++] = a;
    }
  }

  /** Every account, in creation order (owner, then kind, then asset creation order). */
  *accounts(): IterableIterator<Account> {
    for (const kinds of this.byOwner.values()) for (const kind of LEDGER_KINDS) yield* kinds[kind].values();
  }

  /** Per asset: the sum of both buckets over all accounts (0n for every asset while the ledger is sound). */
  assetTotals(): Map<string, bigint> {
    const totals = new Map<string, bigint>();
    for (const a of this.accounts()) totals.set(a.asset, (totals.get(a.asset) ?? 0n) + a.available + a.frozen);
    return totals;
  }

  /** Set an account's buckets directly; only for restoring a snapshot (the restored state is already balanced). */
  restoreAccount(owner: string, kind: LedgerKind, asset: string, available: bigint, frozen: bigint): void {
    const a = this.account(owner, kind, asset);
    a.available = available;
    a.frozen = frozen;
  }
}
