/** Public API of @exchange/core: the engine contract, the engine, money helpers and the index price. */
export * from './types';
export * from './perp/types';
export * from './perp/math';
export * from './otc/types';
export * from './activity/types';
export { compareTrading } from './activity/activity-engine';
export * from './rebate/types';
export type { ConvertPreview } from './spot/convert';
export type { EngineApi, EngineSnapshot, MachineReads } from './engine-api';
export { MachineMissingError, type EngineMachine, type MachineHost, type MachineState } from './machine';
export type { Ledger } from './ledger/ledger';
export {
  DEFAULT_CLOSED_ORDER_RETENTION,
  DEFAULT_IDEMPOTENCY_WINDOW_MS,
  Engine,
  MAX_ASSET_SCALE,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  type EngineOptions,
} from './engine';
export { BINARY_COMMAND_V1, decodeCommand, encodeCommand, parseCommand, serializeCommand } from './codec';
export * from '@exchange/money';
export { computeIndexPrice, indexPriceDetail, INDEX_CLAMP_BPS, type IndexSource, type IndexSourceStatus } from './index-price/index-price';
export { MAX_CLIENT_ORDER_ID_LENGTH, MAX_OPEN_ORDERS_PER_MARKET, MAX_TRAILING_DELTA_BIPS, MIN_TRAILING_DELTA_BIPS } from './spot/spot-market';
export type { BookKind, OrderBook, BookLevel } from './spot/book';
export { UserRegistry, MAX_USER_KEY_LENGTH, MAX_USER_KEYS, MAX_PROFILE_FIELDS, type UserRecord, type UserRow } from './users';
export { chainDepositKey, isEvmAddress, isTxHash, MAX_APPROVALS, utcDay } from './wallet/withdrawals';
