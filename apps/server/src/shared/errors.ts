/**
 * AppError: a business error that becomes a FAILED envelope. `code` is a key of ERROR_MESSAGES
 * (packages/api errors.ts) or an engine reject code; `status` the HTTP status (4xx). `field` names the
 * offending input, appended to the message.
 */
import type { ErrorCode } from '@exchange/api';

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode | 'SYS.0015',
    readonly status: number = 400,
    readonly field?: string,
  ) {
    super(code);
    this.name = 'AppError';
  }
}
