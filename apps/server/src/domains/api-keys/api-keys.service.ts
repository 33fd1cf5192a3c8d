/**
 * API keys of the Binance-compatible API (docs/binance-api.md "API keys, signatures and limits"): the
 * users' keys (create with the second factor, list, delete), the console's (list, delete with an audit row), and
 * the `ApiKeyVerifier` the Binance hooks call on every keyed request (binance.auth.ts).
 *
 * Rules as Binance documents them (https://developers.binance.com/docs/binance-spot-api-docs/rest-api, "Request
 * Security", "SIGNED Endpoint security", "Timing security"; errors page):
 * - HMAC_SHA256: signature = hex HMAC-SHA256 of the payload (query string followed by the body, without
 *   `signature`) with the secret; case-insensitive, compared in constant time. ED25519: signature = base64 Ed25519
 *   signature of the same payload with the user's private key, checked with the uploaded public key.
 * - `timestamp` in ms (or µs, 16 digits); `recvWindow` default 5000 ms, up to three decimals, at most 60000 (else
 *   -1131). Accepted when `timestamp < serverTime + 1000 && serverTime - timestamp <= recvWindow`, serverTime from
 *   the server's clock (ctx.clock), else -1021.
 * - Unknown or deleted key, an IP outside the key's whitelist, a missing permission, a frozen account: -2015
 *   "Invalid API-key, IP, or permissions for action." A frozen account (engine profile `frozen` = '1', set by the
 *   console) is read from the engine on every request, so every key of the account stops at once.
 *
 * Performance: keys are cached in memory by their public string with the secret already opened (or the public key
 * parsed); a delete in this process drops the entry at once; another gateway of the scale-out mode re-reads its
 * copy after API_KEY_CACHE_MS (default 5 s), so a deleted key can work there that long (documented). Unknown keys
 * are cached for a second. `last_used_at` is written at most once a minute per key, after the answer's check,
 * without awaiting it.
 */
import crypto from 'node:crypto';
import net from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { MAX_API_KEYS_PER_USER, MAX_IP_WHITELIST, type ApiKeyType, type ApiKeyView, type CreateApiKeyBody, type CreatedApiKey } from '@exchange/api';
import type { Db } from '../../platform/db/client';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import { AppError } from '../../platform/shared/errors';
import type { SecretBox } from '../../platform/shared/secret-box';
import type { Actor } from '../../platform/shared/operator';
import type { RequestInfo, SecurityService } from '../security/security.service';
import { createApiKeysRepository, type ApiKeyRow } from './api-keys.repository';

/** What an API key may do. `withdraw` is off by default and needs an IP whitelist; the Binance withdraw route needs it (sapi.wallet.routes.ts). */
export type KeyPermission = 'read' | 'spotTrade' | 'futuresTrade' | 'withdraw';

/** The caller of a keyed route, once its key (and signature, where needed) passed. */
export interface ApiKeyCaller {
  userId: string;
  /** Our id of the key (not the public API key string). */
  keyId: string;
  permissions: readonly KeyPermission[];
}

/** Verifies API keys and signatures for the Binance routes and streams (implemented here; the Binance gateway words the refusals as Binance's error codes, binance.errors.ts). */
export interface ApiKeyVerifier {
  /**
   * The caller of a request carrying `apiKey`: the key exists, is not deleted, `ip` passes its whitelist, the account
   * is not frozen and the key has `permission`. Throws ApiKeyRefusal 'key_format' (malformed key) or
   * 'key_rejected' otherwise.
   */
  keyed(apiKey: string, ip: string, permission?: KeyPermission): Promise<ApiKeyCaller>;
  /**
   * As `keyed`, and also checks the signature of a SIGNED request: `payload` is exactly what was signed (Binance's
   * totalParams: the query string followed by the form body, without the `signature` parameter), `signature` hex
   * HMAC-SHA256 (or base64 Ed25519 for an Ed25519 key); `timestamp` and `recvWindow` (ms, default 5000, at most
   * 60000) against the server's clock. Throws ApiKeyRefusal 'timestamp_outside' (outside recvWindow),
   * 'signature_invalid', 'timestamp_missing' (missing or malformed), 'recv_window_malformed',
   * 'recv_window_too_large', 'key_format' or 'key_rejected'.
   */
  signed(input: {
    apiKey: string;
    ip: string;
    payload: string;
    signature: string;
    timestamp: string;
    recvWindow?: string;
    permission?: KeyPermission;
  }): Promise<ApiKeyCaller>;
}

