/**
 * The process logger (pino) with an error serializer that never writes query parameters: drizzle's
 * DrizzleQueryError carries the failed SQL's parameters in `params` and in its message ("Failed query: ...\nparams:
 * ..."), which can hold e-mail addresses, password hashes or codes. The SQL text stays (it names the table and the
 * statement an operator needs); the values never reach the log, at any level.
 */
import pino, { type Logger } from 'pino';

interface SerializedError {
  message?: unknown;
  stack?: unknown;
  params?: unknown;
  cause?: unknown;
  [key: string]: unknown;
}

/** Removes query parameters from a serialized error and its causes (at most 5 deep). */
function redact(e: SerializedError, depth = 0): SerializedError {
  const out: SerializedError = { ...e };
  delete out.params;
  if (typeof out.message === 'string') out.message = out.message.replace(/\nparams: [\s\S]*$/, '\nparams: [redacted]');
  if (typeof out.stack === 'string') out.stack = out.stack.replace(/\nparams: [\s\S]*?(\n {4}at |$)/, '\nparams: [redacted]$1');
  if (out.cause && typeof out.cause === 'object' && depth < 5) out.cause = redact(out.cause as SerializedError, depth + 1);
  return out;
}

/** pino's standard error serializer, then the parameters of failed queries removed. */
export function safeErrorSerializer(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  return redact(pino.stdSerializers.err(err) as unknown as SerializedError);
}

/** The process logger at `level`, with `safeErrorSerializer` for `err` and `error` fields. */
export function createLogger(level: string): Logger {
  return pino({ level, serializers: { err: safeErrorSerializer, error: safeErrorSerializer } });
}
