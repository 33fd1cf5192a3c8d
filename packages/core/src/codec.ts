/**
 * Lossless encodings of commands for the journal (and for any transport of commands).
 *
 * Text (`serializeCommand` / `parseCommand`): JSON in which every bigint is written as {"$n":"<decimal>"}
 * (commands contain no free-form objects with a `$n` key, so the marker cannot collide). The journal's first
 * format; every record of an older data directory is one of these.
 *
 * Binary (`encodeCommand` / `decodeCommand`): a compact record per command, about a third of the JSON's size
 * and several times faster to decode (recovery replays a million of them). Layout, byte by byte:
 *
 *   [0x01 format v1][u8 command kind (KIND_IDS)][fields of the kind, in SCHEMAS order][ts]
 *
 * An object (the command, or a nested asset / market) with optional fields starts with one byte: bit i set =
 * its i-th optional field is present. Field encodings:
 * - string: varuint byte length + the string as WTF-8 (UTF-8, lone surrogates kept, so any JS string round-trips);
 * - int: an integer of at most 2^52 in magnitude, zigzag varuint (scales, decimals, fee ppm; never money);
 * - ts: a non-negative safe integer, varuint;
 * - bigint: varuint (byte length * 2 + sign) + the magnitude's bytes, little-endian (any size up to 1016 bits);
 * - enum: one byte, the index of the value in its list (lists only ever grow at the end);
 * - string list: varuint count + strings; string map: varuint count + (key, value) strings, in the map's order.
 *
 * A command the schema does not describe exactly (a kind or value it does not know, an extra property, a value
 * out of range) is encoded as its JSON text instead, so `decodeCommand(encodeCommand(c))` equals `c` for every
 * command. `decodeCommand` tells the two apart by the first byte: JSON text starts with `{` (0x7b), a binary record
 * with 0x01. The kind ids and enum lists are part of the on-disk format: append, never renumber.
 */
import type { Command } from './types';

// ---- text -----------------------------------------------------------------------------------------------------

function replacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? { $n: value.toString() } : value;
}

const BIGINT_RE = /^-?(0|[1-9][0-9]*)$/;

/**
 * Replaces every {"$n": "<decimal>"} inside `o` with its bigint, in place. A walk after a plain JSON.parse:
 * a JSON.parse reviver is called back for every key of every record and made recovery parse-bound.
 */