/**
 * Why a keyed request was refused, in the API key domain's words; the Binance gateway answers each with Binance's
 * code and text (binance.errors.ts fromApiKeyRefusal: -2014, -2015, -1102, -1100, -1131, -1021, -1022).
 */
export type ApiKeyRefusalReason =
  'key_format' | 'key_rejected' | 'timestamp_missing' | 'recv_window_malformed' | 'recv_window_too_large' | 'timestamp_outside' | 'signature_invalid';

/** A keyed request refused by the verifier (`reason`); the request reaches no handler. */
export class ApiKeyRefusal extends Error {
  constructor(readonly reason: ApiKeyRefusalReason) {
    super(`API key refused: ${reason}`);
    this.name = 'ApiKeyRefusal';
  }
}

/** Length of the public key string and of an HMAC secret (Binance: 64 alphanumeric characters each). */
export const API_KEY_LENGTH = 64;
/** Binance's default and largest recvWindow (ms). */
export const DEFAULT_RECV_WINDOW_MS = 5000;
export const MAX_RECV_WINDOW_MS = 60_000;
/** How far ahead of the server's clock a timestamp may be (Binance: 1 second). */
export const MAX_AHEAD_MS = 1000;
/** `last_used_at` is written at most this often per key. */
export const LAST_USED_EVERY_MS = 60_000;
/** How long an unknown key string is remembered as unknown (a key created on another gateway shows up after this). */
const UNKNOWN_KEY_CACHE_MS = 1000;
/** Most key strings cached at once (the oldest entry goes first). */
const CACHE_MAX = 50_000;
/** Audit action of an operator's delete. */
export const AUDIT_API_KEY_DELETE = 'api_key_delete';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random string of `n` alphanumeric characters (node:crypto, uniform). */
export function randomAlnum(n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += ALNUM[crypto.randomInt(ALNUM.length)];
  return s;
}

/**
 * An IP address in canonical form ('::ffff:1.2.3.4' -> '1.2.3.4', IPv6 compressed lower case), or null when `s`
 * is not an IPv4 or IPv6 address.
 */
export function canonicalIp(s: string): string | null {
  let ip = s.trim();
  if (/^::ffff:[0-9.]+$/i.test(ip)) ip = ip.slice(7);
  const family = net.isIP(ip);
  if (family === 4) return ip;
  if (family === 6) return new net.SocketAddress({ address: ip, family: 'ipv6' }).address;
  return null;
}

/**
 * The whitelist typed by a user (addresses separated by commas, spaces or new lines), canonical and without
 * duplicates. Throws api_key_ip_invalid for a malformed address, api_key_ip_limit above MAX_IP_WHITELIST.
 */
export function parseIpWhitelist(text: string | undefined): string[] {
  const out: string[] = [];
  for (const part of (text ?? '').split(/[\s,]+/)) {
    if (part === '') continue;
    const ip = canonicalIp(part);
    if (ip === null) throw new AppError('api_key_ip_invalid', 400, 'ipWhitelist');
    if (!out.includes(ip)) out.push(ip);
  }
  if (out.length > MAX_IP_WHITELIST) throw new AppError('api_key_ip_limit', 400, 'ipWhitelist');
  return out;
}

/**
 * An Ed25519 public key from its PEM text ("-----BEGIN PUBLIC KEY-----", SPKI), re-exported canonically; throws
 * api_key_public_key_invalid for anything else (a private key, another algorithm, garbage).
 */
export function parseEd25519PublicKey(pem: string | undefined): string {
  const text = (pem ?? '').trim();
  if (!/^-----BEGIN PUBLIC KEY-----[\s\S]+-----END PUBLIC KEY-----$/.test(text)) throw new AppError('api_key_public_key_invalid', 400, 'publicKey');
  try {
    const key = crypto.createPublicKey({ key: text, format: 'pem' });
    if (key.asymmetricKeyType !== 'ed25519') throw new Error('not ed25519');
    return key.export({ type: 'spki', format: 'pem' }).toString();
  } catch {
    throw new AppError('api_key_public_key_invalid', 400, 'publicKey');
  }
}

