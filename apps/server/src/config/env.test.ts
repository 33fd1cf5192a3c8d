/**
 * Configuration: embedded defaults, the operator variables, and the production guards
 * (demo mode off, CAPTCHA_TEST_MODE refused).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './env';

describe('loadConfig', () => {
  it('defaults to the embedded demo on port 8080 with ./data', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.dataDir).toBe(path.resolve('./data'));
    expect(c.databaseUrl).toBeUndefined();
    expect(c.demoMode).toBe(true);
    expect(c.captchaTestMode).toBe(false);
    expect(c.marketMakers).toBe(true);
  });
  it('reads PORT, DATA_DIR, DATABASE_URL and CAPTCHA_TEST_MODE', () => {
    const c = loadConfig({ PORT: '9000', DATA_DIR: '/tmp/x', DATABASE_URL: 'postgres://h/db', CAPTCHA_TEST_MODE: '1' });
    expect([c.port, c.dataDir, c.databaseUrl, c.captchaTestMode]).toEqual([9000, '/tmp/x', 'postgres://h/db', true]);
  });
  it('turns demo mode off in production and refuses CAPTCHA_TEST_MODE there', () => {
    expect(loadConfig({ NODE_ENV: 'production', DEMO_MODE: '1' }).demoMode).toBe(false);
    expect(() => loadConfig({ NODE_ENV: 'production', CAPTCHA_TEST_MODE: '1' })).toThrow(/refused/);
  });
  it('rejects malformed numbers', () => {
    expect(() => loadConfig({ PORT: '80a' })).toThrow(/PORT/);
    expect(() => loadConfig({ USDT_CNY_RATE: '7,1' })).toThrow(/USDT_CNY_RATE/);
  });
});
