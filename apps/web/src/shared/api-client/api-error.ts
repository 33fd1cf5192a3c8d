/**
 * The error thrown by apiGet/apiPost. `code` is the envelope's errorCode for FAILED answers, or
 * 'HTTP_<status>', 'NETWORK' (connection failed), 'TIMEOUT' (60 s) and 'PARSE' for transport failures.
 */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly httpStatus: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** True when `e` is an ApiError, optionally with the given code. */
export function isApiError(e: unknown, code?: string): e is ApiError {
  return e instanceof ApiError && (code === undefined || e.code === code);
}
