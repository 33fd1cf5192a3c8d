/**
 * Proves the slide puzzle and the verification codes through the HTTP API (app.inject, PGlite, or
 * PostgreSQL when DATABASE_URL is set): images are real PNGs of the announced sizes; the right answer
 * (x and y within ±5 px, read from the server's table, with a hand-like trail) passes, one 6 px off fails, each
 * challenge takes one answer, challenges and passes expire and a pass works once; codes are 6 digits, stored
 * hashed, rate-limited per account and per IP; sendCode answers alike for taken and free accounts (REGISTER) and
 * known and unknown ones (FORGET), sending a notice or nothing instead of a code, and a provider's delivery does not
 * delay the answer; the SMTP and HTTP SMS adapters deliver the text; the demo outbox answers newest first and only
 * in demo mode. The puzzle's defences against scripts are proved in captcha.test.ts and captcha.solver.test.ts.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { ERROR_MESSAGES } from '@exchange/api';
import { NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { captchaChallenges, verificationCodes } from './verification.tables';
import { listOutbox } from './outbox.repository';
import {
  allowResend,
  answerPuzzle,
  get,
  handTrail,
  makeMemberTestApp,
  passPuzzle,
  post,
  puzzleAnswer,
  randomIp,
  registerEmail,
  sendAndReadCode,
} from '../member/member-test-app';
import type { Account } from '../../platform/shared/account';
import { createCaptchaService } from './captcha.service';
import { CODE_IP_PER_HOUR, createCodeService } from './code.service';
import { httpSmsCodeSender, smtpCodeSender, type CodeMessage, type CodeSender } from './code-sender';
import { createVerificationRepository } from './verification.repository';

let strict: TestApp; // captcha test mode off: answers are really checked
beforeAll(async () => {
  strict = await makeMemberTestApp({ captchaTestMode: false });
});
afterAll(async () => {
  await strict?.close();
});

async function issue(t: TestApp, ip = randomIp()) {
  const res = await post(t.app, 'data/sms/geetestCode?randomCode=abc123&clientType=h5', {}, { ip });
  expect(res.statusCode).toBe(200);
  return res.json().result as {
    challenge: string;
    bgImage: string;
    pieceImage: string;
    pieceY: number;
    width: number;
    height: number;
    pieceSize: number;
    gt: string;
    success: number;
    status: number;
    new_captcha: boolean;
  };
}

function png(dataUrl: string): Buffer {
  expect(dataUrl.startsWith('data:image/png;base64,')).toBe(true);
  return Buffer.from(dataUrl.slice('data:image/png;base64,'.length), 'base64');
}

/** A verify body answering `c` at (x, y) with a hand-like trail. */
async function answer(t: TestApp, challenge: string, dx = 0, dy = 0) {
  const a = await puzzleAnswer(t, challenge);
  return { challenge, x: a.x + dx, y: a.y + dy, trail: handTrail(a.startY, a.x + dx, a.y + dy) };
}