function reviveBigints(o: Record<string, unknown> | unknown[]): void {
  const rec = o as Record<string, unknown>;
  for (const k in o) {
    const v = rec[k];
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      // e.g. a perpetual market's leverage brackets: objects with bigints inside an array
      reviveBigints(v);
      continue;
    }
    const inner = v as Record<string, unknown>;
    const n = inner.$n;
    if (typeof n === 'string' && Object.keys(inner).length === 1) {
      if (!BIGINT_RE.test(n)) throw new SyntaxError(`parseCommand: bad bigint ${n}`);
      rec[k] = BigInt(n);
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

// ---- binary: schema -------------------------------------------------------------------------------------------

/** First byte of a binary v1 record. */
export const BINARY_COMMAND_V1 = 0x01;
/** First byte of a JSON text record (`{`). */
const JSON_OPEN = 0x7b;

const T_STR = 0;
const T_INT = 1;
const T_BIG = 2;
const T_ENUM = 3;
const T_STRS = 4;
const T_DICT = 5;
const T_OBJ = 6;

interface Field {
  name: string;
  t: number;
  optional: boolean;
  /** T_ENUM: the values, index = code. */
  values?: readonly string[];
  /** T_OBJ: the nested object's schema. */
  schema?: Schema;
}

interface Schema {
  fields: Field[];
  /** Field names, for the exact-keys check. */
  names: Set<string>;
  /** Number of optional fields (at most 8: one presence byte). */
  optionals: number;
}

const f = (name: string, t: number, extra: Partial<Field> = {}): Field => ({ name, t, optional: false, ...extra });
const opt = (field: Field): Field => ({ ...field, optional: true });
const en = (name: string, values: readonly string[]): Field => f(name, T_ENUM, { values });

function schema(fields: Field[]): Schema {
  const optionals = fields.filter((x) => x.optional).length;
  if (optionals > 8) throw new Error('codec: at most 8 optional fields per object');
  return { fields, names: new Set(fields.map((x) => x.name)), optionals };
}

const SIDES = ['BUY', 'SELL'] as const;
const ORDER_TYPES = ['LIMIT', 'MARKET'] as const;
const TIME_IN_FORCE = ['GTC', 'IOC', 'FOK', 'POST_ONLY'] as const;
const STP_MODES = ['EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH', 'NONE'] as const;
const ACCOUNTS = ['ASSETS', 'SPOT', 'CONTRACT', 'OTC'] as const;
const SYSTEM_ACCOUNTS = ['@faucet', '@chain', '@fee', '@insurance'] as const;
const MARKET_STATUSES = ['TRADING', 'HALTED'] as const;

const ASSET = schema([f('code', T_STR), f('scale', T_INT)]);
const MARKET = schema([
  f('symbol', T_STR),
  f('base', T_STR),
  f('quote', T_STR),
  f('priceDecimals', T_INT),
  f('qtyDecimals', T_INT),
  f('tickSize', T_BIG),
  f('stepSize', T_BIG),
  f('minQty', T_BIG),
  f('minNotional', T_BIG),
  f('makerFeePpm', T_INT),
  f('takerFeePpm', T_INT),
  en('status', MARKET_STATUSES),
]);

/** Command kind -> id byte. Part of the on-disk format: append, never renumber. */
const KIND_IDS: ReadonlyMap<string, number> = new Map(
  Object.entries({
    genesis: 1,
    registerUser: 2,
    updateUser: 3,
    addAsset: 4,
    addMarket: 5,
    setMarketStatus: 6,
    deposit: 7,
    transfer: 8,
    placeOrder: 9,
    cancelOrder: 10,
  }),
);

/** The fields of each command kind after `type` (and before `ts`), in encoding order. */
const SCHEMAS: Record<string, Schema> = {
  genesis: schema([f('journalId', T_STR)]),
  registerUser: schema([f('account', T_STR), f('uniqueKeys', T_STRS), f('profile', T_DICT)]),
  // addKeys and audit were appended after expect: records written before them decode unchanged.
  updateUser: schema([f('userId', T_STR), f('profile', T_DICT), opt(f('expect', T_DICT)), opt(f('addKeys', T_STRS)), opt(f('audit', T_DICT))]),
  addAsset: schema([f('asset', T_OBJ, { schema: ASSET })]),
  addMarket: schema([f('market', T_OBJ, { schema: MARKET })]),
  setMarketStatus: schema([f('symbol', T_STR), en('status', MARKET_STATUSES)]),
  deposit: schema([f('userId', T_STR), f('asset', T_STR), en('account', ACCOUNTS), f('amount', T_BIG), en('from', SYSTEM_ACCOUNTS), opt(f('ref', T_STR))]),
  transfer: schema([f('userId', T_STR), f('asset', T_STR), en('from', ACCOUNTS), en('to', ACCOUNTS), f('amount', T_BIG), opt(f('clientId', T_STR))]),
  placeOrder: schema([
    f('userId', T_STR),
    f('symbol', T_STR),
    en('side', SIDES),
    en('orderType', ORDER_TYPES),
    en('timeInForce', TIME_IN_FORCE),
    opt(f('price', T_BIG)),
    opt(f('quantity', T_BIG)),
    opt(f('quoteAmount', T_BIG)),
    opt(f('clientOrderId', T_STR)),
    opt(en('stp', STP_MODES)),
  ]),
  cancelOrder: schema([f('userId', T_STR), opt(f('orderId', T_STR)), opt(f('clientOrderId', T_STR))]),
};

/** id byte -> [type, schema]. */
const BY_ID: Array<[string, Schema] | undefined> = [];
for (const [type, id] of KIND_IDS) BY_ID[id] = [type, SCHEMAS[type]!];

const MAX_SAFE = 2 ** 53 - 1;
/** Longest bigint magnitude in bytes (the header varuint stays within 2 bytes' worth of reach). */
const MAX_BIG_BYTES = 127;

function isSafeInt(v: unknown): v is number {
  return typeof v === 'number' && Math.floor(v) === v && Math.abs(v) <= MAX_SAFE;
}

// ---- binary: encoding -----------------------------------------------------------------------------------------

/** Thrown inside the encoder when the schema does not describe the command: it is then written as JSON. */
class NotDescribed extends Error {}
const NOT_DESCRIBED = new NotDescribed('not described by the binary schema');

/** Output buffer, reused between calls; `encodeCommand` returns a copy of the written part. */
let out = new Uint8Array(1024);
let w = 0;

function ensure(n: number): void {
  if (w + n <= out.length) return;
  const bigger = new Uint8Array(Math.max(out.length * 2, w + n));
  bigger.set(out.subarray(0, w));
  out = bigger;
}

/** Unsigned varint of a non-negative safe integer (7 bits a byte, low first). */
function putVaruint(v: number): void {
  ensure(8);
  while (v >= 0x80) {
    out[w++] = (v % 0x80) | 0x80;
    v = Math.floor(v / 0x80);
  }
  out[w++] = v;
}

/** Largest magnitude of an int field: its zigzag form (2|v| or 2|v| - 1) stays an exact safe integer. */
const MAX_INT_MAGNITUDE = 2 ** 52;

function putInt(v: unknown): void {
  if (!isSafeInt(v) || Math.abs(v) > MAX_INT_MAGNITUDE) throw NOT_DESCRIBED;
  putVaruint(v >= 0 ? v * 2 : -v * 2 - 1);
}

const HEX: Record<string, number> = {};
for (let i = 0; i < 16; i++) HEX[i.toString(16)] = i;

function putBig(v: unknown): void {
  if (typeof v !== 'bigint') throw NOT_DESCRIBED;
  const neg = v < 0n;
  let hex = (neg ? -v : v).toString(16);
  if (hex === '0') hex = '';
  if (hex.length % 2 === 1) hex = `0${hex}`;
  const len = hex.length / 2;
  if (len > MAX_BIG_BYTES) throw NOT_DESCRIBED;
  putVaruint(len * 2 + (neg ? 1 : 0));
  ensure(len);
  // Little-endian: the last hex pair is the lowest byte.
  for (let i = 0; i < len; i++) {
    const at = hex.length - 2 * (i + 1);
    out[w++] = HEX[hex[at]!]! * 16 + HEX[hex[at + 1]!]!;
  }
}

/** True when every code unit of `s` is ASCII (one byte each in UTF-8). */
function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return false;
  return true;
}

/** `s` as WTF-8: UTF-8 of its code points, a lone surrogate as the 3-byte form of its code unit. */
function wtf8Bytes(s: string): number[] {
  const bytes: number[] = [];
  const n = s.length;
  for (let i = 0; i < n; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + (c - 0xd800) * 0x400 + (d - 0xdc00);
        i++;
      }
    }
    if (c < 0x80) bytes.push(c);
    else if (c < 0x800) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    else if (c < 0x10000) bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
    else bytes.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 0x3f), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
  }
  return bytes;
}

