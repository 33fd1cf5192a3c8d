/**
 * Configuration: embedded defaults, the operator variables, and the production guards
 * (demo mode off, CAPTCHA_TEST_MODE refused).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './env';

describe('loadConfig', () => {
  it('defaults to port 8080 with ./data, demo mode off, on every interface', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.dataDir).toBe(path.resolve('./data'));
    expect(c.databaseUrl).toBeUndefined();
    expect(c.demoMode).toBe(false);
    expect(c.host).toBe('0.0.0.0');
    expect(c.captchaTestMode).toBe(false);
    expect(c.marketMakers).toBe(true);
  });
  it('reads PORT, DATA_DIR, DATABASE_URL and CAPTCHA_TEST_MODE', () => {
    const c = loadConfig({ PORT: '9000', DATA_DIR: '/tmp/x', DATABASE_URL: 'postgres://h/db', CAPTCHA_TEST_MODE: '1' });
    expect([c.port, c.dataDir, c.databaseUrl, c.captchaTestMode]).toEqual([9000, '/tmp/x', 'postgres://h/db', true]);
  });
  it('fails closed: demo and captcha test mode only when asked, refused under production rules for any unknown NODE_ENV', () => {
    const demo = loadConfig({ DEMO_MODE: '1' });
    expect([demo.demoMode, demo.host]).toEqual([true, '127.0.0.1']);
    expect(loadConfig({ DEMO_MODE: '1', HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ NODE_ENV: 'test', DEMO_MODE: '1', CAPTCHA_TEST_MODE: '1' }).captchaTestMode).toBe(true);
    for (const nodeEnv of ['production', 'Production', 'staging', 'prod', '']) {
      expect(() => loadConfig({ NODE_ENV: nodeEnv, DEMO_MODE: '1' })).toThrow(/DEMO_MODE is refused under production rules/);
      expect(() => loadConfig({ NODE_ENV: nodeEnv, CAPTCHA_TEST_MODE: '1' })).toThrow(/CAPTCHA_TEST_MODE is refused/);
      expect(loadConfig({ NODE_ENV: nodeEnv }).demoMode).toBe(false);
    }
  });
  it('rejects malformed numbers', () => {
    expect(() => loadConfig({ PORT: '80a' })).toThrow(/PORT/);
    expect(() => loadConfig({ USDT_CNY_RATE: '7,1' })).toThrow(/USDT_CNY_RATE/);
    expect(() => loadConfig({ BOT_SPREAD_TICKS: '0' })).toThrow(/BOT_SPREAD_TICKS must be at least 1/);
    expect(loadConfig({ BOT_SPREAD_TICKS: '300' }).botSpreadTicks).toBe(300);
    expect(loadConfig({}).botSpreadTicks).toBe(1);
  });
  it('reads SECRETS_KEY (base64 of 32 bytes) and refuses any other length', () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    expect(loadConfig({ SECRETS_KEY: key }).secretsKey).toBe(key);
    expect(loadConfig({}).secretsKey).toBeUndefined();
    expect(() => loadConfig({ SECRETS_KEY: Buffer.alloc(16).toString('base64') })).toThrow(/SECRETS_KEY must be base64 of 32 bytes/);
  });
  it('wallet keys: defaults, overrides and checks', () => {
    const c = loadConfig({ PORT: '9000', DATA_DIR: '/tmp/w' });
    expect([c.chainRpcUrl, c.chainId, c.chainUsdtContract, c.chainConfirmations, c.chainStartBlock, c.chainJobs]).toEqual([undefined, 31337, '', 6, 0, true]);
    expect([c.walletXpub, c.signerSeedFile, c.devChainPort]).toEqual([undefined, '/tmp/w/wallet-seed.key', 9010]);
    expect([c.withdrawAutoApproveBelowUsdt, c.withdrawDualApprovalUsdt, c.chainExplorerTxUrl, c.chainExplorerAddressUrl]).toEqual(['0', '100000', '', '']);
    const usdt = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
    const d = loadConfig({
      CHAIN_RPC_URL: 'http://127.0.0.1:8545',
      CHAIN_ID: '1',
      CHAIN_USDT_CONTRACT: usdt,
      CHAIN_CONFIRMATIONS: '12',
      CHAIN_START_BLOCK: '19000000',
      CHAIN_JOBS: 'off',
      SIGNER_SEED_FILE: '/keys/seed',
      WITHDRAW_AUTO_APPROVE_BELOW_USDT: '500',
      WITHDRAW_DUAL_APPROVAL_USDT: '50000.5',
      DEV_CHAIN_PORT: '8621',
      CHAIN_EXPLORER_TX_URL: 'https://etherscan.io/tx/',
    });
    expect([d.chainRpcUrl, d.chainId, d.chainUsdtContract, d.chainConfirmations, d.chainStartBlock, d.chainJobs]).toEqual([
      'http://127.0.0.1:8545',
      1,
      usdt,
      12,
      19000000,
      false,
    ]);
    expect([d.signerSeedFile, d.withdrawAutoApproveBelowUsdt, d.withdrawDualApprovalUsdt, d.devChainPort, d.chainExplorerTxUrl]).toEqual([
      '/keys/seed',
      '500',
      '50000.5',
      8621,
      'https://etherscan.io/tx/',
    ]);
    expect(() => loadConfig({ CHAIN_RPC_URL: 'localhost:8545' })).toThrow(/CHAIN_RPC_URL/);
    expect(() => loadConfig({ CHAIN_USDT_CONTRACT: '0x123' })).toThrow(/CHAIN_USDT_CONTRACT/);
    expect(() => loadConfig({ CHAIN_CONFIRMATIONS: '0' })).toThrow(/CHAIN_CONFIRMATIONS must be at least 1/);
    expect(() => loadConfig({ WALLET_XPUB: 'xprv123' })).toThrow(/WALLET_XPUB/);
    expect(() => loadConfig({ WITHDRAW_DUAL_APPROVAL_USDT: '1e5' })).toThrow(/WITHDRAW_DUAL_APPROVAL_USDT/);
    expect(() => loadConfig({ CHAIN_EXPLORER_ADDRESS_URL: 'etherscan' })).toThrow(/CHAIN_EXPLORER_ADDRESS_URL/);
  });
  it('journal retention: keep by default, archive into DATA_DIR/journal-archive or JOURNAL_ARCHIVE_DIR, delete; the disk alert threshold', () => {
    const c = loadConfig({ DATA_DIR: '/tmp/j' });
    expect([c.journalRetention, c.journalArchiveDir, c.diskFreeAlertBytes]).toEqual(['keep', '/tmp/j/journal-archive', 5 * 1024 ** 3]);
    const d = loadConfig({ DATA_DIR: '/tmp/j', JOURNAL_RETENTION: 'Archive', JOURNAL_ARCHIVE_DIR: '/mnt/archive', DISK_FREE_ALERT_BYTES: '1000' });
    expect([d.journalRetention, d.journalArchiveDir, d.diskFreeAlertBytes]).toEqual(['archive', '/mnt/archive', 1000]);
    expect(loadConfig({ JOURNAL_RETENTION: 'delete' }).journalRetention).toBe('delete');
    expect(loadConfig({}, { dataDir: '/tmp/k' }).journalArchiveDir).toBe('/tmp/k/journal-archive');
    expect(() => loadConfig({ JOURNAL_RETENTION: 'prune' })).toThrow(/JOURNAL_RETENTION must be keep, archive or delete/);
    expect(() => loadConfig({ DISK_FREE_ALERT_BYTES: '5G' })).toThrow(/DISK_FREE_ALERT_BYTES/);
  });
  it('database retention: the RETENTION_* defaults (days, 0 = kept for ever), RETENTION_KLINES over its defaults, and refusals', () => {
    expect(loadConfig({}).retention).toEqual({
      everyMinutes: 10,
      batchRows: 2000,
      maxBatchesPerRule: 50,
      marketTradesDays: 30,
      userTradesDays: 0,
      unfilledOrdersDays: 90,
      filledOrdersDays: 0,
      klinesDays: { '1min': 30, '5min': 180, '15min': 365, '30min': 365, '1hour': 0, '1day': 0, '1week': 0 },
      sessionsDays: 30,
      codesDays: 7,
      inboxReadDays: 90,
      securityEventsDays: 365,
    });
    const r = loadConfig({ RETENTION_KLINES: '1min=7, 1hour=730', RETENTION_USER_TRADES_DAYS: '365', RETENTION_EVERY_MINUTES: '0' }).retention;
    expect([r.klinesDays['1min'], r.klinesDays['5min'], r.klinesDays['1hour'], r.userTradesDays, r.everyMinutes]).toEqual([7, 180, 730, 365, 0]);
    expect(() => loadConfig({ RETENTION_KLINES: '2min=3' })).toThrow(/RETENTION_KLINES: unknown k-line period "2min"/);
    expect(() => loadConfig({ RETENTION_KLINES: '1min=-1' })).toThrow(/RETENTION_KLINES 1min/);
    expect(() => loadConfig({ RETENTION_BATCH_ROWS: '0' })).toThrow(/RETENTION_BATCH_ROWS must be at least 1/);
    expect(() => loadConfig({ RETENTION_INBOX_DAYS: '1.5' })).toThrow(/RETENTION_INBOX_DAYS/);
  });
  it('code delivery: SMTP_URL, SMTP_FROM and SMS_URL read and checked, the URLs never repeated in an error', () => {
    const c = loadConfig({});
    expect([c.smtpUrl, c.smtpFrom, c.smsUrl]).toEqual([undefined, 'no-reply@exchange.local', undefined]);
    const d = loadConfig({
      SMTP_URL: 'smtps://codes:pw@mail.example.com:465',
      SMTP_FROM: 'Exchange <codes@example.com>',
      SMS_URL: 'https://sms.example.com/send?key=k',
    });
    expect([d.smtpUrl, d.smtpFrom, d.smsUrl]).toEqual([
      'smtps://codes:pw@mail.example.com:465',
      'Exchange <codes@example.com>',
      'https://sms.example.com/send?key=k',
    ]);
    expect(loadConfig({ SMTP_URL: 'smtp://127.0.0.1:2525', SMTP_FROM: 'codes@example.com' }).smtpUrl).toBe('smtp://127.0.0.1:2525');
    expect(() => loadConfig({ SMTP_URL: 'mail.example.com:587' })).toThrow(
      'SMTP_URL must be an smtp:// or smtps:// URL with a host (smtp://user:pass@mail.example.com:587)',
    );
    expect(() => loadConfig({ SMTP_URL: 'http://user:secret@mail.example.com' })).toThrow(/^SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/);
    expect(() => loadConfig({ SMS_URL: 'ftp://sms.example.com/?key=secret' })).toThrow(
      'SMS_URL must be an http(s) URL with a host (https://sms-gateway.example.com/send)',
    );
    expect(() => loadConfig({ SMTP_FROM: 'codes' })).toThrow(
      'SMTP_FROM must be an e-mail address (codes@example.com or "Exchange <codes@example.com>"), got "codes"',
    );
  });
  it('the scale-out stream limits: 20 snapshot intervals of messages by default, no byte or age limit', () => {
    const c = loadConfig({});
    expect([c.natsStreamKeepSnapshots, c.natsStreamMaxBytes, c.natsStreamMaxAgeHours]).toEqual([20, 0, 0]);
    const d = loadConfig({ NATS_STREAM_KEEP_SNAPSHOTS: '0', NATS_STREAM_MAX_BYTES: '1073741824', NATS_STREAM_MAX_AGE_HOURS: '720' });
    expect([d.natsStreamKeepSnapshots, d.natsStreamMaxBytes, d.natsStreamMaxAgeHours]).toEqual([0, 1073741824, 720]);
  });
});
