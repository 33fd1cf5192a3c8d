/**
 * The journal's command encodings (codec.ts). Proves, on random commands of every kind with fast-check:
 * - decodeCommand(encodeCommand(c)) is c exactly (toStrictEqual), bigints at their extremes, any JS string
 *   (lone surrogates included), every optional field present or absent;
 * - a command the binary schema describes is written as binary (first byte 0x01), one it does not (an extra
 *   property, a bigint over 1016 bits, an int field over 2^52, a fractional ts, an unknown kind) as JSON text, and
 *   both decode;
 * - the hand-written decoders of the hot kinds give what the schema walk gives;
 * - a record of an older journal (serializeCommand's JSON as UTF-8) decodes to the same command;
 * - no strict prefix of a binary record, and no record with a byte added, decodes: it throws SyntaxError.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BINARY_COMMAND_V1, decodeCommand, decodeCommandGeneric, encodeCommand, serializeCommand } from '../src/codec';
import type { Command } from '../src/types';

// The core's tsconfig has no Node types (src must not use them); the test reads its env and Buffer this way.
const { process, Buffer } = globalThis as unknown as {
  process: { env: Record<string, string | undefined> };
  Buffer: { from(text: string, encoding: 'utf8'): Uint8Array };
};
/** fast-check runs per property: 300 (`npm test` and CI), 2000 with FULL_PROPERTY_TESTS (`npm run test:property-long`). */
const RUNS = process.env.FULL_PROPERTY_TESTS !== undefined ? 2000 : 300;

/** Any JS string: ASCII, BMP, astral, and lone surrogates. */
const anyString = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.constantFrom('', '__proto__', 'constructor', 'toString', '\ud800', '\udfff', 'a\ud83d', '\u{1F600}', 'x'.repeat(40), 'é'.repeat(70)),
);
/** Bigints at the edges of every encoding length, including the largest binary one (127 bytes). */
const BIG_EDGES = [
  0n,
  -0n,
  1n,
  -1n,
  255n,
  256n,
  2n ** 48n - 1n,
  2n ** 48n,
  2n ** 53n,
  2n ** 63n - 1n,
  -(2n ** 63n),
  2n ** 64n,
  10n ** 28n,
  2n ** 1016n - 1n,
  -(2n ** 1016n - 1n),
];
const anyBig = fc.oneof(fc.bigInt(), fc.bigInt(-(2n ** 1016n - 1n), 2n ** 1016n - 1n), fc.constantFrom(...BIG_EDGES));
const safeInt = fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.constantFrom(0, 2 ** 53 - 1, -(2 ** 53 - 1), 1_795_447_318_817));
const ts = fc.oneof(fc.nat(), fc.constantFrom(0, 2 ** 53 - 1, 1_795_447_318_817));
const dict = fc.dictionary(anyString, anyString, { maxKeys: 4, noNullPrototype: true });

const SIDES = ['BUY', 'SELL'] as const;
const ACCOUNTS = ['ASSETS', 'SPOT', 'CONTRACT', 'OTC'] as const;

/** fc.record of plain objects (commands are never null-prototype objects; decoding gives plain ones). */
function rec<T extends Record<string, fc.Arbitrary<unknown>>>(model: T) {
  return fc.record(model, { noNullPrototype: true });
}

/** `record` with each optional key either absent or set. */
function withOptional(required: Record<string, fc.Arbitrary<unknown>>, optional: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  return fc.record({ ...required, ...optional }, { requiredKeys: Object.keys(required), noNullPrototype: true });
}

const market = rec({
  symbol: anyString,
  base: anyString,
  quote: anyString,
  priceDecimals: safeInt,
  qtyDecimals: safeInt,
  tickSize: anyBig,
  stepSize: anyBig,
  minQty: anyBig,
  minNotional: anyBig,
  makerFeePpm: safeInt,
  takerFeePpm: safeInt,
  status: fc.constantFrom('TRADING', 'HALTED'),
});

