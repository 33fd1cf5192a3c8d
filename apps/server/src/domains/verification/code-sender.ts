/**
 * How verification codes leave the server: a `CodeSender` per channel. Adapters: SMTP through nodemailer
 * (SMTP_URL), an SMS provider over HTTP (SMS_URL, a generic JSON POST), and the demo sender (log + demo
 * outbox table), used for a channel only when demo mode is on and that channel has no real adapter.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Lang } from '@exchange/api';
import type { Config } from '../../platform/config/env';
import type { Db } from '../../platform/db/client';
import { insertOutbox } from './outbox.repository';

/**
 * A message to deliver. `address` is the e-mail or the phone digits; `areaCode` is '' for e-mail. `kind` 'code'
 * (the default) carries a verification code; 'register_notice' tells the owner of an existing account that someone
 * asked to register (or bind) it, with no code (`code` is '').
 */
export interface CodeMessage {
  channel: 'email' | 'phone';
  address: string;
  areaCode: string;
  type: string;
  code: string;
  lang: Lang;
  /** Minutes the code stays valid, for the message text. */
  validMinutes: number;
  kind?: 'code' | 'register_notice';
}

/**
 * Delivers one message; rejects when the provider refused it. An `inline` sender's delivery is part of the request
 * (a local write); the others' runs after the answer, so that the answer's timing does not depend on the provider.
 */
export interface CodeSender {
  readonly name: string;
  readonly inline?: boolean;
  send(msg: CodeMessage): Promise<void>;
}

/** The human text of a message in its language. */
export function codeText(msg: CodeMessage): { subject: string; text: string } {
  if (msg.kind === 'register_notice') {
    if (msg.lang === 'en')
      return {
        subject: 'Someone tried to register with your address',
        text: 'Someone tried to register a new account with this address, which already has an account. If it was you, log in or reset your password instead. If not, you can ignore this message.',
      };
    return {
      subject: '有人尝试用您的账号注册',
      text: '有人尝试用此账号注册新账户，但该账号已注册。如果是您本人，请直接登录或找回密码；如果不是，请忽略本消息。',
    };
  }
  if (msg.lang === 'en')
    return {
      subject: 'Your verification code',
      text: `Your verification code is ${msg.code}. It is valid for ${msg.validMinutes} minutes. Do not share it with anyone.`,
    };
  return { subject: '您的验证码', text: `您的验证码是 ${msg.code}，${msg.validMinutes} 分钟内有效，请勿泄露给他人。` };
}

/** SMTP adapter: `transport` is an SMTP URL (smtp://user:pass@host:587) or any nodemailer transport options. */
export function smtpCodeSender(transport: string | Parameters<typeof nodemailer.createTransport>[0], from: string): CodeSender & { transporter: Transporter } {
  const transporter = nodemailer.createTransport(transport as never);
  return {
    name: 'smtp',
    transporter,
    async send(msg) {
      const { subject, text } = codeText(msg);
      await transporter.sendMail({ from, to: msg.address, subject, text });
    },
  };
}

/**
 * SMS adapter over HTTP: POSTs JSON `{ to: "+<areaCode><phone>", areaCode, phone, text, code, type }` to
 * `url` and expects a 2xx answer (a small gateway translates it for a particular provider).
 */
export function httpSmsCodeSender(url: string, fetchImpl: typeof fetch = fetch): CodeSender {
  return {
    name: 'http-sms',
    async send(msg) {
      const { text } = codeText(msg);
      const res = await fetchImpl(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ to: `+${msg.areaCode}${msg.address}`, areaCode: msg.areaCode, phone: msg.address, text, code: msg.code, type: msg.type }),
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok) throw new Error(`SMS provider answered HTTP ${res.status}`);
    },
  };
}

/**
 * Demo adapter: logs the message and appends it to the demo outbox (GET /api/demo/outbox), a register notice with
 * type "<type>_NOTICE" and no code. It writes within the request (`inline`), so the outbox has the code as soon as
 * sendCode answers.
 */
export function demoCodeSender(db: Db, log: FastifyBaseLogger, now: () => number = Date.now): CodeSender {
  return {
    name: 'demo',
    inline: true,
    async send(msg) {
      const type = msg.kind === 'register_notice' ? `${msg.type}_NOTICE` : msg.type;
      log.info({ account: msg.address, areaCode: msg.areaCode, type, code: msg.code }, 'demo code sender: verification code');
      await insertOutbox(db, { account: msg.address, areaCode: msg.areaCode, type, code: msg.code, createdAt: new Date(now()) });
    },
  };
}

/** The sender of each channel; null = the channel is not available. */
export interface CodeSenders {
  email: CodeSender | null;
  phone: CodeSender | null;
}

/** Picks the adapters from the configuration: SMTP/SMS when configured, else the demo sender in demo mode. */
export function codeSendersFromConfig(config: Config, db: Db, log: FastifyBaseLogger): CodeSenders {
  const demo = config.demoMode ? demoCodeSender(db, log) : null;
  return {
    email: config.smtpUrl ? smtpCodeSender(config.smtpUrl, config.smtpFrom) : demo,
    phone: config.smsUrl ? httpSmsCodeSender(config.smsUrl) : demo,
  };
}
