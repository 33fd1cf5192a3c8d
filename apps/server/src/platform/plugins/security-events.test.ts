/**
 * Security events (security-events.ts): the kinds by error code and status, and, on a Fastify instance with the hook,
 * the log line (no token, no query string) and the counter.
 */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { LOG_LINES_PER_WINDOW, LOG_WINDOW_MS, registerSecurityEvents, securityEventKind } from './security-events';

describe('security events', () => {
  it('classifies by error code first, then by HTTP status', () => {
    expect(
      [
        ['login_failed', 400],
        ['admin_login_locked', 429],
        ['google_code_invalid', 400],
        ['SYS.0015', 401],
        ['unauthorized', 401],
        ['-1022', 400],
        ['-2015', 401],
        ['-1003', 418],
        ['-1003', 429],
        ['rate_limited', 429],
        ['forbidden', 403],
        ['FST_ERR_X', 401],
        ['validation_failed', 400],
        ['not_found', 404],
        ['internal_error', 500],
      ].map(([c, s]) => securityEventKind(c as string, s as number)),
    ).toEqual([
      'authentication_failure',
      'lockout',
      'authentication_failure',
      'session_invalid',
      'session_invalid',
      'authentication_failure',
      'authentication_failure',
      'banned',
      'rate_limited',
      'rate_limited',
      'authorization_failure',
      'session_invalid',
      null,
      null,
      null,
    ]);
  });

  it('logs the kind, code, route pattern and IP (never the query or a header) and counts it', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = { write: (l: string) => void lines.push(JSON.parse(l) as Record<string, unknown>) };
    const app = Fastify({ logger: { level: 'warn', stream } });
    const counted: string[] = [];
    registerSecurityEvents(app, { securityEvent: (k, c) => void counted.push(`${k} ${c}`) });
    const fail = (code: string, status: number) => Object.assign(new Error(code), { code, status });
    app.get('/api/v3/account', async () => {
      throw fail('-1022', 400);
    });
    app.get('/api/private/:id', async () => {
      throw fail('SYS.0015', 401);
    });
    app.get('/api/bad', async () => {
      throw fail('validation_failed', 400);
    });
    await app.inject({ method: 'GET', url: '/api/v3/account?timestamp=1&signature=deadbeefcafe', remoteAddress: '203.0.113.7' });
    await app.inject({ method: 'GET', url: '/api/private/42', headers: { token: 'forged-token-value' }, remoteAddress: '203.0.113.8' });
    await app.inject({ method: 'GET', url: '/api/bad' });
    await app.close();
    expect(counted).toEqual(['authentication_failure -1022', 'session_invalid SYS.0015']);
    const events = lines.filter((l) => l.msg === 'security event');
    expect(events.map((l) => [l.security, l.code, l.status, l.method, l.route, l.ip])).toEqual([
      ['authentication_failure', '-1022', 400, 'GET', '/api/v3/account', '203.0.113.7'],
      ['session_invalid', 'SYS.0015', 401, 'GET', '/api/private/:id', '203.0.113.8'],
    ]);
    const text = JSON.stringify(events);
    expect(text).not.toContain('deadbeefcafe');
    expect(text).not.toContain('forged-token-value');
  });
});

describe('security event log under a flood', () => {
  it('writes at most LOG_LINES_PER_WINDOW lines of a kind per window, counts every event, and says how many it left out', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = { write: (l: string) => void lines.push(JSON.parse(l) as Record<string, unknown>) };
    const app = Fastify({ logger: { level: 'warn', stream } });
    let counted = 0;
    let clock = 1_000_000;
    registerSecurityEvents(app, { securityEvent: () => void counted++ }, () => clock);
    app.get('/x', async () => {
      throw Object.assign(new Error('SYS.0015'), { code: 'SYS.0015', status: 401 });
    });
    for (let i = 0; i < 100; i++) await app.inject({ method: 'GET', url: '/x' });
    expect(counted).toBe(100);
    expect(lines.filter((l) => l.msg === 'security event')).toHaveLength(LOG_LINES_PER_WINDOW);
    clock += LOG_WINDOW_MS;
    await app.inject({ method: 'GET', url: '/x' });
    await app.close();
    const last = lines.filter((l) => l.msg === 'security event').pop()!;
    expect(last.suppressed).toBe(100 - LOG_LINES_PER_WINDOW);
  });
});

describe('security events on the app', () => {
  it("counts a forged session token and a console request without a session (refused before its query is validated) in the process's metrics", async () => {
    const { makeTestApp } = await import('../../../test/helpers');
    const t = await makeTestApp();
    try {
      const forged = await t.app.inject({ method: 'GET', url: '/api/member/member/getMember', headers: { token: 'f'.repeat(64), userId: '1' } });
      expect(forged.statusCode).toBe(401);
      // a console request without a session is refused before its query is validated (401, not a 400 naming a field)
      const console = await t.app.inject({ method: 'GET', url: '/api/admin/user/search?keyword=a' });
      expect([console.statusCode, console.json().errorCode]).toEqual([401, 'admin_unauthorized']);
      const text = await t.ctx.metrics!.text();
      expect(text).toContain('exchange_security_events_total{kind="session_invalid",code="SYS.0015"} 1');
      expect(text).toMatch(/exchange_security_events_total\{kind="session_invalid",code="admin_unauthorized"\} 1/);
    } finally {
      await t.close();
    }
  }, 60_000);
});
