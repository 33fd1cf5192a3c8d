/**
 * Proves the per-IP request budgets through app.inject with the default budgets of the
 * configuration: each limited route (puzzle issue and answer, sendCode, login, register, forgetPassword, order
 * entry and cancel) answers 429 with the API envelope (errorCode rate_limited, in the request's language) and the
 * standard headers once its budget is spent, while another IP is still served; the global budget covers every
 * route, loopback included; malformed tokens are refused without a session lookup, and an IP's forged tokens get
 * at most its failed-lookup budget of lookups, bursts included; X-Forwarded-For is believed only from a trusted
 * proxy (TRUST_PROXY). Requests are
 * cheap on purpose (invalid bodies, no token): the budget is taken before validation and authentication.
 */
import { CHALLENGES_PER_IP_PER_MINUTE } from '../../domains/verification/captcha.service';
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API_PATHS, ERROR_MESSAGES } from '@exchange/api';
import type { LightMyRequestResponse } from 'fastify';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { loadConfig } from '../config/env';
import { randomIp } from '../../domains/member/member-test-app';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t?.close();
});

type Budget = 'captcha' | 'sendCode' | 'login' | 'register' | 'forgetPassword' | 'orderEntry';
const LIMITED: Array<{ path: string; budget: Budget; url?: string }> = [
  { path: API_PATHS.geetestCode, budget: 'captcha' },
  { path: API_PATHS.geetestVerify, budget: 'captcha' },
  { path: API_PATHS.sendCode, budget: 'sendCode' },
  { path: API_PATHS.login, budget: 'login' },
  { path: API_PATHS.register, budget: 'register' },
  { path: API_PATHS.forgetPassword, budget: 'forgetPassword' },
  { path: API_PATHS.setEntrust, budget: 'orderEntry' },
  { path: API_PATHS.cancelEntrust, budget: 'orderEntry' },
  { path: API_PATHS.setOcoEntrust, budget: 'orderEntry' },
  { path: API_PATHS.cancelOcoEntrust, budget: 'orderEntry' },
];

function postFrom(app: TestApp['app'], url: string, ip: string, lang: 'zh' | 'en' = 'en'): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url, remoteAddress: ip, headers: { lang, 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
}

function expectRateLimited(res: LightMyRequestResponse, limit: number, lang: 'zh' | 'en'): void {
  expect(res.statusCode).toBe(429);
  expect(res.json()).toEqual({ status: 'FAILED', errorCode: 'rate_limited', errorMessage: ERROR_MESSAGES.rate_limited[lang], result: null });
  expect(res.headers['x-ratelimit-limit']).toBe(String(limit));
  expect(res.headers['x-ratelimit-remaining']).toBe('0');
  expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
}

describe('per-route budgets', () => {
  it.each(LIMITED)('$path answers 429 with headers after its budget, per IP', async ({ path, budget }) => {
    const limit = (t.ctx.config as { routeRateLimits?: Record<Budget, number> }).routeRateLimits?.[budget] ?? 0;
    const url = `/api/${path}`;
    const ip = randomIp();
    let first429 = 0;
    const sent = Math.max(limit, 1) + 1;
    let last: LightMyRequestResponse | undefined;
    for (let i = 1; i <= sent; i++) {
      last = await postFrom(t.app, url, ip, i % 2 === 0 ? 'zh' : 'en');
      if (last.statusCode === 429 && first429 === 0) first429 = i;
      if (i === 1) expect(last.headers['x-ratelimit-remaining']).toBe(String(limit - 1));
    }
    console.log(`[${path}] budget ${limit}/min per IP: first 429 at request ${first429 || `none of ${sent}`}`);
    expect(limit).toBeGreaterThan(0);
    expect(first429).toBe(limit + 1);
    expectRateLimited(last!, limit, sent % 2 === 0 ? 'zh' : 'en');
    // Another IP has its own budget.
    expect((await postFrom(t.app, url, randomIp())).statusCode).not.toBe(429);
  });

  it('renders exactly the captcha budget of puzzles for one IP flooding at once', async () => {
    const ip = randomIp();
    const started = performance.now();
    const res = await Promise.all(Array.from({ length: 60 }, () => postFrom(t.app, `/api/${API_PATHS.geetestCode}?randomCode=flood`, ip)));
    const rendered = res.filter((r) => r.statusCode === 200).length;
    console.log(
      `[puzzle flood] 60 geetestCode from one IP at once: ${rendered} rendered in ${Math.round(performance.now() - started)} ms, ${res.length - rendered} refused`,
    );
    // Two budgets stand in front of the renderer: the route's (per IP, this plugin) and the captcha service's own.
    expect(rendered).toBe(Math.min(t.ctx.config.routeRateLimits.captcha, CHALLENGES_PER_IP_PER_MINUTE));
  });
});

