/**
 * A state machine the engine is given by its host (`new Engine({ machines })`), so that a new domain's machine lives
 * in its own folder and no file of the core's root names it (ARCHITECTURE.md section 14). The machines the core
 * lists itself (users, wallet, spot, perpetuals, rebates, OTC, activities, savings) are routed in `Engine.machines`;
 * a given machine is routed the same way, after them.
 *
 * A machine's file declares, by TypeScript declaration merging into the core's root:
 * - its commands into `MachineCommands` (types.ts), keyed by command type: they join `Command`, and the journal's
 *   codecs carry them (as JSON text: codec.ts writes any command its binary schema does not describe that way);
 * - its events into `MachineEvents` (types.ts): they join `EngineEvent`;
 * - its rejection codes into `MachineRejectCodes` (reject-codes.ts): they join `RejectCode`;
 * - its reads into `MachineReads` (engine-api.ts; `interface MachineReads extends TipsReads {}`): they join
 *   `EngineApi` and `Engine`, which answers each read named in `reads` by calling the machine's state of the moment
 *   (and so does the server's engine view).
 *
 * Determinism: every process that applies the journal (the embedded host, the scale-out engine and its replicas, a
 * recovery) must be given the same machines, or a command of a machine it lacks is refused as `invalid_order` and
 * its state differs; the server gives each one the list of its domain modules (main/domains.ts `MACHINES`).
 */
import type { Ledger } from './ledger/ledger';
import type { Command, CommandResult, EngineEvent } from './types';

/**
 * Thrown by `Engine.restore` when the snapshot holds the rows of a machine the engine was not given: the state
 * cannot be rebuilt without it, and a host must not fall back to an older state (its journal holds the machine's
 * commands too). `machine` is the missing machine's name.
 */
export class MachineMissingError extends Error {
  constructor(readonly machine: string) {
    super(`restore: the snapshot holds the state of machine ${machine}, which the engine was not given`);
    this.name = 'MachineMissingError';
  }
}

/**
 * What the engine lends a given machine while it runs a command: the ledger (every balance change goes through it;
 * the engine adds the `balanceChanged` events of the accounts it touched), the command's event list (push the
 * machine's events onto it and answer it as the result's `events`), and what the engine knows of users and assets.
 */
export interface MachineHost {
  readonly ledger: Ledger;
  /** The events of the command being run (the result's `events`). */
  readonly events: EngineEvent[];
  /** True when the user is registered. */
  isUser(userId: string): boolean;
  /** True when the operator froze the user (a frozen user may not move money in). */
  isFrozen(userId: string): boolean;
  /** The scale (decimal places of the smallest unit) of a listed asset, or undefined. */
  hasAsset(code: string): number | undefined;
}

/**
 * A machine's state: runs its commands, answers its reads (the methods `EngineMachine.reads` names), and writes its
 * rows for the snapshot.
 */
export interface MachineState {
  /**
   * True while the state is the empty one: the snapshot then leaves the machine out, so a machine added to a running
   * exchange changes no snapshot or state hash until its first accepted command.
   */
  readonly isEmpty: boolean;
  /**
   * Runs one of the machine's commands (`EngineMachine.commands`). Business rejections are result codes with no
   * event and no balance change; a throw is a bug (the host then rebuilds the state without the command).
   */
  execute(cmd: Command, host: MachineHost): CommandResult;
  /**
   * The state as JSON-serializable rows (bigints as decimal strings), canonical: equal states give equal rows (fixed
   * orders, no empty parts), for the snapshot and the state hash.
   */
  rows(): unknown;
}

/**
 * A machine given to the engine: its name, the command types it runs, the reads the engine answers from it, and how
 * its state is made (empty, or from its snapshot rows).
 */
export interface EngineMachine<S extends MachineState = MachineState> {
  /**
   * The machine's name: the key of its rows in the snapshot (after the core's own fields). Lower camel case; not one
   * of the snapshot's fields (the engine refuses a name it already writes).
   */
  readonly name: string;
  /** The command types it runs (none routed to another machine). */
  readonly commands: readonly string[];
  /** The methods of its state the engine answers as its own reads (`engine.tipsOf(...)`; not one the engine has). */
  readonly reads: readonly string[];
  /** A new, empty state. */
  create(ledger: Ledger): S;
  /** The state from its snapshot rows (after a JSON round trip); throws on malformed rows. */
  restore(rows: unknown, ledger: Ledger): S;
}