/** Writes `s` without a length prefix. */
function putRaw(s: string): void {
  if (isAscii(s)) {
    ensure(s.length);
    for (let i = 0; i < s.length; i++) out[w++] = s.charCodeAt(i);
    return;
  }
  const bytes = wtf8Bytes(s);
  ensure(bytes.length);
  for (const b of bytes) out[w++] = b;
}

/** A string field: varuint byte length + WTF-8 bytes. */
function putStr(s: unknown): void {
  if (typeof s !== 'string') throw NOT_DESCRIBED;
  if (isAscii(s)) {
    putVaruint(s.length);
  } else {
    putVaruint(wtf8Bytes(s).length);
  }
  putRaw(s);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

function putDict(v: unknown): void {
  if (!isPlainObject(v)) throw NOT_DESCRIBED;
  const keys = Object.keys(v);
  putVaruint(keys.length);
  for (const k of keys) {
    putStr(k);
    putStr(v[k]);
  }
}

/** Writes `o`'s fields as `s` describes them; `skip` = keys handled by the caller (type, ts). */
function putObject(o: unknown, s: Schema, skip?: ReadonlySet<string>): void {
  if (!isPlainObject(o)) throw NOT_DESCRIBED;
  for (const k of Object.keys(o)) {
    if (!s.names.has(k) && !skip?.has(k) && o[k] !== undefined) throw NOT_DESCRIBED;
  }
  if (s.optionals > 0) {
    let mask = 0;
    let bit = 1;
    for (const fd of s.fields) {
      if (!fd.optional) continue;
      if (o[fd.name] !== undefined) mask |= bit;
      bit <<= 1;
    }
    ensure(1);
    out[w++] = mask;
  }
  for (const fd of s.fields) {
    const v = o[fd.name];
    if (v === undefined) {
      if (fd.optional) continue;
      throw NOT_DESCRIBED;
    }
    switch (fd.t) {
      case T_STR:
        putStr(v);
        break;
      case T_INT:
        putInt(v);
        break;
      case T_BIG:
        putBig(v);
        break;
      case T_ENUM: {
        const i = typeof v === 'string' ? fd.values!.indexOf(v) : -1;
        if (i < 0) throw NOT_DESCRIBED;
        ensure(1);
        out[w++] = i;
        break;
      }
      case T_STRS: {
        if (!Array.isArray(v)) throw NOT_DESCRIBED;
        putVaruint(v.length);
        for (let i = 0; i < v.length; i++) {
          if (!(i in v)) throw NOT_DESCRIBED;
          putStr(v[i]);
        }
        break;
      }
      case T_DICT:
        putDict(v);
        break;
      case T_OBJ:
        putObject(v, fd.schema!);
        break;
    }
  }
}

const COMMAND_KEYS: ReadonlySet<string> = new Set(['type', 'ts']);

/** Bytes of `s` as UTF-8 (JSON text from JSON.stringify is well-formed: no lone surrogates). */
function utf8(s: string): Uint8Array {
  w = 0;
  putRaw(s);
  return out.slice(0, w);
}

/**
 * One command as a journal record body: the binary v1 layout (module comment) when the schema describes the
 * command exactly, else its JSON text (`serializeCommand`) as UTF-8. `decodeCommand` reverses either. Never throws
 * for a command (a value JSON cannot carry fails as serializeCommand does).
 */
export function encodeCommand(cmd: Command): Uint8Array {
  const c = cmd as unknown as Record<string, unknown>;
  const type = c.type;
  const id = typeof type === 'string' ? KIND_IDS.get(type) : undefined;
  if (id !== undefined && isPlainObject(c) && isSafeInt(c.ts) && c.ts >= 0) {
    w = 0;
    try {
      ensure(2);
      out[w++] = BINARY_COMMAND_V1;
      out[w++] = id;
      putObject(c, SCHEMAS[type as string]!, COMMAND_KEYS);
      putVaruint(c.ts as number);
      return out.slice(0, w);
    } catch (err) {
      if (err !== NOT_DESCRIBED) throw err;
    }
  }
  return utf8(serializeCommand(cmd));
}

// ---- binary: decoding -----------------------------------------------------------------------------------------

let buf: Uint8Array = out;
let r = 0;
let end = 0;

function bad(what: string): never {
  throw new SyntaxError(`decodeCommand: ${what} at byte ${r}`);
}

function getVaruint(): number {
  let v = 0;
  let mul = 1;
  for (let i = 0; i < 8; i++) {
    if (r >= end) bad('truncated varint');
    const b = buf[r++]!;
    v += (b & 0x7f) * mul;
    if (b < 0x80) {
      if (v > MAX_SAFE) bad('varint out of range');
      return v;
    }
    mul *= 0x80;
  }
  return bad('varint too long');
}

function getInt(): number {
  const z = getVaruint();
  return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
}

function getBig(): bigint {
  const h = getVaruint();
  const len = Math.floor(h / 2);
  if (len > MAX_BIG_BYTES || r + len > end) bad('bad bigint length');
  let v: bigint;
  if (len <= 6) {
    let n = 0;
    for (let i = len - 1; i >= 0; i--) n = n * 256 + buf[r + i]!;
    v = BigInt(n);
  } else {
    let hex = '0x';
    for (let i = len - 1; i >= 0; i--) hex += (buf[r + i]! + 0x100).toString(16).slice(1);
    v = BigInt(hex);
  }
  r += len;
  return h % 2 === 1 ? -v : v;
}

/**
 * Short ASCII strings are looked up in a cache keyed by their bytes, so the user ids, symbols and assets that
 * repeat in every record are one string each instead of a fresh allocation per record.
 */
const CACHE_SIZE = 4096;
const CACHE_MAX_LEN = 32;
const strCache: Array<string | undefined> = new Array<string | undefined>(CACHE_SIZE).fill(undefined);

const fc = String.fromCharCode;

/** The ASCII bytes buf[p, p + len) as a string, allocated once (up to 16 characters: one call, no concatenation). */
function asciiString(p: number, len: number): string {
  const b = buf;
  switch (len) {
    case 0:
      return '';
    case 1:
      return fc(b[p]!);
    case 2:
      return fc(b[p]!, b[p + 1]!);
    case 3:
      return fc(b[p]!, b[p + 1]!, b[p + 2]!);
    case 4:
      return fc(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!);
    case 5:
      return fc(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!, b[p + 4]!);
    case 6:
      return fc(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!, b[p + 4]!, b[p + 5]!);
    case 7:
      return fc(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!, b[p + 4]!, b[p + 5]!, b[p + 6]!);
    case 8:
      return fc(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!, b[p + 4]!, b[p + 5]!, b[p + 6]!, b[p + 7]!);
    case 9:
      return fc(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!, b[p + 4]!, b[p + 5]!, b[p + 6]!, b[p + 7]!, b[p + 8]!);
    case 10:
      return fc(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!, b[p + 4]!, b[p + 5]!, b[p + 6]!, b[p + 7]!, b[p + 8]!, b[p + 9]!);
    case 11:
      return fc(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!, b[p + 4]!, b[p + 5]!, b[p + 6]!, b[p + 7]!, b[p + 8]!, b[p + 9]!, b[p + 10]!);
    case 12:
      return fc(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!, b[p + 4]!, b[p + 5]!, b[p + 6]!, b[p + 7]!, b[p + 8]!, b[p + 9]!, b[p + 10]!, b[p + 11]!);
    case 13:
      return fc(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!, b[p + 4]!, b[p + 5]!, b[p + 6]!, b[p + 7]!, b[p + 8]!, b[p + 9]!, b[p + 10]!, b[p + 11]!, b[p + 12]!);
    case 14:
      return fc(
        b[p]!,
        b[p + 1]!,
        b[p + 2]!,
        b[p + 3]!,
        b[p + 4]!,
        b[p + 5]!,
        b[p + 6]!,
        b[p + 7]!,
        b[p + 8]!,
        b[p + 9]!,
        b[p + 10]!,
        b[p + 11]!,
        b[p + 12]!,
        b[p + 13]!,
      );
    case 15:
      return fc(
        b[p]!,
        b[p + 1]!,
        b[p + 2]!,
        b[p + 3]!,
        b[p + 4]!,
        b[p + 5]!,
        b[p + 6]!,
        b[p + 7]!,
        b[p + 8]!,
        b[p + 9]!,
        b[p + 10]!,
        b[p + 11]!,
        b[p + 12]!,
        b[p + 13]!,
        b[p + 14]!,
      );
    case 16:
      return fc(
        b[p]!,
        b[p + 1]!,
        b[p + 2]!,
        b[p + 3]!,
        b[p + 4]!,
        b[p + 5]!,
        b[p + 6]!,
        b[p + 7]!,
        b[p + 8]!,
        b[p + 9]!,
        b[p + 10]!,
        b[p + 11]!,
        b[p + 12]!,
        b[p + 13]!,
        b[p + 14]!,
        b[p + 15]!,
      );
    default: {
      let s = '';
      for (let i = p; i < p + len; i++) s += fc(b[i]!);
      return s;
    }
  }
}

function getStr(): string {
  const len = getVaruint();
  if (r + len > end) bad('string runs past the end');
  const start = r;
  if (len <= CACHE_MAX_LEN) {
    let h = len;
    let ascii = 0;
    for (let i = start; i < start + len; i++) {
      const b = buf[i]!;
      ascii |= b;
      h = Math.imul(h ^ b, 0x01000193);
    }
    if (ascii < 0x80) {
      const slot = (h >>> 0) % CACHE_SIZE;
      const hit = strCache[slot];
      if (hit !== undefined && hit.length === len) {
        let same = true;
        for (let i = 0; i < len; i++) {
          if (hit.charCodeAt(i) !== buf[start + i]) {
            same = false;
            break;
          }
        }
        if (same) {
          r += len;
          return hit;
        }
      }
      const s = asciiString(start, len);
      strCache[slot] = s;
      r += len;
      return s;
    }
  }
  r = start + len;
  return utf8Decode(buf, start, start + len);
}

/** The WTF-8 bytes `bytes[from, to)` as a string; throws SyntaxError on a malformed sequence. */
function utf8Decode(bytes: Uint8Array, from: number, to: number): string {
  const units: number[] = [];
  let i = from;
  while (i < to) {
    const b = bytes[i]!;
    let c: number;
    let extra: number;
    if (b < 0x80) {
      c = b;
      extra = 0;
    } else if (b >= 0xc0 && b < 0xe0) {
      c = b & 0x1f;
      extra = 1;
    } else if (b >= 0xe0 && b < 0xf0) {
      c = b & 0x0f;
      extra = 2;
    } else if (b >= 0xf0 && b < 0xf8) {
      c = b & 0x07;
      extra = 3;
    } else {
      throw new SyntaxError(`decodeCommand: bad UTF-8 lead byte at ${i}`);
    }
    if (i + extra >= to && extra > 0) throw new SyntaxError(`decodeCommand: truncated UTF-8 sequence at ${i}`);
    for (let k = 1; k <= extra; k++) {
      const cb = bytes[i + k]!;
      if ((cb & 0xc0) !== 0x80) throw new SyntaxError(`decodeCommand: bad UTF-8 continuation byte at ${i + k}`);
      c = c * 64 + (cb & 0x3f);
    }
    i += extra + 1;
    if (c >= 0x10000) {
      c -= 0x10000;
      units.push(0xd800 + (c >> 10), 0xdc00 + (c & 0x3ff));
    } else {
      units.push(c);
    }
  }
  let s = '';
  for (let k = 0; k < units.length; k += 4096) s += String.fromCharCode(...units.slice(k, k + 4096));
  return s;
}

function getDict(): Record<string, string> {
  const n = getVaruint();
  const o: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    const k = getStr();
    const v = getStr();
    if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
    else o[k] = v;
  }
  return o;
}