/**
 * `timestamp` as µs since the epoch: digits only, in ms (a value below 1e14) or µs (from 1e14, Binance accepts both);
 * throws ApiKeyRefusal 'timestamp_missing' (Binance -1102) when missing or malformed (Binance: "Mandatory parameter 'timestamp' was not sent, was empty/null,
 * or malformed.").
 */
export function timestampMicros(timestamp: string): number {
  if (!/^[0-9]{1,16}$/.test(timestamp)) throw new ApiKeyRefusal('timestamp_missing');
  const v = Number(timestamp);
  return v < 1e14 ? v * 1000 : v;
}

/**
 * `recvWindow` in µs: default 5000 ms; a decimal of ms with up to three decimals, at most 60000 ms. Throws ApiKeyRefusal
 * 'recv_window_malformed' (Binance -1100) when malformed, 'recv_window_too_large' (-1131) above the maximum (Binance: "recvWindow must be less than 60000").
 */
export function recvWindowMicros(recvWindow: string | undefined): number {
  if (recvWindow === undefined || recvWindow === '') return DEFAULT_RECV_WINDOW_MS * 1000;
  const m = /^([0-9]{1,12})(?:\.([0-9]{1,3}))?$/.exec(recvWindow);
  if (!m) throw new ApiKeyRefusal('recv_window_malformed');
  const micros = Number(m[1]) * 1000 + Number((m[2] ?? '').padEnd(3, '0'));
  if (micros > MAX_RECV_WINDOW_MS * 1000) throw new ApiKeyRefusal('recv_window_too_large');
  return micros;
}

/**
 * Binance's timing rule (rest-api.md "Timing security"): the request is accepted when `timestamp < serverTime +
 * 1000 ms` and `serverTime - timestamp <= recvWindow`; throws ApiKeyRefusal 'timestamp_outside' (Binance -1021) otherwise. All values in µs.
 */
export function checkTiming(tsMicros: number, recvMicros: number, serverMs: number): void {
  const server = serverMs * 1000;
  if (!(tsMicros < server + MAX_AHEAD_MS * 1000 && server - tsMicros <= recvMicros)) throw new ApiKeyRefusal('timestamp_outside');
}

/** What the verifier keeps in memory of one key. */
interface CachedKey {
  id: bigint;
  userId: string;
  permissions: readonly KeyPermission[];
  /** HMAC_SHA256: the opened secret. */
  hmacSecret: Buffer | null;
  /** ED25519: the parsed public key. */
  publicKey: crypto.KeyObject | null;
  /** null = any address. */
  allow: net.BlockList | null;
  loadedAt: number;
}

/** A cache slot: a live key, or the knowledge that the string names no live key. */
type Slot = CachedKey | { missing: true; loadedAt: number };

/** Checks a signature of `payload` against a cached key; throws ApiKeyRefusal 'signature_invalid' (Binance -1022) when it does not verify. */
function checkSignature(key: CachedKey, payload: string, signature: string): void {
  if (key.hmacSecret !== null) {
    const sig = signature.toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(sig)) throw new ApiKeyRefusal('signature_invalid');
    const want = crypto.createHmac('sha256', key.hmacSecret).update(payload, 'utf8').digest();
    if (!crypto.timingSafeEqual(want, Buffer.from(sig, 'hex'))) throw new ApiKeyRefusal('signature_invalid');
    return;
  }
  if (key.publicKey === null || !/^[A-Za-z0-9+/]{86}==$/.test(signature)) throw new ApiKeyRefusal('signature_invalid');
  let ok = false;
  try {
    ok = crypto.verify(null, Buffer.from(payload, 'utf8'), key.publicKey, Buffer.from(signature, 'base64'));
  } catch {
    ok = false;
  }
  if (!ok) throw new ApiKeyRefusal('signature_invalid');
}

