/**
 * The deterministic applier of a command stream (scale-out mode): the same state from the same stream, in every
 * process that reads it. The engine process and every gateway's read replica run one each over the JetStream
 * stream, so they agree on every balance, order id and result without talking to each other.
 *
 * What makes it deterministic beyond the engine itself (ARCHITECTURE.md sections 2 and 3, the engine and the journal):
 * - `ts`: a publisher stamps a command with its own clock; the applier makes it monotonic in stream order,
 *   ts = max(stamped ts, last applied ts), so clocks that disagree between gateways cannot move time backwards;
 * - a message that is not a command or a batch of commands (unparseable body) has no effect and is reported;
 * - a command on which the engine throws (a bug) has no effect: the state is rebuilt from the base snapshot and the
 *   commands since, without it, as the embedded host does (engine-host.ts), so every replica skips it the same way.
 */
import { Engine, parseCommand, serializeCommand } from '@exchange/core';
import type { Command, CommandResult, EngineMachine, EngineSnapshot } from '@exchange/core';
import type { SnapshotFile } from '../engine-host/snapshot-store';

/** Commands kept in memory to rebuild the state without one that threw, before the in-memory base moves on. */
const REBASE_EVERY = 100_000;

/** What applying one command of a stream message did. `cmd` null = not a command; `result` null = the engine threw (no effect). */
export interface Applied {
  seq: number;
  cmd: Command | null;
  result: CommandResult | null;
}

/** Applies stream messages in sequence order to one engine; see the file comment for the rules. */
export class CommandApplier {
  private eng: Engine;
  private base: { seq: number; snap: EngineSnapshot | null };
  /** The machines the engine is given (the constructor's `machines`), for every engine this applier makes. */
  private readonly engineOptions: { machines: readonly EngineMachine[] };
  /** The commands applied since `base` (never one the engine threw on). */
  private sinceBase: Command[] = [];
  /** Sequence number of the last message applied (0 = none). */
  lastSeq: number;
  /** Largest `ts` applied so far (Unix ms). */
  lastTs: number;

  /**
   * From a snapshot (its state hash is checked; throws when it differs) or from the empty engine (null).
   * `exec` is how a command is applied (default engine.execute; tests inject faults). `machines` are the engine
   * machines beyond the core's own (main/domains.ts `MACHINES`), the same in every process applying the stream.
   */
  constructor(
    snap: SnapshotFile | null,
    private readonly exec: (engine: Engine, cmd: Command) => CommandResult = (e, c) => e.execute(c),
    machines: readonly EngineMachine[] = [],
  ) {
    this.engineOptions = { machines };
    if (snap === null) {
      this.eng = new Engine(this.engineOptions);
      this.base = { seq: 0, snap: null };
      this.lastSeq = 0;
      this.lastTs = 0;
      return;
    }
    const engine = Engine.restore(snap.engine as EngineSnapshot, this.engineOptions);
    const hash = engine.stateHash();
    if (hash !== snap.stateHash) throw new Error(`snapshot at ${snap.seq}: state hash ${hash} differs from the recorded ${snap.stateHash}`);
    this.eng = engine;
    this.base = { seq: snap.seq, snap: snap.engine as EngineSnapshot };
    this.lastSeq = snap.seq;
    this.lastTs = snap.lastTs;
  }

  /** The live engine object (replaced after a rebuild: read it through a view, never keep it). */
  get engine(): Engine {
    return this.eng;
  }

  /**
   * Applies the message `seq` (must be lastSeq + 1; throws otherwise, a gap or a repeat is a bug of the reader): one
   * command, or a batch of them (a JSON array, in order, as a gateway publishes several commands in one message so
   * that one JetStream ack serves them all). Returns one Applied per command ([{cmd: null}] for a body that is not
   * a command or a batch of commands). Never throws for a bad body or an engine exception.
   */
  apply(seq: number, body: Uint8Array): Applied[] {
    if (seq !== this.lastSeq + 1) throw new Error(`CommandApplier: message ${seq} after ${this.lastSeq}`);
    this.lastSeq = seq;
    const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
    let cmds: Command[];
    try {
      cmds = text.startsWith('[') ? parseBatch(text) : [parseCommand(text)];
    } catch {
      return [{ seq, cmd: null, result: null }];
    }
    return cmds.map((c) => this.applyOne(seq, c));
  }

  private applyOne(seq: number, parsed: Command): Applied {
    let cmd = parsed;
    const ts = Math.max(cmd.ts, this.lastTs);
    this.lastTs = ts;
    if (ts !== cmd.ts) cmd = { ...cmd, ts };
    try {
      const result = this.exec(this.eng, cmd);
      this.sinceBase.push(cmd);
      if (this.sinceBase.length >= REBASE_EVERY) this.rebase();
      return { seq, cmd, result };
    } catch {
      // The commands since the base, without this one (never pushed), give the state as if it never came.
      const e = this.base.snap === null ? new Engine(this.engineOptions) : Engine.restore(this.base.snap, this.engineOptions);
      for (const c of this.sinceBase) this.exec(e, c);
      this.eng = e;
      return { seq, cmd, result: null };
    }
  }

  /** The state now as a snapshot (also moves the rebuild base here). */
  snapshot(): SnapshotFile {
    const state = this.rebase();
    return { format: 1, seq: this.lastSeq, lastTs: this.lastTs, stateHash: this.eng.stateHash(), engine: state };
  }

  private rebase(): EngineSnapshot {
    const state = this.eng.snapshot();
    this.base = { seq: this.lastSeq, snap: state };
    this.sinceBase = [];
    return state;
  }
}

/** One stream message carrying several commands (a JSON array of serializeCommand texts' objects). */
export function serializeBatch(cmds: readonly Command[]): string {
  return `[${cmds.map((c) => serializeCommand(c)).join(',')}]`;
}

/** Inverse of serializeBatch; throws SyntaxError when any element is not a command. */
function parseBatch(text: string): Command[] {
  const arr: unknown = JSON.parse(text);
  if (!Array.isArray(arr) || arr.length === 0) throw new SyntaxError('not a batch of commands');
  // parseCommand revives bigints and checks the shape of each element.
  return arr.map((v) => parseCommand(JSON.stringify(v)));
}