function getObject(s: Schema, o: Record<string, unknown>): Record<string, unknown> {
  let mask = 0xff;
  if (s.optionals > 0) {
    if (r >= end) bad('truncated');
    mask = buf[r++]!;
    if (mask >> s.optionals !== 0) bad('unknown optional field');
  }
  let bit = 1;
  for (const fd of s.fields) {
    if (fd.optional) {
      const present = (mask & bit) !== 0;
      bit <<= 1;
      if (!present) continue;
    }
    let v: unknown;
    switch (fd.t) {
      case T_STR:
        v = getStr();
        break;
      case T_INT:
        v = getInt();
        break;
      case T_BIG:
        v = getBig();
        break;
      case T_ENUM: {
        if (r >= end) bad('truncated');
        const i = buf[r++]!;
        v = fd.values![i];
        if (v === undefined) bad(`unknown ${fd.name} code ${i}`);
        break;
      }
      case T_STRS: {
        const n = getVaruint();
        if (n > end - r) bad('list runs past the end');
        const a: string[] = [];
        for (let i = 0; i < n; i++) a.push(getStr());
        v = a;
        break;
      }
      case T_DICT:
        v = getDict();
        break;
      case T_OBJ:
        v = getObject(fd.schema!, {});
        break;
    }
    o[fd.name] = v;
  }
  return o;
}