/** A command of every kind, each field over its whole domain. */
const anyCommand: fc.Arbitrary<Command> = fc.oneof(
  rec({ type: fc.constant('genesis'), ts, journalId: anyString }),
  rec({ type: fc.constant('registerUser'), ts, account: anyString, uniqueKeys: fc.array(anyString, { maxLength: 4 }), profile: dict }),
  withOptional(
    { type: fc.constant('updateUser'), ts, userId: anyString, profile: dict },
    { expect: dict, addKeys: fc.array(anyString, { maxLength: 4 }), audit: dict },
  ),
  rec({ type: fc.constant('addAsset'), ts, asset: rec({ code: anyString, scale: safeInt }) }),
  rec({ type: fc.constant('addMarket'), ts, market }),
  rec({ type: fc.constant('setMarketStatus'), ts, symbol: anyString, status: fc.constantFrom('TRADING', 'HALTED') }),
  withOptional(
    {
      type: fc.constant('deposit'),
      ts,
      userId: anyString,
      asset: anyString,
      account: fc.constantFrom(...ACCOUNTS),
      amount: anyBig,
      from: fc.constantFrom('@faucet', '@chain', '@fee', '@insurance'),
    },
    { ref: anyString },
  ),
  withOptional(
    {
      type: fc.constant('transfer'),
      ts,
      userId: anyString,
      asset: anyString,
      from: fc.constantFrom(...ACCOUNTS),
      to: fc.constantFrom(...ACCOUNTS),
      amount: anyBig,
    },
    { clientId: anyString },
  ),
  withOptional(
    {
      type: fc.constant('placeOrder'),
      ts,
      userId: anyString,
      symbol: anyString,
      side: fc.constantFrom(...SIDES),
      orderType: fc.constantFrom('LIMIT', 'MARKET'),
      timeInForce: fc.constantFrom('GTC', 'IOC', 'FOK', 'POST_ONLY'),
    },
    {
      price: anyBig,
      quantity: anyBig,
      quoteAmount: anyBig,
      clientOrderId: anyString,
      stp: fc.constantFrom('EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH', 'NONE'),
    },
  ),
  withOptional({ type: fc.constant('cancelOrder'), ts, userId: anyString }, { orderId: anyString, clientOrderId: anyString }),
) as unknown as fc.Arbitrary<Command>;

/** True when every bigint in `v` fits the binary encoding (127 bytes of magnitude), and every int field (2^52). */
function fitsBinary(v: unknown, key = ''): boolean {
  if (typeof v === 'bigint') return (v < 0n ? -v : v) < 2n ** 1016n;
  if (typeof v === 'number') return key === 'ts' || Math.abs(v) <= 2 ** 52;
  if (v !== null && typeof v === 'object') return Object.entries(v).every(([k, x]) => fitsBinary(x, k));
  return true;
}