/** The permissions of a stored key ('read' always). */
function permissionsOf(row: ApiKeyRow): KeyPermission[] {
  const p: KeyPermission[] = ['read'];
  if (row.spotTrade) p.push('spotTrade');
  if (row.futuresTrade) p.push('futuresTrade');
  if (row.withdraw) p.push('withdraw');
  return p;
}

/** A key as its owner or an operator sees it (never the secret). */
/** An API key as an operator without `user_freeze` sees it: its first and last 4 characters ("vmPU…A3xq"). */
export function maskApiKey(apiKey: string): string {
  return apiKey.length <= 8 ? '…' : `${apiKey.slice(0, 4)}…${apiKey.slice(-4)}`;
}

export function toView(row: ApiKeyRow): ApiKeyView {
  return {
    id: row.id.toString(),
    label: row.label,
    apiKey: row.apiKey,
    keyType: row.keyType as ApiKeyType,
    read: true,
    spotTrade: row.spotTrade,
    futuresTrade: row.futuresTrade,
    withdraw: row.withdraw,
    ipWhitelist: row.ipWhitelist,
    createdAt: row.createdAt.getTime(),
    lastUsedAt: row.lastUsedAt === null ? null : row.lastUsedAt.getTime(),
  };
}

/** A form boolean (true / 'true'). */
function flag(v: boolean | 'true' | 'false' | undefined): boolean {
  return v === true || v === 'true';
}

/** Largest id a bigint column holds. */
const MAX_ID = 2n ** 63n - 1n;

/** A decimal id of the wire as a bigint, or null when it is not one (or beyond a bigint column). */
function idOf(s: string): bigint | null {
  if (!/^[1-9][0-9]{0,18}$/.test(s)) return null;
  const v = BigInt(s);
  return v <= MAX_ID ? v : null;
}

/** The API key operations (ctx.apiKeys): the verifier of the Binance routes plus the management of keys. */
export interface ApiKeyService extends ApiKeyVerifier {
  /**
   * Creates a key for `userId` after the second factor (security.verifySecondFactor). HMAC_SHA256: the answer
   * carries the generated secret (the only time it is shown); ED25519: `publicKey` must be an Ed25519 public key
   * (PEM). Throws api_key_limit (MAX_API_KEYS_PER_USER live keys), api_key_public_key_invalid, api_key_ip_invalid,
   * api_key_ip_limit, api_key_withdraw_needs_ip (withdraw without a whitelist, as Binance), api_key_hmac_unavailable
   * (no secret box), and the second factor's codes.
   */
  create(userId: string, input: CreateApiKeyBody, req: RequestInfo): Promise<CreatedApiKey>;
  /** The user's live keys, newest first. */
  list(userId: string): Promise<ApiKeyView[]>;
  /** Deletes one of the user's own live keys (it stops at once on this gateway); api_key_not_found otherwise. */
  remove(userId: string, id: string, req: RequestInfo): Promise<void>;
  /** The console: a user's live keys. */
  adminList(userId: string, opts?: { masked?: boolean }): Promise<ApiKeyView[]>;
  /** The console: deletes a key with its audit row (same transaction); api_key_not_found when there is no live key `id`. */
  adminRemove(actor: Actor, id: string, reason: string): Promise<void>;
}