function getMask(optionals: number): number {
  if (r >= end) bad('truncated');
  const mask = buf[r++]!;
  if (mask >> optionals !== 0) bad('unknown optional field');
  return mask;
}

function getEnum(values: readonly string[], name: string): string {
  if (r >= end) bad('truncated');
  const v = values[buf[r++]!];
  if (v === undefined) bad(`unknown ${name} code ${buf[r - 1]}`);
  return v;
}

/*
 * The two kinds that make up almost every record, decoded by hand: the same result as getObject with their
 * schema (the property test checks both against each other), built as one object literal instead of a loop of
 * keyed stores, which made decoding twice as slow.
 */

function getPlaceOrder(): Record<string, unknown> {
  const mask = getMask(5);
  const o: Record<string, unknown> = {
    type: 'placeOrder',
    userId: getStr(),
    symbol: getStr(),
    side: getEnum(SIDES, 'side'),
    orderType: getEnum(ORDER_TYPES, 'orderType'),
    timeInForce: getEnum(TIME_IN_FORCE, 'timeInForce'),
  };
  if ((mask & 1) !== 0) o.price = getBig();
  if ((mask & 2) !== 0) o.quantity = getBig();
  if ((mask & 4) !== 0) o.quoteAmount = getBig();
  if ((mask & 8) !== 0) o.clientOrderId = getStr();
  if ((mask & 16) !== 0) o.stp = getEnum(STP_MODES, 'stp');
  return o;
}

