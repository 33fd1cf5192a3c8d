/**
 * API keys of the Binance-compatible API (domains/api-keys, docs/binance-api.md). Not an engine
 * projection: a key moves no money by itself (every order it places goes through the journaled services, which
 * check the account), so like the security tables it lives in the database only and is not rebuilt from the
 * journal. The HMAC secret is sealed with the secret box (platform/shared/secret-box.ts, purpose `api-key-secret:<apiKey>`)
 * because the server must recompute signatures; an Ed25519 key stores only the user's public key (PEM).
 */
import { bigint, boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** One API key of a user. A deleted key keeps its row (deleted_at set) and never works again. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'bigint' }).notNull(),
    label: text('label').notNull(),
    /** HMAC_SHA256 | ED25519 */
    keyType: text('key_type').notNull(),
    /** The public key string sent in X-MBX-APIKEY: 64 random alphanumeric characters. */
    apiKey: text('api_key').notNull(),
    /** HMAC_SHA256: the secret, sealed (platform/shared/secret-box.ts); null for ED25519. */
    sealedSecret: text('sealed_secret'),
    /** ED25519: the user's public key (PEM, SPKI); null for HMAC_SHA256. */
    publicKey: text('public_key'),
    spotTrade: boolean('spot_trade').notNull().default(false),
    futuresTrade: boolean('futures_trade').notNull().default(false),
    withdraw: boolean('withdraw').notNull().default(false),
    /** Addresses allowed to use the key (normalised); [] = any address. */
    ipWhitelist: jsonb('ip_whitelist').$type<string[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** The last request the key authenticated, written at most once a minute per key. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('api_keys_api_key_uq').on(t.apiKey), index('api_keys_user_idx').on(t.userId, t.id)],
);
