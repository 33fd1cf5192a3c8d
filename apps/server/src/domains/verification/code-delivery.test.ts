/**
 * Proves the path a deployment's verification codes take, end to end through the HTTP API with demo mode off:
 * SMTP_URL pointing at a real SMTP server (the `smtp-server` package, listening on a loopback port this test opens)
 * receives the code e-mail of sendCode, in English and in Chinese (envelope recipient, From, To, subject and the
 * text with the code, decoded from the wire by postal-mime), and that code registers the account; SMS_URL pointing at
 * a local HTTP server receives the documented JSON body (docs/operations.md, "Verification codes") and its code
 * registers the phone. A refusing SMTP server or SMS provider leaves the answer SUCCEED (the answer never depends on
 * the provider) and the code unusable. Nothing lands in the demo outbox.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import type { TestApp } from '../../../test/helpers';
import { makeMemberTestApp, passPuzzle, post, randomIp } from '../member/member-test-app';
import { listOutbox } from './outbox.repository';
import { verificationCodes } from './verification.tables';

/** One message as the SMTP server received it: the envelope and the parsed mail. */
interface Received {
  mailFrom: string;
  rcptTo: string[];
  from: string;
  to: string[];
  subject: string;
  text: string;
}

const received: Received[] = [];
/** Recipients the SMTP server refuses (550), to prove a refused delivery. */
const refusedRcpt = new Set<string>();
const smsBodies: Array<{ contentType: string | undefined; body: Record<string, unknown> }> = [];
let smsStatus = 200;

const smtp = new SMTPServer({
  // A plain loopback server: no TLS offered, no login asked, as a local relay (the URL below carries no credentials).
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onRcptTo(address, _session, callback) {
    if (refusedRcpt.has(address.address)) callback(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }));
    else callback();
  },
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      PostalMime.parse(Buffer.concat(chunks)).then(
        (mail) => {
          received.push({
            mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            rcptTo: session.envelope.rcptTo.map((r) => r.address),
            from: mail.from?.address ?? '',
            to: (mail.to ?? []).map((a) => a.address ?? ''),
            subject: mail.subject ?? '',
            text: (mail.text ?? '').trim(),
          });
          callback();
        },
        (err: Error) => callback(err),
      );
    });
  },
});

const sms = http.createServer((req, res) => {
  let b = '';
  req.on('data', (c: Buffer) => (b += c.toString('utf8')));
  req.on('end', () => {
    smsBodies.push({ contentType: req.headers['content-type'], body: JSON.parse(b) as Record<string, unknown> });
    res.statusCode = smsStatus;
    res.end('{}');
  });
});

let t: TestApp;
beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => sms.listen(0, '127.0.0.1', resolve));
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  const smsPort = (sms.address() as AddressInfo).port;
  t = await makeMemberTestApp({
    demoMode: false,
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    smtpFrom: 'codes@exchange.test',
    smsUrl: `http://127.0.0.1:${smsPort}/sms`,
  });
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => smtp.close(resolve));
  await new Promise<void>((resolve) => sms.close(() => resolve()));
});

/** Waits until `pick` finds something (the provider's delivery runs after the answer), at most 10 s. */
async function waitFor<T>(pick: () => T | undefined | Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const found = await pick();
    if (found !== undefined) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('nothing delivered within 10 s');
}

/** The time the stored code of `key` (the normalised account) was consumed, once it is; undefined before. */
async function consumedAt(key: string): Promise<Date | undefined> {
  const rows = await t.ctx.db.select({ consumedAt: verificationCodes.consumedAt }).from(verificationCodes).where(eq(verificationCodes.account, key));
  expect(rows.length).toBe(1);
  return rows[0]!.consumedAt ?? undefined;
}

/** sendCode for `account` in `lang` after a puzzle; answers the envelope's status. */
async function sendCode(account: string, lang: 'zh' | 'en', ip: string, areaCode?: string): Promise<string> {
  const pass = await passPuzzle(t);
  const res = await post(t.app, 'data/sms/sendCode', { account, type: 'REGISTER', areaCode, ...pass }, { ip, lang });
  expect(res.statusCode).toBe(200);
  return res.json().status as string;
}

