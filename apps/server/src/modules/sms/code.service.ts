/**
 * Verification codes (spec section 5: exactly 6 digits). `send` checks the account and the limits, uses a
 * passed puzzle, stores a fresh code hashed (HMAC-SHA256 with a per-code salt) for 10 minutes and hands it to
 * the channel's CodeSender. `consume` accepts the newest live code of (account, type) once; 5 wrong guesses
 * retire it. Limits: one code per account per 60 s, 20 codes per IP per hour.
 */
import crypto from 'node:crypto';
import type { GeetestResult, Lang } from '@exchange/api';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../shared/errors';
import { accountAddress, accountKey, parseAccount, type Account } from '../member/account';
import { hmacHex, randomDigits, safeEqual } from '../member/secrets';
import type { CaptchaService } from './captcha.service';
import type { CodeSenders } from './code-sender';
import type { SmsRepository } from './sms.repository';

/** Purposes of a code (packages/api CodeType). */
export type CodeType = 'REGISTER' | 'LOGIN' | 'FORGET' | 'BIND';
/** How long a code is valid. */
export const CODE_TTL_MS = 10 * 60_000;
/** Wrong guesses after which a code is retired. */
export const CODE_MAX_ATTEMPTS = 5;
/** Minimum time between two codes for one account. */
export const CODE_RESEND_MS = 60_000;
/** Codes one IP may request per hour. */
export const CODE_IP_PER_HOUR = 20;

/** Input of `send`: the raw account as typed, its country code, purpose, caller IP, language and puzzle pass. */
export interface SendCodeInput {
  account: string;
  areaCode?: string | undefined;
  type: CodeType;
  ip: string;
  lang: Lang;
  pass: Partial<GeetestResult>;
}

/** The verification-code operations. */
export interface CodeService {
  /**
   * Sends a code. Throws 'email_invalid'/'phone_invalid', 'code_too_frequent' (429), 'captcha_required' /
   * 'captcha_invalid', 'account_exists' (REGISTER, BIND), 'account_not_found' (FORGET, LOGIN) or
   * 'service_unavailable' (503: no sender for the channel, or it failed).
   */
  send(input: SendCodeInput): Promise<void>;
  /** Consumes the code of (account, type); throws 'code_invalid' when it is wrong, expired, used or retired. */
  consume(account: Account, type: CodeType, code: string): Promise<void>;
}

/** Builds the code service. `accountExists` tells whether a user owns the account. */
export function createCodeService(deps: {
  repo: SmsRepository;
  captcha: CaptchaService;
  senders: CodeSenders;
  accountExists: (a: Account) => Promise<boolean>;
  log: FastifyBaseLogger;
  now?: () => number;
}): CodeService {
  const { repo, captcha, senders, log } = deps;
  const now = deps.now ?? Date.now;
  return {
    async send(input) {
      const account = parseAccount(input.account, input.areaCode);
      const key = accountKey(account);
      const t = now();
      const last = await repo.lastCodeAt(key);
      if (last && t - last.getTime() < CODE_RESEND_MS) throw new AppError('code_too_frequent', 429);
      if ((await repo.countCodesByIp(input.ip, new Date(t - 60 * 60_000))) >= CODE_IP_PER_HOUR) throw new AppError('code_too_frequent', 429);
      await captcha.consume(input.pass);
      const exists = await deps.accountExists(account);
      if ((input.type === 'REGISTER' || input.type === 'BIND') && exists) throw new AppError('account_exists', 400, 'account');
      if ((input.type === 'FORGET' || input.type === 'LOGIN') && !exists) throw new AppError('account_not_found', 400, 'account');
      const sender = account.kind === 'email' ? senders.email : senders.phone;
      if (!sender) throw new AppError('service_unavailable', 503);
      const code = randomDigits(6);
      const salt = crypto.randomBytes(16).toString('hex');
      const id = await repo.replaceCode({
        account: key,
        type: input.type,
        salt,
        codeHash: hmacHex(salt, code),
        ip: input.ip,
        createdAt: new Date(t),
        expiresAt: new Date(t + CODE_TTL_MS),
      });
      try {
        await sender.send({
          channel: account.kind,
          address: accountAddress(account),
          areaCode: account.kind === 'phone' ? account.areaCode : '',
          type: input.type,
          code,
          lang: input.lang,
          validMinutes: CODE_TTL_MS / 60_000,
        });
      } catch (err) {
        log.error({ err, sender: sender.name }, 'verification code could not be sent');
        await repo.consumeCode(id, new Date(now()));
        throw new AppError('service_unavailable', 503);
      }
    },

    async consume(account, type, code) {
      const t = new Date(now());
      const row = await repo.liveCode(accountKey(account), type, t);
      if (!row) throw new AppError('code_invalid', 400, 'code');
      if (row.attempts >= CODE_MAX_ATTEMPTS) {
        await repo.consumeCode(row.id, t);
        throw new AppError('code_invalid', 400, 'code');
      }
      if (!/^[0-9]{6}$/.test(code) || !safeEqual(hmacHex(row.salt, code), row.codeHash)) {
        await repo.addAttempt(row.id);
        throw new AppError('code_invalid', 400, 'code');
      }
      if (!(await repo.consumeCode(row.id, t))) throw new AppError('code_invalid', 400, 'code');
    },
  };
}
