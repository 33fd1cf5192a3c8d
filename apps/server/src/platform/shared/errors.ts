/**
 * AppError: a business error that becomes a FAILED envelope. `code` is a key of ERROR_MESSAGES
 * (packages/api errors.ts) or an engine reject code; `status` the HTTP status (4xx). `field` names the
 * offending input (shown in words where the message needs it); `params` are the values the message can
 * name (the market's minimum or step: packages/api messages.ts PARAM_SENTENCES).
 */
import type { ErrorCode, MessageParams } from '@exchange/api';

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode | 'SYS.0015',
    readonly status: number = 400,
    readonly field?: string,
    readonly params?: MessageParams,
  ) {
    super(code);
    this.name = 'AppError';
  }
}