describe('slide puzzle', () => {
  it('issues a geetest-shaped challenge with a 320x180 background and a piece of the announced size', async () => {
    const c = await issue(strict);
    expect(c).toMatchObject({ success: 1, status: 1, new_captcha: true, width: 320, height: 180 });
    expect(c.gt).toMatch(/^[0-9a-f]{32}$/);
    expect(c.challenge).toMatch(/^[0-9a-f]{32}$/);
    expect(await sharp(png(c.bgImage)).metadata()).toMatchObject({ format: 'png', width: 320, height: 180 });
    expect(await sharp(png(c.pieceImage)).metadata()).toMatchObject({ format: 'png', width: c.pieceSize, height: c.pieceSize, hasAlpha: true });
    expect(c.pieceSize).toBeGreaterThanOrEqual(44 - 6);
    expect(c.pieceSize).toBeLessThanOrEqual(56 + 6);
    expect(c.pieceY).toBeGreaterThanOrEqual(2);
    expect(c.pieceY).toBeLessThanOrEqual(180 - c.pieceSize - 2);
    const a = await puzzleAnswer(strict, c.challenge);
    expect(a.startY).toBe(c.pieceY);
    // The gap is right of the piece's start column, on another row.
    expect(a.x).toBeGreaterThanOrEqual(c.pieceSize);
    expect(a.x + c.pieceSize).toBeLessThanOrEqual(320);
    expect(a.y + c.pieceSize).toBeLessThanOrEqual(180);
    expect(Math.abs(a.y - c.pieceY)).toBeGreaterThanOrEqual(16 - 3);
  });

  it('passes an answer within 5 px in x and y and returns validate and seccode = validate|jordan', async () => {
    const c = await issue(strict);
    // 5 px off in x and in y; upwards unless the answer is within 5 px of the top edge, where a negative position
    // would be refused by the schema before the puzzle is looked at (the gap's answer row can be 0).
    const at = await puzzleAnswer(strict, c.challenge);
    const res = await post(strict.app, 'data/sms/geetestVerify', await answer(strict, c.challenge, 5, at.y >= 5 ? -5 : 5));
    expect(res.json().status).toBe('SUCCEED');
    const r = res.json().result;
    expect(r.geetest_challenge).toBe(c.challenge);
    expect(r.geetest_validate).toMatch(/^[0-9a-f]{32}$/);
    expect(r.geetest_seccode).toBe(`${r.geetest_validate}|jordan`);
    // Only the hash of the pass is stored.
    const row = (await strict.ctx.db.select().from(captchaChallenges).where(eq(captchaChallenges.challenge, c.challenge)))[0]!;
    expect(row.validateHash).not.toContain(r.geetest_validate);
    // Answering again (even rightly) fails: one answer per challenge.
    const again = await post(strict.app, 'data/sms/geetestVerify', await answer(strict, c.challenge));
    expect(again.statusCode).toBe(400);
    expect(again.json().errorCode).toBe('captcha_invalid');
  });

  it('fails an answer 6 px off in x or in y, and the challenge cannot be answered again', async () => {
    for (const [dx, dy] of [
      [6, 0],
      [-6, 0],
      [0, 6],
      [0, -6],
    ] as const) {
      const c = await issue(strict);
      // A piece drawn within 6 px of the top or left edge is answered 6 px the other way (a negative position is
      // refused by the schema before the puzzle is looked at: validation_failed, which would say nothing here).
      const at = await puzzleAnswer(strict, c.challenge);
      const [ox, oy] = [at.x + dx < 0 ? -dx : dx, at.y + dy < 0 ? -dy : dy];
      const wrong = await post(strict.app, 'data/sms/geetestVerify', await answer(strict, c.challenge, ox, oy), { lang: 'zh' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({ status: 'FAILED', errorCode: 'captcha_invalid', errorMessage: ERROR_MESSAGES.captcha_invalid.zh, result: null });
      const retry = await post(strict.app, 'data/sms/geetestVerify', await answer(strict, c.challenge));
      expect(retry.json().errorCode).toBe('captcha_invalid');
    }
  });

  it('fails unknown challenges and expired ones', async () => {
    const unknown = await post(strict.app, 'data/sms/geetestVerify', { challenge: 'f'.repeat(32), x: 100, y: 50, trail: handTrail(20, 100, 50) });
    expect(unknown.json().errorCode).toBe('captcha_invalid');
    const c = await issue(strict);
    await strict.ctx.db
      .update(captchaChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(captchaChallenges.challenge, c.challenge));
    const res = await post(strict.app, 'data/sms/geetestVerify', await answer(strict, c.challenge), { lang: 'en' });
    expect(res.json()).toMatchObject({ errorCode: 'captcha_expired', errorMessage: ERROR_MESSAGES.captcha_expired.en });
  });

  it('accepts a pass once, refuses a forged seccode and an expired pass', async () => {
    const { res } = await answerPuzzle(strict);
    const pass = res.json().result;
    const first = await post(strict.app, 'data/sms/sendCode', { account: 'once1@example.com', type: 'REGISTER', ...pass }, { ip: randomIp() });
    expect(first.json().status).toBe('SUCCEED');
    const reuse = await post(strict.app, 'data/sms/sendCode', { account: 'once2@example.com', type: 'REGISTER', ...pass }, { ip: randomIp() });
    expect(reuse.json().errorCode).toBe('captcha_invalid');

    const second = await answerPuzzle(strict);
    const pass2 = second.res.json().result;
    const forged = await post(strict.app, 'data/sms/sendCode', {
      account: 'once3@example.com',
      type: 'REGISTER',
      ...pass2,
      geetest_seccode: `${pass2.geetest_validate}|other`,
    });
    expect(forged.json().errorCode).toBe('captcha_invalid');
    await strict.ctx.db
      .update(captchaChallenges)
      .set({ passExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(captchaChallenges.challenge, second.challenge));
    const expired = await post(strict.app, 'data/sms/sendCode', { account: 'once3@example.com', type: 'REGISTER', ...pass2 });
    expect(expired.json().errorCode).toBe('captcha_invalid');
  });

  it('requires the geetest fields for sendCode (every type but VERIFY): missing or empty, captcha_required', async () => {
    const res = await post(strict.app, 'data/sms/sendCode', { account: 'nopass@example.com', type: 'REGISTER' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errorCode).toBe('captcha_required');
    const empty = await post(strict.app, 'data/sms/sendCode', {
      account: 'nopass@example.com',
      type: 'REGISTER',
      geetest_challenge: '',
      geetest_validate: '',
      geetest_seccode: '',
    });
    expect(empty.json().errorCode).toBe('captcha_required');
  });
});

describe('captcha test mode and codes', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The code service's own limits (per account, 20 per IP an hour) are proven here: no per-IP request budgets before them.
    t = await makeMemberTestApp({ captchaTestMode: true, ...NO_RATE_LIMITS });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('passes any answer in test mode, still once per challenge and pass', async () => {
    const c = await issue(t);
    const res = await post(t.app, 'data/sms/geetestVerify', { challenge: c.challenge, x: 999 });
    expect(res.json().status).toBe('SUCCEED');
    const again = await post(t.app, 'data/sms/geetestVerify', { challenge: c.challenge, x: 999 });
    expect(again.json().errorCode).toBe('captcha_invalid');
  });

  it('sends a 6-digit code, stores only its hash, and lists the outbox newest first', async () => {
    const ip = randomIp();
    const code = await sendAndReadCode(t, 'Codes@Example.com', 'REGISTER', { ip });
    expect(code).toMatch(/^[0-9]{6}$/);
    const rows = await t.ctx.db.select().from(verificationCodes).where(eq(verificationCodes.account, 'codes@example.com'));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]!.codeHash).not.toContain(code);
    expect(rows[0]!.expiresAt.getTime() - rows[0]!.createdAt.getTime()).toBe(10 * 60_000);
    // A second code 61 s later (simulated by back-dating the first) goes on top of the outbox.
    await allowResend(t);
    const code2 = await sendAndReadCode(t, 'codes@example.com', 'REGISTER', { ip });
    const box = (await get(t.app, 'demo/outbox', { account: 'codes@example.com' })).json().result;
    expect(box.map((m: { code: string }) => m.code)).toEqual([code2, code]);
    expect(box[0]).toMatchObject({ account: 'codes@example.com', type: 'REGISTER' });
    expect(box[0].createdAt).toBeGreaterThanOrEqual(box[1].createdAt);
  });

  it('limits codes to one per 60 s per account (429 code_too_frequent), in zh and en', async () => {
    const ip = randomIp();
    await sendAndReadCode(t, '13900000001', 'REGISTER', { ip });
    const pass = await passPuzzle(t);
    const en = await post(t.app, 'data/sms/sendCode', { account: '13900000001', type: 'REGISTER', ...pass }, { ip, lang: 'en' });
    expect(en.statusCode).toBe(429);
    expect(en.json()).toEqual({ status: 'FAILED', errorCode: 'code_too_frequent', errorMessage: ERROR_MESSAGES.code_too_frequent.en, result: null });
    const zh = await post(t.app, 'data/sms/sendCode', { account: '13900000001', type: 'REGISTER', ...pass }, { ip, lang: 'zh' });
    expect(zh.json().errorMessage).toBe(ERROR_MESSAGES.code_too_frequent.zh);
    // The refused request did not use up the pass.
    const other = await post(t.app, 'data/sms/sendCode', { account: '13800000002', type: 'REGISTER', ...pass }, { ip });
    expect(other.json().status).toBe('SUCCEED');
    // The same digits under another country code (a valid Brazilian mobile number too) are another account.
    expect(await sendAndReadCode(t, '13900000001', 'REGISTER', { ip, areaCode: '55' })).toMatch(/^[0-9]{6}$/);
  });

  it(`limits one IP to ${CODE_IP_PER_HOUR} codes per hour`, async () => {
    const ip = randomIp();
    for (let i = 0; i < CODE_IP_PER_HOUR; i++) await sendAndReadCode(t, `ip${i}@example.com`, 'REGISTER', { ip });
    const pass = await passPuzzle(t);
    const res = await post(t.app, 'data/sms/sendCode', { account: 'ip-over@example.com', type: 'REGISTER', ...pass }, { ip });
    expect(res.statusCode).toBe(429);
    expect(res.json().errorCode).toBe('code_too_frequent');
    const elsewhere = await post(t.app, 'data/sms/sendCode', { account: 'ip-over@example.com', type: 'REGISTER', ...pass }, { ip: randomIp() });
    expect(elsewhere.json().status).toBe('SUCCEED');
  });

  it('refuses malformed accounts and unknown types', async () => {
    const pass = await passPuzzle(t);
    const bad = await post(t.app, 'data/sms/sendCode', { account: 'not-an-email@', type: 'REGISTER', ...pass }, { lang: 'zh' });
    expect(bad.json()).toMatchObject({ errorCode: 'email_invalid', errorMessage: ERROR_MESSAGES.email_invalid.zh });
    const phone = await post(t.app, 'data/sms/sendCode', { account: '12ab', type: 'REGISTER', ...pass }, { lang: 'en' });
    expect(phone.json()).toMatchObject({ errorCode: 'phone_invalid', errorMessage: ERROR_MESSAGES.phone_invalid.en });
    const enumType = await post(t.app, 'data/sms/sendCode', { account: 'a@example.com', type: 'HACK', ...pass });
    expect(enumType.json().errorCode).toBe('validation_failed');
  });

  /** sendCode for `account` with a fresh pass; the HTTP status and the whole body. */
  async function sendCode(account: string, type: string, lang: 'zh' | 'en') {
    const res = await post(t.app, 'data/sms/sendCode', { account, type, ...(await passPuzzle(t)) }, { ip: randomIp(), lang });
    return { status: res.statusCode, body: res.json() };
  }

  it.each(['zh', 'en'] as const)(
    'answers REGISTER for a taken account exactly as for a free one, and sends the owner a notice instead of a code (%s)',
    async (lang) => {
      await registerEmail(t, `taken-${lang}@example.com`);
      await allowResend(t);
      const taken = await sendCode(`TAKEN-${lang}@example.com`, 'REGISTER', lang);
      const free = await sendCode(`free-${lang}@example.com`, 'REGISTER', lang);
      expect(taken).toEqual(free);
      expect(taken).toEqual({ status: 200, body: { status: 'SUCCEED', errorCode: '0', errorMessage: '', result: null } });
      // The owner got a notice and no code; the free address got a code.
      expect((await listOutbox(t.ctx.db, `taken-${lang}@example.com`)).map((m) => [m.type, m.code])).toEqual([
        ['REGISTER_NOTICE', ''],
        ['REGISTER', expect.stringMatching(/^[0-9]{6}$/)],
      ]);
      expect((await listOutbox(t.ctx.db, `free-${lang}@example.com`))[0]).toMatchObject({ type: 'REGISTER', code: expect.stringMatching(/^[0-9]{6}$/) });
      // Asking again within 60 s is refused alike: the taken account's request stored a (dead) code row too.
      expect(await sendCode(`taken-${lang}@example.com`, 'REGISTER', lang)).toEqual(await sendCode(`free-${lang}@example.com`, 'REGISTER', lang));
      expect((await sendCode(`taken-${lang}@example.com`, 'REGISTER', lang)).body.errorCode).toBe('code_too_frequent');
    },
  );

  it.each(['zh', 'en'] as const)('answers FORGET for an unknown account exactly as for a known one, and sends it nothing (%s)', async (lang) => {
    await registerEmail(t, `known-${lang}@example.com`);
    await allowResend(t);
    const known = await sendCode(`known-${lang}@example.com`, 'FORGET', lang);
    const unknown = await sendCode(`unknown-${lang}@example.com`, 'FORGET', lang);
    expect(unknown).toEqual(known);
    expect(unknown).toEqual({ status: 200, body: { status: 'SUCCEED', errorCode: '0', errorMessage: '', result: null } });
    expect((await listOutbox(t.ctx.db, `known-${lang}@example.com`))[0]).toMatchObject({ type: 'FORGET' });
    expect(await listOutbox(t.ctx.db, `unknown-${lang}@example.com`)).toEqual([]);
    // The unknown account has a live code row like the known one (same limits, same work when a code is checked
    // later), of a code that was sent to no one.
    const rows = await t.ctx.db
      .select()
      .from(verificationCodes)
      .where(eq(verificationCodes.account, `unknown-${lang}@example.com`));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.consumedAt).toBeNull();
    expect(await sendCode(`unknown-${lang}@example.com`, 'FORGET', lang)).toEqual(await sendCode(`known-${lang}@example.com`, 'FORGET', lang));
    // LOGIN behaves as FORGET (nothing for an unknown account).
    expect(await sendCode(`unknown-login-${lang}@example.com`, 'LOGIN', lang)).toEqual(known);
  });

  it("answers before a provider's slow delivery, for known and unknown accounts alike", async () => {
    // A provider that takes 400 ms; the code service over the test app's database, with its own captcha.
    const delivered: CodeMessage[] = [];
    const slow: CodeSender = {
      name: 'slow',
      async send(msg) {
        await new Promise((r) => setTimeout(r, 400));
        delivered.push(msg);
      },
    };
    const repo = createVerificationRepository(t.ctx.db);
    const captcha = createCaptchaService({ repo, testMode: true });
    const known = new Set(['known-slow@example.com', 'taken-slow@example.com']);
    const codes = createCodeService({
      repo,
      captcha,
      senders: { email: slow, phone: slow },
      accountExists: async (a: Account) => a.kind === 'email' && known.has(a.mail),
      log: pino({ level: 'silent' }),
    });
    const passFor = async () => {
      const c = await captcha.issue('slow');
      return captcha.verify(c.challenge, 0);
    };
    const timed = async (account: string, type: 'FORGET' | 'REGISTER') => {
      const pass = await passFor();
      const started = performance.now();
      await codes.send({ account, type, ip: randomIp(), lang: 'en', pass });
      return performance.now() - started;
    };
    const times = [
      await timed('known-slow@example.com', 'FORGET'),
      await timed('unknown-slow@example.com', 'FORGET'),
      await timed('taken-slow@example.com', 'REGISTER'),
      await timed('new-slow@example.com', 'REGISTER'),
    ];
    for (const ms of times) expect(ms).toBeLessThan(400);
    await new Promise((r) => setTimeout(r, 600));
    expect(delivered.map((m) => [m.address, m.type, m.kind])).toEqual(
      expect.arrayContaining([
        ['known-slow@example.com', 'FORGET', 'code'],
        ['taken-slow@example.com', 'REGISTER', 'register_notice'],
        ['new-slow@example.com', 'REGISTER', 'code'],
      ]),
    );
    expect(delivered.find((m) => m.kind === 'register_notice')!.code).toBe('');
    expect(delivered.some((m) => m.address === 'unknown-slow@example.com')).toBe(false);
  });

  it('accepts JSON bodies as well as form-encoded ones', async () => {
    const pass = await passPuzzle(t);
    const res = await post(t.app, 'data/sms/sendCode', { account: 'json@example.com', type: 'REGISTER', ...pass }, { json: true, ip: randomIp() });
    expect(res.json().status).toBe('SUCCEED');
  });
});

