/**
 * The worked example of a machine the engine is given by its host (ARCHITECTURE.md section 14, src/machine.ts): tips,
 * one registered user sends another an amount of an asset from SPOT to SPOT. Its folder is its own: it declares its
 * command, event, rejection code and reads into the core's root by declaration merging, and no file of the root names
 * it. The tests (tips-machine.test.ts) run it through the engine; nothing else uses it.
 *
 * Rules: `tipSend` of `amount` (units of the asset's scale, > 0) from `userId` to `toUserId`, both registered, not the
 * same user, the sender not frozen, the asset listed; the sender's SPOT available must cover it (insufficient_balance
 * otherwise). A (userId, clientId) pair is accepted once: a repeat answers `ok` with no event and moves nothing.
 */
import type { EngineMachine, MachineHost, MachineState } from '../../src/machine';
import type { Ledger } from '../../src/ledger/ledger';
import type { Command, CommandBase, CommandResult } from '../../src/types';

/** What one user sent, per asset (units of the asset's scale). */
export interface TipsSentView {
  count: number;
  total: Record<string, bigint>;
}

/** The reads the engine answers from the tips machine. */
export interface TipsReads {
  /** What `userId` has sent, or undefined before their first tip. */
  tipsSent(userId: string): TipsSentView | undefined;
}

declare module '../../src/types' {
  interface MachineCommands {
    tipSend: CommandBase & { type: 'tipSend'; userId: string; toUserId: string; asset: string; amount: bigint; clientId: string };
  }
  interface MachineEvents {
    tipSent: { type: 'tipSent'; ts: number; userId: string; toUserId: string; asset: string; amount: bigint };
  }
}
declare module '../../src/reject-codes' {
  interface MachineRejectCodes {
    tip_to_self: true;
  }
}
declare module '../../src/engine-api' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the merge adds the reads
  interface MachineReads extends TipsReads {}
}

type TipRow = [userId: string, count: number, totals: [asset: string, amount: string][]];

/** The tips' state: per sender, the count and totals, and the client ids already accepted. */
class TipsState implements MachineState, TipsReads {
  private readonly sent = new Map<string, { count: number; total: Map<string, bigint>; clientIds: Set<string> }>();

  constructor(private readonly ledger: Ledger) {}

  get isEmpty(): boolean {
    return this.sent.size === 0;
  }

  tipsSent(userId: string): TipsSentView | undefined {
    const s = this.sent.get(userId);
    return s === undefined ? undefined : { count: s.count, total: Object.fromEntries(s.total) };
  }

  execute(command: Command, host: MachineHost): CommandResult {
    const cmd = command as Extract<Command, { type: 'tipSend' }>;
    const reject = (code: CommandResult['code']): CommandResult => ({ code, events: [] });
    if (!host.isUser(cmd.userId) || !host.isUser(cmd.toUserId)) return reject('user_not_found');
    if (cmd.userId === cmd.toUserId) return reject('tip_to_self');
    if (host.isFrozen(cmd.userId)) return reject('account_frozen');
    if (host.hasAsset(cmd.asset) === undefined) return reject('asset_not_found');
    if (typeof cmd.amount !== 'bigint' || cmd.amount <= 0n) return reject('amount_invalid');
    const mine = this.sent.get(cmd.userId);
    if (mine?.clientIds.has(cmd.clientId)) return { code: 'ok', events: host.events };
    const from = this.ledger.find(cmd.userId, 'SPOT', cmd.asset);
    if (from === undefined || from.available < cmd.amount) return reject('insufficient_balance');
    this.ledger.post(from, 'available', this.ledger.account(cmd.toUserId, 'SPOT', cmd.asset), 'available', cmd.amount);
    const s = mine ?? { count: 0, total: new Map<string, bigint>(), clientIds: new Set<string>() };
    s.count += 1;
    s.total.set(cmd.asset, (s.total.get(cmd.asset) ?? 0n) + cmd.amount);
    s.clientIds.add(cmd.clientId);
    this.sent.set(cmd.userId, s);
    host.events.push({ type: 'tipSent', ts: cmd.ts, userId: cmd.userId, toUserId: cmd.toUserId, asset: cmd.asset, amount: cmd.amount });
    return { code: 'ok', events: host.events };
  }

  rows(): { sent: TipRow[]; clientIds: [string, string[]][] } {
    const users = [...this.sent.keys()].sort();
    return {
      sent: users.map((u) => {
        const s = this.sent.get(u)!;
        return [u, s.count, [...s.total].sort(([a], [b]) => (a < b ? -1 : 1)).map(([a, n]) => [a, n.toString()])];
      }),
      clientIds: users.map((u) => [u, [...this.sent.get(u)!.clientIds].sort()]),
    };
  }

  static restore(rows: unknown, ledger: Ledger): TipsState {
    const r = rows as ReturnType<TipsState['rows']>;
    if (!Array.isArray(r?.sent) || !Array.isArray(r.clientIds)) throw new Error('tips: malformed snapshot rows');
    const t = new TipsState(ledger);
    const ids = new Map(r.clientIds);
    for (const [u, count, totals] of r.sent) {
      t.sent.set(u, { count, total: new Map(totals.map(([a, n]) => [a, BigInt(n)])), clientIds: new Set(ids.get(u) ?? []) });
    }
    return t;
  }
}

/** The tips machine, as a host gives it to the engine (`new Engine({ machines: [tipsMachine] })`). */
export const tipsMachine: EngineMachine<TipsState> = {
  name: 'tips',
  commands: ['tipSend'],
  reads: ['tipsSent'],
  create: (ledger) => new TipsState(ledger),
  restore: (rows, ledger) => TipsState.restore(rows, ledger),
};