describe('verification codes through a real SMTP server (SMTP_URL)', () => {
  it.each([
    {
      lang: 'en' as const,
      mail: 'smtp-en@example.com',
      subject: 'Your verification code',
      text: (code: string) => `Your verification code is ${code}. It is valid for 10 minutes. Do not share it with anyone.`,
    },
    {
      lang: 'zh' as const,
      mail: 'smtp-zh@example.com',
      subject: '您的验证码',
      text: (code: string) => `您的验证码是 ${code}，10 分钟内有效，请勿泄露给他人。`,
    },
  ])('delivers the $lang code e-mail to the account, and its code registers it', async ({ lang, mail, subject, text }) => {
    const ip = randomIp();
    expect(await sendCode(mail, lang, ip)).toBe('SUCCEED');
    const got = await waitFor(() => received.find((m) => m.rcptTo.includes(mail)));
    const code = /\b([0-9]{6})\b/.exec(got.text)?.[1] ?? '';
    expect(got).toEqual({ mailFrom: 'codes@exchange.test', rcptTo: [mail], from: 'codes@exchange.test', to: [mail], subject, text: text(code) });
    const reg = await post(
      t.app,
      'member/member/register',
      { registerType: 'EMAIL', mail, code, password: 'Secret123', confirmPassword: 'Secret123', agreement: 'true' },
      { ip, lang },
    );
    expect(reg.json().status).toBe('SUCCEED');
    expect(await listOutbox(t.ctx.db, mail)).toEqual([]);
  });

  it('answers SUCCEED when the SMTP server refuses the recipient, and consumes the code it could not deliver', async () => {
    const mail = 'refused@example.com';
    refusedRcpt.add(mail);
    const before = received.length;
    expect(await sendCode(mail, 'en', randomIp())).toBe('SUCCEED');
    expect(await waitFor(() => consumedAt(mail))).toBeInstanceOf(Date);
    expect(received.length).toBe(before);
  });
});

describe('verification codes through the HTTP SMS adapter (SMS_URL)', () => {
  it('POSTs the documented JSON body in the request language, and its code registers the phone', async () => {
    const ip = randomIp();
    expect(await sendCode('13800138000', 'zh', ip, '86')).toBe('SUCCEED');
    const got = await waitFor(() => smsBodies.find((b) => b.body.phone === '13800138000'));
    const code = String(got.body.code);
    expect(code).toMatch(/^[0-9]{6}$/);
    expect(got).toEqual({
      contentType: 'application/json',
      body: {
        to: '+8613800138000',
        areaCode: '86',
        phone: '13800138000',
        text: `您的验证码是 ${code}，10 分钟内有效，请勿泄露给他人。`,
        code,
        type: 'REGISTER',
      },
    });
    const reg = await post(
      t.app,
      'member/member/register',
      { registerType: 'PHONE', phone: '13800138000', areaCode: '86', code, password: 'Phone1234', confirmPassword: 'Phone1234', agreement: 'true' },
      { ip },
    );
    expect(reg.json().status).toBe('SUCCEED');
  });

  it('answers SUCCEED when the provider answers 500, and the code it was given does not register', async () => {
    smsStatus = 500;
    try {
      const ip = randomIp();
      expect(await sendCode('13800138001', 'en', ip, '86')).toBe('SUCCEED');
      const got = await waitFor(() => smsBodies.find((b) => b.body.phone === '13800138001'));
      expect(got.body.text).toBe(`Your verification code is ${String(got.body.code)}. It is valid for 10 minutes. Do not share it with anyone.`);
      // the failed delivery consumes the code right after the provider's answer
      expect(await waitFor(() => consumedAt('+86 13800138001'))).toBeInstanceOf(Date);
      const body = {
        registerType: 'PHONE',
        phone: '13800138001',
        areaCode: '86',
        code: String(got.body.code),
        password: 'Phone1234',
        confirmPassword: 'Phone1234',
        agreement: 'true',
      };
      const reg = await post(t.app, 'member/member/register', body, { ip });
      expect(reg.json()).toMatchObject({ status: 'FAILED', errorCode: 'code_invalid' });
    } finally {
      smsStatus = 200;
    }
  });
});