describe('demo outbox off and senders', () => {
  it('answers 404 for the outbox and 503 for codes when demo mode is off and no sender is configured', async () => {
    const t = await makeMemberTestApp({ demoMode: false });
    try {
      const box = await get(t.app, 'demo/outbox', { account: 'a@example.com' }, { lang: 'en' });
      expect(box.statusCode).toBe(404);
      expect(box.json()).toEqual({ status: 'FAILED', errorCode: 'not_found', errorMessage: ERROR_MESSAGES.not_found.en, result: null });
      const pass = await passPuzzle(t);
      const res = await post(t.app, 'data/sms/sendCode', { account: 'a@example.com', type: 'REGISTER', ...pass });
      expect(res.statusCode).toBe(503);
      expect(res.json().errorCode).toBe('service_unavailable');
    } finally {
      await t.close();
    }
  });

  const msg: CodeMessage = { channel: 'email', address: 'user@example.com', areaCode: '', type: 'REGISTER', code: '123456', lang: 'en', validMinutes: 10 };

  it('SMTP adapter hands nodemailer a mail with the code', async () => {
    const sender = smtpCodeSender({ jsonTransport: true }, 'no-reply@exchange.local');
    const sent: string[] = [];
    sender.transporter.on('idle', () => {});
    const orig = sender.transporter.sendMail.bind(sender.transporter);
    sender.transporter.sendMail = (async (m: unknown) => {
      const info = await orig(m as never);
      sent.push((info as unknown as { message: string }).message);
      return info;
    }) as never;
    await sender.send(msg);
    const mail = JSON.parse(sent[0]!);
    expect(mail.to[0].address).toBe('user@example.com');
    expect(mail.from.address).toBe('no-reply@exchange.local');
    expect(mail.subject).toBe('Your verification code');
    expect(mail.text).toContain('123456');
  });

  it('HTTP SMS adapter POSTs JSON and fails on a non-2xx answer', async () => {
    const bodies: unknown[] = [];
    let status = 200;
    const server = http.createServer((req, res) => {
      let b = '';
      req.on('data', (c) => (b += c));
      req.on('end', () => {
        bodies.push({ ct: req.headers['content-type'], body: JSON.parse(b) });
        res.statusCode = status;
        res.end('{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as { port: number }).port;
      const sender = httpSmsCodeSender(`http://127.0.0.1:${port}/sms`);
      await sender.send({ ...msg, channel: 'phone', address: '13800000000', areaCode: '86', lang: 'zh' });
      expect(bodies[0]).toEqual({
        ct: 'application/json',
        body: {
          to: '+8613800000000',
          areaCode: '86',
          phone: '13800000000',
          code: '123456',
          type: 'REGISTER',
          text: '您的验证码是 123456，10 分钟内有效，请勿泄露给他人。',
        },
      });
      status = 500;
      await expect(sender.send({ ...msg, channel: 'phone', address: '13800000000', areaCode: '86' })).rejects.toThrow(/HTTP 500/);
    } finally {
      server.close();
    }
  });
});