describe('command codec', () => {
  it('round-trips every command kind exactly, as binary when the schema describes it', () => {
    fc.assert(
      fc.property(anyCommand, (cmd) => {
        const bytes = encodeCommand(cmd);
        expect(decodeCommand(bytes)).toStrictEqual(cmd);
        expect(bytes[0]).toBe(fitsBinary(cmd) ? BINARY_COMMAND_V1 : 0x7b);
        if (bytes[0] === BINARY_COMMAND_V1) expect(decodeCommandGeneric(bytes)).toStrictEqual(cmd);
        // A record of a journal written before the binary format.
        expect(decodeCommand(Buffer.from(serializeCommand(cmd), 'utf8'))).toStrictEqual(cmd);
      }),
      { numRuns: RUNS * 3 },
    );
  });

  it('decodes a record in the middle of a larger buffer (from, to)', () => {
    fc.assert(
      fc.property(anyCommand, fc.uint8Array({ maxLength: 5 }), fc.uint8Array({ maxLength: 5 }), (cmd, before, after) => {
        const bytes = encodeCommand(cmd);
        const buf = new Uint8Array([...before, ...bytes, ...after]);
        expect(decodeCommand(buf, before.length, before.length + bytes.length)).toStrictEqual(cmd);
      }),
      { numRuns: RUNS },
    );
  });

  it('throws SyntaxError on every strict prefix of a binary record and on a byte added', () => {
    fc.assert(
      fc.property(anyCommand, fc.integer({ min: 0, max: 255 }), (cmd, extra) => {
        const bytes = encodeCommand(cmd);
        fc.pre(bytes[0] === BINARY_COMMAND_V1);
        for (let n = 0; n < bytes.length; n++) expect(() => decodeCommand(bytes.subarray(0, n))).toThrow(SyntaxError);
        expect(() => decodeCommand(new Uint8Array([...bytes, extra]))).toThrow(SyntaxError);
      }),
      { numRuns: Math.ceil(RUNS / 3) },
    );
  });

  it('writes what the schema does not describe as JSON, and still round-trips it', () => {
    const cases: Command[] = [
      { type: 'cancelOrder', ts: 1, userId: 'u', orderId: '7', note: 'extra property' } as unknown as Command,
      { type: 'deposit', ts: 1, userId: 'u', asset: 'BTC', account: 'SPOT', amount: 2n ** 1016n, from: '@chain' },
      { type: 'placeOrder', ts: 1.5, userId: 'u', symbol: 'S', side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC' },
      { type: 'placeOrder', ts: -1, userId: 'u', symbol: 'S', side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC' },
      { type: 'addAsset', ts: 1, asset: { code: 'BTC', scale: 2 ** 52 + 2 } },
      { type: 'placeOrder', ts: 2 ** 53, userId: 'u', symbol: 'S', side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC' },
      { type: 'placeOrder', ts: 1, userId: 'u', symbol: 'S', side: 'SIDEWAYS', orderType: 'LIMIT', timeInForce: 'GTC' } as unknown as Command,
      { type: 'addAsset', ts: 1, asset: { code: 'BTC', scale: 8, name: 'Bitcoin' } } as unknown as Command,
      { type: 'withdraw', ts: 1, userId: 'u', amount: 5n } as unknown as Command,
    ];
    for (const c of cases) {
      const bytes = encodeCommand(c);
      expect(bytes[0]).toBe(0x7b);
      expect(decodeCommand(bytes)).toStrictEqual(c);
    }
    // Properties set to undefined are left out, as JSON leaves them out.
    const withUndefined = { type: 'cancelOrder', ts: 1, userId: 'u', orderId: '7', clientOrderId: undefined } as Command;
    expect(encodeCommand(withUndefined)[0]).toBe(BINARY_COMMAND_V1);
    expect(decodeCommand(encodeCommand(withUndefined))).toStrictEqual({ type: 'cancelOrder', ts: 1, userId: 'u', orderId: '7' });
  });

  it('keeps a profile key named __proto__ as an own property', () => {
    const c: Command = {
      type: 'registerUser',
      ts: 1,
      account: 'a',
      uniqueKeys: [],
      profile: JSON.parse('{"__proto__":"x","b":"y"}') as Record<string, string>,
    };
    const back = decodeCommand(encodeCommand(c)) as Extract<Command, { type: 'registerUser' }>;
    expect(Object.keys(back.profile)).toEqual(['__proto__', 'b']);
    expect(Object.getPrototypeOf(back.profile)).toBe(Object.prototype);
    expect(back).toStrictEqual(c);
  });

  it('is compact for the hot kinds: a limit order and a cancel by client id', () => {
    const place: Command = {
      type: 'placeOrder',
      ts: 1_795_447_403_983,
      userId: 'bench-89',
      symbol: 'BTC/USD-1',
      side: 'BUY',
      orderType: 'LIMIT',
      timeInForce: 'GTC',
      price: 6_116_159_694_900n,
      quantity: 8_182_089n,
      clientOrderId: '1b28374',
    };
    const cancel: Command = { type: 'cancelOrder', ts: 1_795_447_333_855, userId: 'bench-413', clientOrderId: '0a95061' };
    // type byte, kind, mask, 8+1 userId, 9+1 symbol, 3 enums, 7 price, 4 quantity, 7+1 clientOrderId, 6 ts
    expect(encodeCommand(place).length).toBe(50);
    expect(encodeCommand(cancel).length).toBe(27);
    expect(serializeCommand(place).length).toBeGreaterThan(4 * 50);
  });

  it('rejects unknown formats, kinds and enum codes', () => {
    expect(() => decodeCommand(new Uint8Array([]))).toThrow(SyntaxError);
    expect(() => decodeCommand(new Uint8Array([0x02, 9]))).toThrow(/unknown record format/);
    expect(() => decodeCommand(new Uint8Array([BINARY_COMMAND_V1, 200, 0]))).toThrow(/unknown command kind 200/);
    const cancel = encodeCommand({ type: 'setMarketStatus', ts: 1, symbol: 'S', status: 'HALTED' });
    cancel[cancel.length - 2] = 9; // the status code
    expect(() => decodeCommand(cancel)).toThrow(/unknown status code 9/);
    expect(() => decodeCommand(Buffer.from('{"type":"x"}', 'utf8'))).toThrow(SyntaxError);
  });
});
