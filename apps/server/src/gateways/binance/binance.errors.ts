/**
 * Errors of the Binance-compatible API: every answer that is not a success is HTTP 4xx with Binance's
 * body `{ code, msg }` (never the app's envelope), codes and texts as Binance documents them
 * (https://developers.binance.com/docs/binance-spot-api-docs/errors). Routes throw BinanceError; an AppError of a
 * shared service (engine reject codes, validation) is mapped by `fromAppError`; anything else is -1000 with a
 * generic text and the error logged (no stack trace reaches a client).
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../platform/shared/errors';
import { ApiKeyRefusal, type ApiKeyRefusalReason } from '../../domains/api-keys/api-keys.service';

/** A Binance error: HTTP `status`, Binance `code` (negative integer) and its message. */
export class BinanceError extends Error {
  constructor(
    readonly code: number,
    readonly msg: string,
    readonly status: number = 400,
  ) {
    super(msg);
    this.name = 'BinanceError';
  }
}

/** Binance's error codes used here, with their documented texts (spot errors page; futures error codes page). */
export const BX = {
  unknown: () => new BinanceError(-1000, 'An unknown error occurred while processing the request.', 500),
  disconnected: () => new BinanceError(-1001, 'Internal error; unable to process your request. Please try again.', 503),
  unauthorized: () => new BinanceError(-1002, 'You are not authorized to execute this request.', 401),
  tooManyRequests: (msg = 'Too much request weight used; please use WebSocket Streams for live updates to avoid polling the API.') =>
    new BinanceError(-1003, msg, 429),
  tooManyOrders: () => new BinanceError(-1015, 'Too many new orders.', 429),
  timestampOutside: () => new BinanceError(-1021, 'Timestamp for this request is outside of the recvWindow.', 400),
  badSignature: () => new BinanceError(-1022, 'Signature for this request is not valid.', 400),
  /** recvWindow above 60000 ms (Binance answers -1131 "recvWindow must be less than 60000."). */
  badRecvWindow: () => new BinanceError(-1131, 'recvWindow must be less than 60000', 400),
  illegalChars: (param: string) => new BinanceError(-1100, `Illegal characters found in parameter '${param}'.`, 400),
  tooManyParams: () => new BinanceError(-1101, 'Too many parameters sent for this endpoint.', 400),
  mandatoryMissing: (param: string) => new BinanceError(-1102, `Mandatory parameter '${param}' was not sent, was empty/null, or malformed.`, 400),
  unknownParam: () => new BinanceError(-1103, 'An unknown parameter was sent.', 400),
  unreadParams: (read: number, sent: number) =>
    new BinanceError(-1104, `Not all sent parameters were read; read '${read}' parameter(s) but was sent '${sent}'.`, 400),
  emptyParam: (param: string) => new BinanceError(-1105, `Parameter '${param}' was empty.`, 400),
  paramNotRequired: (param: string) => new BinanceError(-1106, `Parameter '${param}' sent when not required.`, 400),
  badPrecision: (param: string) => new BinanceError(-1111, `Parameter '${param}' has too much precision.`, 400),
  invalidTimeInForce: () => new BinanceError(-1115, 'Invalid timeInForce.', 400),
  invalidOrderType: () => new BinanceError(-1116, 'Invalid orderType.', 400),
  invalidSide: () => new BinanceError(-1117, 'Invalid side.', 400),
  invalidSymbol: () => new BinanceError(-1121, 'Invalid symbol.', 400),
  invalidListenKey: () => new BinanceError(-1125, 'This listenKey does not exist.', 400),
  invalidInterval: () => new BinanceError(-1120, 'Invalid interval.', 400),
  badParam: (msg: string) => new BinanceError(-1130, msg, 400),
  newOrderRejected: (msg: string) => new BinanceError(-2010, msg, 400),
  cancelRejected: (msg = 'Unknown order sent.') => new BinanceError(-2011, msg, 400),
  noSuchOrder: () => new BinanceError(-2013, 'Order does not exist.', 400),
  badApiKeyFormat: () => new BinanceError(-2014, 'API-key format invalid.', 401),
  rejectedApiKey: () => new BinanceError(-2015, 'Invalid API-key, IP, or permissions for action.', 401),
} as const;

/**
 * Binance's equivalent of one of our error codes (an engine reject code or an AppError code), as a BinanceError.
 * Order rejections are -2010 with Binance's text where Binance has one ("Account has insufficient balance for
 * requested action."), cancels of an unknown order -2011, bad decimals -1111, bad values -1100/-1102/-1130.
 */