describe('global budget', () => {
  it('covers every route for an IP, loopback too, with the standard headers', async () => {
    const limit = t.ctx.config.rateLimitPerMin;
    expect(limit).toBeGreaterThan(0);
    for (const ip of ['127.0.0.1', randomIp()]) {
      for (let i = 1; i <= limit; i++) {
        const res = await t.app.inject({ method: 'GET', url: '/healthz', remoteAddress: ip });
        expect(res.statusCode).toBe(200);
        if (i === limit) expect(res.headers['x-ratelimit-remaining']).toBe('0');
      }
      const api = await t.app.inject({ method: 'GET', url: `/api/${API_PATHS.getAssets}`, remoteAddress: ip, headers: { lang: 'zh' } });
      expectRateLimited(api, limit, 'zh');
      const missing = await t.app.inject({ method: 'GET', url: '/api/no/such/route', remoteAddress: ip, headers: { lang: 'en' } });
      expectRateLimited(missing, limit, 'en');
    }
    expect((await t.app.inject({ method: 'GET', url: '/healthz', remoteAddress: randomIp() })).statusCode).toBe(200);
  });
});

describe('forged tokens', () => {
  const getAssets = (ip: string, token: string, userId = '12345') =>
    t.app.inject({ method: 'GET', url: `/api/${API_PATHS.getAssets}`, remoteAddress: ip, headers: { token, userId, lang: 'en' } });
  const forged = () => crypto.randomBytes(32).toString('base64url');

  it('refuses malformed tokens without a session lookup', async () => {
    const lookups = vi.spyOn(t.ctx.members, 'authenticate');
    const ip = randomIp();
    for (const token of ['x', 'x'.repeat(44), `${'x'.repeat(42)}=`, '../../etc/passwd'.padEnd(43, 'a')]) {
      expect((await getAssets(ip, token)).json().errorCode).toBe('SYS.0015');
    }
    expect((await getAssets(ip, forged(), '0')).json().errorCode).toBe('SYS.0015');
    expect((await getAssets(ip, forged(), '1'.repeat(20))).json().errorCode).toBe('SYS.0015');
    expect(lookups).not.toHaveBeenCalled();
    lookups.mockRestore();
  });

  it('stops looking up tokens for an IP after its failed-lookup budget, even in a burst', async () => {
    const budget = t.ctx.config.authFailuresPerMin;
    expect(budget).toBeGreaterThan(0);
    const lookups = vi.spyOn(t.ctx.members, 'authenticate');
    const ip = randomIp();
    const res = await Promise.all(Array.from({ length: budget * 3 }, () => getAssets(ip, forged())));
    const codes = res.map((r) => r.json().errorCode as string);
    console.log(
      `[forged-token burst] ${budget * 3} at once from one IP: ${lookups.mock.calls.length} session lookups, ${codes.filter((c) => c === 'rate_limited').length} refused with 429`,
    );
    expect(lookups.mock.calls.length).toBe(budget);
    expect(codes.filter((c) => c === 'SYS.0015').length).toBe(budget);
    expectRateLimited(
      res.find((r) => r.statusCode === 429)!,
      budget,
      'en',
    );
    // Another IP still gets its tokens looked up.
    expect((await getAssets(randomIp(), forged())).json().errorCode).toBe('SYS.0015');
    lookups.mockRestore();
  });
});

describe('trusted proxy', () => {
  it('keys the budgets on X-Forwarded-For only when the proxy is trusted', async () => {
    const behind = await makeTestApp({ trustProxy: ['10.200.0.1'], routeRateLimits: { ...t.ctx.config.routeRateLimits, login: 2 } });
    try {
      const login = (proxy: string, client: string) =>
        behind.app.inject({ method: 'POST', url: `/api/${API_PATHS.login}`, remoteAddress: proxy, headers: { 'x-forwarded-for': client }, payload: {} });
      // Two clients behind the trusted proxy: a budget each.
      for (const client of ['203.0.113.1', '203.0.113.2']) {
        expect((await login('10.200.0.1', client)).statusCode).toBe(400);
        expect((await login('10.200.0.1', client)).statusCode).toBe(400);
        expect((await login('10.200.0.1', client)).statusCode).toBe(429);
      }
      // From an untrusted peer the header is ignored: forging it gets no fresh budget.
      expect((await login('10.9.9.9', '203.0.113.3')).statusCode).toBe(400);
      expect((await login('10.9.9.9', '203.0.113.4')).statusCode).toBe(400);
      expect((await login('10.9.9.9', '203.0.113.5')).statusCode).toBe(429);
    } finally {
      await behind.close();
    }
  });

  it('reads TRUST_PROXY as off, a hop count or an address list, and refuses true (any peer)', () => {
    const trust = (v: string | undefined) => loadConfig({ NODE_ENV: 'test', TRUST_PROXY: v }).trustProxy;
    expect(trust(undefined)).toBe(false);
    expect(trust('off')).toBe(false);
    expect(() => trust('true')).toThrow("TRUST_PROXY=true would trust any peer's X-Forwarded-For");
    expect(() => trust('on')).toThrow(/TRUST_PROXY=true/);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.0/8, 192.168.1.7,loopback')).toEqual(['10.0.0.0/8', '192.168.1.7', 'loopback']);
    expect(() => trust('10.0.0.0/99')).toThrow(/TRUST_PROXY/);
    expect(() => trust('proxy.example.com')).toThrow(/TRUST_PROXY/);
  });
});