/** Builds the API key service. `box` null: no secret box (scale-out without SECRETS_KEY), HMAC keys unavailable. */
export function createApiKeyService(deps: {
  db: Db;
  host: EnginePort;
  box: SecretBox | null;
  security: () => SecurityService;
  log: FastifyBaseLogger;
  /** The server's clock (Unix ms): signature timing, created/deleted/last-used times. */
  now: () => number;
  /** How long a cached key is trusted (ms): API_KEY_CACHE_MS. */
  cacheMs: number;
}): ApiKeyService {
  const { host, box, log, now, cacheMs } = deps;
  const repo = createApiKeysRepository(deps.db);
  const cache = new Map<string, Slot>();
  const loading = new Map<string, Promise<Slot>>();
  const lastTouched = new Map<bigint, number>();

  /** The cache entry of a stored row: the secret opened, the public key parsed, the whitelist as a BlockList. */
  function entryOf(row: ApiKeyRow, t: number): Slot {
    if (row.deletedAt !== null) return { missing: true, loadedAt: t };
    let hmacSecret: Buffer | null = null;
    let publicKey: crypto.KeyObject | null = null;
    try {
      if (row.keyType === 'HMAC_SHA256') {
        if (box === null || row.sealedSecret === null) return { missing: true, loadedAt: t };
        hmacSecret = Buffer.from(box.open(row.sealedSecret, `api-key-secret:${row.apiKey}`), 'utf8');
      } else {
        publicKey = crypto.createPublicKey({ key: row.publicKey ?? '', format: 'pem' });
      }
    } catch (err) {
      log.error({ err, keyId: row.id.toString() }, 'an API key cannot be opened (SECRETS_KEY or key file changed?)');
      return { missing: true, loadedAt: t };
    }
    let allow: net.BlockList | null = null;
    if (row.ipWhitelist.length > 0) {
      allow = new net.BlockList();
      for (const ip of row.ipWhitelist) allow.addAddress(ip, net.isIP(ip) === 6 ? 'ipv6' : 'ipv4');
    }
    return { id: row.id, userId: row.userId.toString(), permissions: permissionsOf(row), hmacSecret, publicKey, allow, loadedAt: t };
  }

  /** The cached slot of `apiKey`, loaded from the database when absent or older than its TTL. */
  async function slotOf(apiKey: string): Promise<Slot> {
    const t = Date.now();
    const hit = cache.get(apiKey);
    if (hit !== undefined && t - hit.loadedAt < ('missing' in hit ? Math.min(cacheMs, UNKNOWN_KEY_CACHE_MS) : cacheMs)) return hit;
    const pending = loading.get(apiKey);
    if (pending) return pending;
    const p = (async () => {
      const row = await repo.byApiKey(apiKey);
      const slot: Slot = row === null ? { missing: true, loadedAt: Date.now() } : entryOf(row, Date.now());
      if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
      cache.delete(apiKey);
      cache.set(apiKey, slot);
      return slot;
    })();
    loading.set(apiKey, p);
    try {
      return await p;
    } finally {
      loading.delete(apiKey);
    }
  }

  /** Writes the key's last use at most once a minute, without holding up the request. */
  function touch(key: CachedKey, t: number): void {
    const last = lastTouched.get(key.id);
    if (last !== undefined && t - last < LAST_USED_EVERY_MS) return;
    if (lastTouched.size >= CACHE_MAX) lastTouched.clear();
    lastTouched.set(key.id, t);
    repo.touch(key.id, new Date(t)).catch((err: unknown) => log.warn({ err }, 'could not stamp an API key as used'));
  }

  /** The key of `apiKey` when it exists, `ip` passes its whitelist and the account is not frozen; ApiKeyRefusal 'key_format' or 'key_rejected' (-2014/-2015) otherwise. */
  async function liveKey(apiKey: string, ip: string): Promise<CachedKey> {
    if (!/^[A-Za-z0-9]{1,128}$/.test(apiKey)) throw new ApiKeyRefusal('key_format');
    const slot = await slotOf(apiKey);
    if ('missing' in slot) throw new ApiKeyRefusal('key_rejected');
    if (slot.allow !== null) {
      const c = canonicalIp(ip);
      if (c === null || !slot.allow.check(c, net.isIP(c) === 6 ? 'ipv6' : 'ipv4')) throw new ApiKeyRefusal('key_rejected');
    }
    return slot;
  }

  /** The caller once the account is live (not frozen, known to the engine) and the key has `permission`. */
  function callerOf(key: CachedKey, permission: KeyPermission | undefined): ApiKeyCaller {
    const u = host.engine.user(key.userId);
    if (!u || u.profile.frozen === '1') throw new ApiKeyRefusal('key_rejected');
    if (permission !== undefined && !key.permissions.includes(permission)) throw new ApiKeyRefusal('key_rejected');
    touch(key, now());
    return { userId: key.userId, keyId: key.id.toString(), permissions: key.permissions };
  }

  function forget(apiKey: string): void {
    cache.delete(apiKey);
  }

  return {
    async keyed(apiKey, ip, permission) {
      return callerOf(await liveKey(apiKey, ip), permission);
    },

    async signed(input) {
      const key = await liveKey(input.apiKey, input.ip);
      const ts = timestampMicros(input.timestamp);
      const rw = recvWindowMicros(input.recvWindow);
      checkSignature(key, input.payload, input.signature);
      checkTiming(ts, rw, now());
      return callerOf(key, input.permission);
    },

    async create(userId, input, req) {
      const uid = idOf(userId);
      if (uid === null || !host.engine.user(userId)) throw new AppError('not_found', 404);
      const label = input.label.trim();
      if (label === '') throw new AppError('validation_failed', 400, 'label');
      const ipWhitelist = parseIpWhitelist(input.ipWhitelist);
      const withdraw = flag(input.withdraw);
      if (withdraw && ipWhitelist.length === 0) throw new AppError('api_key_withdraw_needs_ip', 400, 'withdraw');
      const hmac = input.keyType === 'HMAC_SHA256';
      const publicKey = hmac ? null : parseEd25519PublicKey(input.publicKey);
      if (hmac && box === null) throw new AppError('api_key_hmac_unavailable', 503, 'keyType');
      if ((await repo.listByUser(uid)).length >= MAX_API_KEYS_PER_USER) throw new AppError('api_key_limit', 400);
      await deps.security().verifySecondFactor(userId, { googleCode: input.googleCode, code: input.verifyCode });
      const apiKey = randomAlnum(API_KEY_LENGTH);
      const secret = hmac ? randomAlnum(API_KEY_LENGTH) : null;
      const row = await repo.insert(
        {
          userId: uid,
          label,
          keyType: input.keyType,
          apiKey,
          sealedSecret: secret === null ? null : box!.seal(secret, `api-key-secret:${apiKey}`),
          publicKey,
          spotTrade: flag(input.spotTrade),
          futuresTrade: flag(input.futuresTrade),
          withdraw,
          ipWhitelist,
          createdAt: new Date(now()),
        },
        MAX_API_KEYS_PER_USER,
      );
      if (row === null) throw new AppError('api_key_limit', 400);
      forget(apiKey);
      await deps.security().recordSecurityEvent(userId, 'API_KEY_CREATED', req, input.keyType);
      return { key: toView(row), secretKey: secret };
    },

    async list(userId) {
      const uid = idOf(userId);
      if (uid === null) return [];
      return (await repo.listByUser(uid)).map(toView);
    },

    async remove(userId, id, req) {
      const uid = idOf(userId);
      const kid = idOf(id);
      const row = uid === null || kid === null ? null : await repo.softDelete(uid, kid, new Date(now()));
      if (row === null) throw new AppError('api_key_not_found', 404, 'id');
      forget(row.apiKey);
      await deps.security().recordSecurityEvent(userId, 'API_KEY_DELETED', req, row.keyType);
    },

    async adminList(userId, opts = {}) {
      const uid = idOf(userId);
      if (uid === null || !host.engine.user(userId)) throw new AppError('not_found', 404, 'userId');
      const views = (await repo.listByUser(uid)).map(toView);
      return opts.masked === true ? views.map((v) => ({ ...v, apiKey: maskApiKey(v.apiKey) })) : views;
    },

    async adminRemove(actor, id, reason) {
      const kid = idOf(id);
      const at = new Date(now());
      const row =
        kid === null
          ? null
          : await repo.adminDelete(kid, at, (r) => ({
              operatorId: actor.id,
              operatorEmail: actor.email,
              action: AUDIT_API_KEY_DELETE,
              targetUserId: r.userId,
              before: { id: r.id.toString(), label: r.label, apiKey: r.apiKey, keyType: r.keyType },
              after: { deleted: true, reason },
              at,
              ip: actor.ip.slice(0, 64),
              userAgent: actor.userAgent.slice(0, 256),
            }));
      if (row === null) throw new AppError('api_key_not_found', 404, 'id');
      forget(row.apiKey);
      await deps.security().recordSecurityEvent(row.userId.toString(), 'API_KEY_DELETED', { ip: '', userAgent: '' }, 'OPERATOR');
    },
  };
}