export function fromAppError(err: AppError): BinanceError {
  const field = err.field ?? 'parameter';
  switch (err.code) {
    case 'insufficient_balance':
      return BX.newOrderRejected('Account has insufficient balance for requested action.');
    case 'market_not_found':
      return BX.invalidSymbol();
    case 'market_halted':
      return BX.newOrderRejected('Market is closed.');
    case 'account_frozen':
      return BX.newOrderRejected('This action is disabled on this account.');
    case 'order_not_found':
      return BX.cancelRejected('Unknown order sent.');
    case 'too_many_decimals':
      return BX.badPrecision(field);
    case 'price_not_on_tick':
    case 'stop_price_not_on_tick':
      return BX.newOrderRejected('Filter failure: PRICE_FILTER');
    case 'trailing_delta_out_of_range':
      return BX.newOrderRejected('Filter failure: TRAILING_DELTA');
    case 'would_trigger_immediately':
      return BX.newOrderRejected('Order would trigger immediately.');
    case 'stop_price_required':
      return new BinanceError(-1102, "Param 'stopPrice' or 'trailingDelta' must be sent, but both were empty/null!", 400);
    case 'quantity_not_on_step':
    case 'quantity_below_minimum':
      return BX.newOrderRejected('Filter failure: LOT_SIZE');
    case 'notional_below_minimum':
      return BX.newOrderRejected('Filter failure: NOTIONAL');
    case 'would_take_liquidity':
      return BX.newOrderRejected('Order would immediately match and take.');
    case 'too_many_open_orders':
      return BX.newOrderRejected('Filter failure: MAX_NUM_ORDERS');
    case 'price_out_of_band':
      return BX.newOrderRejected('Filter failure: PERCENT_PRICE');
    case 'reduce_only_rejected':
      return new BinanceError(-2022, 'ReduceOnly Order is rejected.', 400);
    case 'leverage_invalid':
    case 'leverage_too_high':
      return new BinanceError(-4028, 'Leverage is not valid.', 400);
    case 'position_exists':
      return new BinanceError(-4048, 'Margin type cannot be changed if there exists position.', 400);
    case 'no_liquidity':
      return BX.newOrderRejected('Order book liquidity is less than LOT_SIZE filter minimum quantity.');
    case 'price_required':
      return BX.mandatoryMissing('price');
    case 'quantity_required':
      return BX.mandatoryMissing('quantity');
    case 'invalid_characters':
      return BX.illegalChars(field);
    case 'value_too_large':
      return BX.badParam(`Parameter '${field}' is too large.`);
    case 'rate_limited':
      return BX.tooManyRequests();
    case 'order_rate_limited':
      return BX.tooManyOrders();
    case 'validation_failed':
      return BX.mandatoryMissing(field);
    default:
      // Every other engine rejection of an order: -2010 with our code as the text (stable and greppable).
      return BX.newOrderRejected(err.code);
  }
}

/** Binance's answer to each refusal of the API key verifier (its codes and texts as Binance documents them). */
export function fromApiKeyRefusal(reason: ApiKeyRefusalReason): BinanceError {
  switch (reason) {
    case 'key_format':
      return BX.badApiKeyFormat();
    case 'key_rejected':
      return BX.rejectedApiKey();
    case 'timestamp_missing':
      return BX.mandatoryMissing('timestamp');
    case 'recv_window_malformed':
      return BX.illegalChars('recvWindow');
    case 'recv_window_too_large':
      return BX.badRecvWindow();
    case 'timestamp_outside':
      return BX.timestampOutside();
    case 'signature_invalid':
      return BX.badSignature();
  }
}

/** The Binance error an error thrown in a Binance route stands for (Fastify validation, AppError, an API key refusal, BinanceError, other). */
export function toBinanceError(err: FastifyError | Error): BinanceError {
  if (err instanceof BinanceError) return err;
  if (err instanceof ApiKeyRefusal) return fromApiKeyRefusal(err.reason);
  if (err instanceof AppError) return fromAppError(err);
  const fe = err as FastifyError;
  if (fe.validation && fe.validation.length > 0) {
    const v = fe.validation[0]!;
    const params = v.params as Record<string, unknown> | undefined;
    const missing = params?.missingProperty as string | undefined;
    const field = missing ?? (v.instancePath?.replace(/^\//, '').replace(/\//g, '.') || 'parameter');
    if (missing !== undefined) return BX.mandatoryMissing(missing);
    if (params?.additionalProperty !== undefined) return BX.unknownParam();
    return BX.illegalChars(field);
  }
  const status = fe.statusCode ?? 500;
  if (status === 413 || status === 414) return BX.tooManyParams();
  if (status === 429) return BX.tooManyRequests();
  if (status === 415) return BX.badParam('Unsupported content type.');
  if (status >= 400 && status < 500) return BX.badParam('Malformed request.');
  return BX.unknown();
}

/** The scoped error handler of the Binance routes: `{ code, msg }` with Binance's status; 5xx logged, never detailed. */
export function binanceErrorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const be = toBinanceError(err);
  if (be.status >= 500) req.log.error({ err }, 'binance api request failed');
  void reply.status(be.status).send({ code: be.code, msg: be.msg });
}
