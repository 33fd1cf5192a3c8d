/**
 * Lossless text encoding of commands for the journal: JSON in which every bigint is written as
 * {"$n":"<decimal>"} (commands contain no free-form objects, so the marker cannot collide).
 */
import type { Command } from './types';

function replacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? { $n: value.toString() } : value;
}

const BIGINT_RE = /^-?(0|[1-9][0-9]*)$/;

/**
 * Replaces every {"$n": "<decimal>"} inside `o` with its bigint, in place. A walk after a plain JSON.parse:
 * a JSON.parse reviver is called back for every key of every record and made recovery parse-bound.
 */
function reviveBigints(o: Record<string, unknown>): void {
  for (const k in o) {
    const v = o[k];
    if (v === null || typeof v !== 'object' || Array.isArray(v)) continue;
    const inner = v as Record<string, unknown>;
    const n = inner.$n;
    if (typeof n === 'string' && Object.keys(inner).length === 1) {
      if (!BIGINT_RE.test(n)) throw new SyntaxError(`parseCommand: bad bigint ${n}`);
      o[k] = BigInt(n);
    } else {
      reviveBigints(inner);
    }
  }
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
  const v: unknown = JSON.parse(text);
  if (v === null || typeof v !== 'object' || typeof (v as { type?: unknown }).type !== 'string' || typeof (v as { ts?: unknown }).ts !== 'number') {
    throw new SyntaxError('parseCommand: not a command');
  }
  reviveBigints(v as Record<string, unknown>);
  return v as Command;
}
