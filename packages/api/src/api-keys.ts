/**
 * Wire schemas of API keys: keys for the Binance-compatible API (docs/binance-api.md), managed in the
 * app's account centre and in the operator console.
 *
 * A key has a label, a type (HMAC_SHA256: the server generates a secret, shown once at creation and stored
 * sealed; ED25519: the user uploads a public key, the server never sees the private one), permissions (read
 * always; spot trade, futures trade; withdraw off by default), an optional IP whitelist, its creation and last use.
 * Creating a key needs the second factor (`googleCode` when Google authenticator is bound, else `verifyCode`).
 *
 * Routes: app API style under `/api/member/apiKey/...` (API_KEY_PATHS), envelope, headers token/userId; the console
 * under `/api/admin/apiKey/...` (ADMIN_API_KEY_PATHS), header x-admin-token. Times Unix ms.
 */
import { Type, type Static } from '@sinclair/typebox';

/** Paths of the users' API key routes, relative to `/api/`. */
export const API_KEY_PATHS = {
  /** GET: the caller's keys, newest first (never a secret) */
  list: 'member/apiKey/list',
  /** POST: create a key (second factor); the answer carries an HMAC key's secret, the only time it is shown */
  create: 'member/apiKey/create',
  /** POST: delete one of the caller's keys (it stops working at once) */
  remove: 'member/apiKey/delete',
} as const;

/** Paths of the console's API key routes, relative to `/api/`. */
export const ADMIN_API_KEY_PATHS = {
  /** GET ?userId=: a user's keys */
  list: 'admin/apiKey/list',
  /** POST {id, reason}: delete a user's key (audited) */
  remove: 'admin/apiKey/delete',
} as const;

/** Most keys a user may hold at once (Binance: 30). */
export const MAX_API_KEYS_PER_USER = 30;
/** Most addresses in a key's IP whitelist (Binance: 30). */
export const MAX_IP_WHITELIST = 30;

export const ApiKeyType = Type.Union([Type.Literal('HMAC_SHA256'), Type.Literal('ED25519')]);
export type ApiKeyType = Static<typeof ApiKeyType>;

/** One API key as its owner (or an operator) sees it: never the secret. */
export const ApiKeyView = Type.Object({
  id: Type.String(),
  label: Type.String(),
  /** the public key string sent in X-MBX-APIKEY (64 characters) */
  apiKey: Type.String(),
  keyType: ApiKeyType,
  /** always true: every key can read the account */
  read: Type.Boolean(),
  spotTrade: Type.Boolean(),
  futuresTrade: Type.Boolean(),
  withdraw: Type.Boolean(),
  /** IPv4/IPv6 addresses allowed to use the key; empty = any address */
  ipWhitelist: Type.Array(Type.String()),
  createdAt: Type.Number(),
  /** the last request the key authenticated (updated at most once a minute), or null */
  lastUsedAt: Type.Union([Type.Number(), Type.Null()]),
});
export type ApiKeyView = Static<typeof ApiKeyView>;

/** A boolean field of a form body: 'true'/'false' (or JSON true/false). */
const FormBool = Type.Optional(Type.Union([Type.Boolean(), Type.Literal('true'), Type.Literal('false')]));

/** Body of create. */
export const CreateApiKeyBody = Type.Object({
  /** 1-32 characters */
  label: Type.String({ minLength: 1, maxLength: 32 }),
  keyType: ApiKeyType,
  /** ED25519 only: the public key, PEM ("-----BEGIN PUBLIC KEY-----...") */
  publicKey: Type.Optional(Type.String({ maxLength: 1000 })),
  spotTrade: FormBool,
  futuresTrade: FormBool,
  withdraw: FormBool,
  /** addresses separated by commas, spaces or new lines; empty = any address */
  ipWhitelist: Type.Optional(Type.String({ maxLength: 2000 })),
  googleCode: Type.Optional(Type.String({ pattern: '^[0-9]{6}$' })),
  verifyCode: Type.Optional(Type.String({ pattern: '^[0-9]{6}$' })),
});
export type CreateApiKeyBody = Static<typeof CreateApiKeyBody>;

/** Answer of create: the key and, for an HMAC key, its secret (shown this once, never again). */
export const CreatedApiKey = Type.Object({
  key: ApiKeyView,
  secretKey: Type.Union([Type.String(), Type.Null()]),
});
export type CreatedApiKey = Static<typeof CreatedApiKey>;

/** Body of delete. */
export const DeleteApiKeyBody = Type.Object({ id: Type.String({ pattern: '^[0-9]{1,19}$' }) });
export type DeleteApiKeyBody = Static<typeof DeleteApiKeyBody>;

/** Query of the console's list. */
export const AdminApiKeysQuery = Type.Object({ userId: Type.String({ pattern: '^[0-9]{1,19}$' }) });

/** Body of the console's delete. */
export const AdminDeleteApiKeyBody = Type.Object({
  id: Type.String({ pattern: '^[0-9]{1,19}$' }),
  reason: Type.String({ minLength: 1, maxLength: 200 }),
});
