/**
 * Lossless text encoding of commands for the journal: JSON in which every bigint is written as
 * {"$n":"<decimal>"} (commands contain no free-form objects, so the marker cannot collide).
 */
import type { Command } from './types';

function replacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? { $n: value.toString() } : value;
}

const BIGINT_RE = /^-?(0|[1-9][0-9]*)$/;

function reviver(_key: string, value: unknown): unknown {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    const n = o.$n;
    if (typeof n === 'string' && Object.keys(o).length === 1) {
      if (!BIGINT_RE.test(n)) throw new SyntaxError(`parseCommand: bad bigint ${n}`);
      return BigInt(n);
    }
  }
  return value;
}

/** One command as a single line of JSON text (no newline inside); bigints kept exactly. */
export function serializeCommand(cmd: Command): string {
  return JSON.stringify(cmd, replacer);
}

/**
 * Inverse of `serializeCommand`. Throws SyntaxError on text that is not JSON or not an object
 * with a string `type` and a numeric `ts` (a corrupt journal line is an operator problem, not a rejection).
 */
export function parseCommand(text: string): Command {
  const v: unknown = JSON.parse(text, reviver);
  if (v === null || typeof v !== 'object' || typeof (v as { type?: unknown }).type !== 'string' || typeof (v as { ts?: unknown }).ts !== 'number') {
    throw new SyntaxError('parseCommand: not a command');
  }
  return v as Command;
}