function getCancelOrder(): Record<string, unknown> {
  const mask = getMask(2);
  const o: Record<string, unknown> = { type: 'cancelOrder', userId: getStr() };
  if ((mask & 1) !== 0) o.orderId = getStr();
  if ((mask & 2) !== 0) o.clientOrderId = getStr();
  return o;
}

const PLACE_ORDER_ID = KIND_IDS.get('placeOrder')!;
const CANCEL_ORDER_ID = KIND_IDS.get('cancelOrder')!;

/** Decodes the fields of the kind with id `id` (after the kind byte), by hand for the hot kinds; `generic` forces the schema walk. */
function getCommandFields(id: number, generic: boolean): Record<string, unknown> {
  if (!generic && id === PLACE_ORDER_ID) return getPlaceOrder();
  if (!generic && id === CANCEL_ORDER_ID) return getCancelOrder();
  const kind = BY_ID[id];
  if (kind === undefined) bad(`unknown command kind ${id}`);
  return getObject(kind[1], { type: kind[0] });
}

/**
 * Inverse of `encodeCommand`: the command in `bytes[from, to)` (default: all of `bytes`), binary v1 or JSON text
 * (a record of a journal written before the binary format). Throws SyntaxError when the bytes are neither (an
 * unknown format byte or kind, a truncated record, bytes left over), as parseCommand does for bad text.
 */
export function decodeCommand(bytes: Uint8Array, from = 0, to = bytes.length): Command {
  return decode(bytes, from, to, false);
}

/** `decodeCommand` through the schema walk only (no hand-written decoders): for tests that compare the two. */
export function decodeCommandGeneric(bytes: Uint8Array): Command {
  return decode(bytes, 0, bytes.length, true);
}

function decode(bytes: Uint8Array, from: number, to: number, generic: boolean): Command {
  if (to <= from) throw new SyntaxError('decodeCommand: empty record');
  const first = bytes[from]!;
  if (first === JSON_OPEN) return parseCommand(utf8Decode(bytes, from, to));
  if (first !== BINARY_COMMAND_V1) throw new SyntaxError(`decodeCommand: unknown record format 0x${first.toString(16)}`);
  buf = bytes;
  r = from + 1;
  end = to;
  if (r >= end) bad('truncated');
  const o = getCommandFields(buf[r++]!, generic);
  o.ts = getVaruint();
  if (r !== end) bad(`${end - r} bytes left over`);
  return o as unknown as Command;
}
