/**
 * Proves the Binance scope's answer schemas (binance.responses.ts):
 * - with the check on, an answer that breaks its route's schema fails (500, naming the field) and one that keeps it
 *   goes out byte for byte as JSON.stringify writes it (the schema never drops or coerces a field); with the check
 *   off (outside tests), the schema documents only;
 * - every REST route of the Binance-compatible API (/api/v3, /fapi, /sapi, /dapi) declares its 200 answer in the
 *   OpenAPI document: a new route must come with its schema (UNDOCUMENTED, empty, names any exception).
 */
import Fastify from 'fastify';
import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { answers, Decimal, serveDocumentedAnswers } from './binance.responses';

describe('serveDocumentedAnswers', () => {
  async function appWith(check: boolean, answer: unknown) {
    const app = Fastify();
    serveDocumentedAnswers(app, check);
    app.get('/x', { schema: { response: answers(Type.Object({ price: Decimal, id: Type.Integer() }, { additionalProperties: false })) } }, async () => answer);
    await app.ready();
    return app;
  }

  it('sends a conforming answer exactly as JSON.stringify writes it', async () => {
    const app = await appWith(true, { price: '1.50', id: 7 });
    const res = await app.inject({ method: 'GET', url: '/x' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('{"price":"1.50","id":7}');
    await app.close();
  });

  it('fails an answer that breaks its schema, naming the field, when checking', async () => {
    for (const answer of [{ price: 1.5, id: 7 }, { price: '1.50' }, { price: '1.50', id: 7, extra: true }]) {
      const app = await appWith(true, answer);
      const res = await app.inject({ method: 'GET', url: '/x' });
      expect(res.statusCode, JSON.stringify(answer)).toBe(500);
      await app.close();
    }
  });

  it('documents only when not checking: the answer goes out untouched', async () => {
    const app = await appWith(false, { price: 1.5, extra: true });
    const res = await app.inject({ method: 'GET', url: '/x' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('{"price":1.5,"extra":true}');
    await app.close();
  });
});

/** Binance REST routes allowed without an answer schema ("METHOD /path"): none. */
const UNDOCUMENTED: string[] = [];

describe('the OpenAPI document of the Binance-compatible API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('declares the 200 answer of every REST route but the listed ones', () => {
    // The test apps run under NODE_ENV=test: every Binance answer of the API tests is checked against these schemas.
    expect(t.ctx.config.nodeEnv).toBe('test');
    const doc = t.app.swagger() as { paths: Record<string, Record<string, { responses?: Record<string, { content?: unknown }> }>> };
    const routes = Object.entries(doc.paths)
      .filter(([path]) => ['/api/v3/', '/fapi/', '/sapi/', '/dapi/'].some((prefix) => path.startsWith(prefix)))
      .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, op })));
    expect(routes.length).toBeGreaterThan(60);
    const missing = routes.filter((r) => r.op.responses?.['200']?.content === undefined).map((r) => r.route);
    expect(missing.sort()).toEqual([...UNDOCUMENTED].sort());
  });
});
