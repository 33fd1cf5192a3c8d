// PLACEHOLDER: replaced by the engine-host engineer. Only the interface below is agreed.
import type { FastifyBaseLogger } from 'fastify';
import type { Command, CommandResult, EngineApi, EngineEvent } from '@exchange/core';
import type { Config } from '../config/env';
import type { Db } from '../db/client';

/** A command as submitted: the host assigns `ts`. */
export type CommandInput = Command extends infer C ? (C extends Command ? Omit<C, 'ts'> : never) : never;

/** The engine behind its journal (DESIGN.md section 2). */
export interface EngineHost {
  /** Read-only access to the live engine state (never call execute on it). */
  readonly engine: EngineApi;
  /** Sequence, journal (durable, group commit) and apply a command; resolves after fsync. */
  submit(cmd: CommandInput): Promise<CommandResult>;
  /** Listen to every applied command's events, in order, after they are durable. Returns an unsubscribe. */
  onEvents(listener: (events: EngineEvent[], cmd: Command) => void): () => void;
  /** Wait until the projector has written every event applied so far to the database. */
  projected(): Promise<void>;
  close(): Promise<void>;
}

export async function createEngineHost(_deps: { config: Config; db: Db; log: FastifyBaseLogger }): Promise<EngineHost> {
  throw new Error('engine host not built yet');
}
