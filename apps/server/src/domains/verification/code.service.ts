/**
 * Verification codes (spec section 5: exactly 6 digits). `send` checks the account and the limits, uses a
 * passed puzzle, stores a fresh code hashed (HMAC-SHA256 with a per-code salt) for 10 minutes and hands it to
 * the channel's CodeSender. `consume` accepts the newest live code of (account, type) once; 5 wrong guesses
 * retire it. Limits: one code per account per 60 s, 20 codes per IP per hour.
 *
 * `send` does not tell whether an account exists: REGISTER or BIND for an existing account,
 * and FORGET or LOGIN for an unknown one, answer exactly as the normal case. Instead of a code, the owner of an
 * existing account gets a notice that someone tried to register it; an unknown account gets nothing. Every case
 * stores a live code row (in those two, of a code that is never sent: nobody knows it), so the limits and the
 * database work are the same, now and when the code is later checked by register/forgetPassword; and a provider's
 * delivery runs after the answer (for all cases), so its latency is not a tell either.
 */
import crypto from 'node:crypto';
import type { GeetestResult, Lang } from '@exchange/api';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../platform/shared/errors';
import { accountAddress, accountKey, parseAccount, type Account } from '../../platform/shared/account';
import { hmacHex, randomDigits, safeEqual } from '../../platform/shared/secrets';
import type { CaptchaService } from './captcha.service';
import type { CodeSenders } from './code-sender';
import type { VerificationRepository } from './verification.repository';

/**
 * Purposes of a code (packages/api CodeType). BIND goes to a new address being bound (as REGISTER: a notice instead
 * when it is taken); VERIFY to the logged-in user's own address (domains/security resolves it from the session).
 */
export type CodeType = 'REGISTER' | 'LOGIN' | 'FORGET' | 'BIND' | 'VERIFY';
/** How long a code is valid. */
export const CODE_TTL_MS = 10 * 60_000;
/** Wrong guesses after which a code is retired. */
export const CODE_MAX_ATTEMPTS = 5;
/** Minimum time between two codes for one account (the default of config.codeResendMs). */
export const CODE_RESEND_MS = 60_000;
/** Codes one IP may request per hour (the default of config.codeIpPerHour). */
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
   * Sends a code (or, see above, a notice or nothing). Throws 'email_invalid'/'phone_invalid', 'code_too_frequent'
   * (429), 'captcha_required' / 'captcha_invalid', or 'service_unavailable' (503: no sender for the channel, or an
   * inline sender failed); never anything that depends on whether the account exists.
   */
  send(input: SendCodeInput): Promise<void>;
  /** Consumes the code of (account, type); throws 'code_invalid' when it is wrong, expired, used or retired. */
  consume(account: Account, type: CodeType, code: string): Promise<void>;
  /**
   * Checks the code of (account, type) without consuming it (a step before a second factor): throws 'code_invalid'
   * as `consume` does, and a wrong code counts against the code's attempts as there.
   */
  check(account: Account, type: CodeType, code: string): Promise<void>;
}

/** Builds the code service. `accountExists` tells whether a user owns the account. */
export function createCodeService(deps: {
  repo: VerificationRepository;
  captcha: CaptchaService;
  senders: CodeSenders;
  accountExists: (a: Account) => Promise<boolean>;
  log: FastifyBaseLogger;
  now?: () => number;
  /** Least ms between two codes to one account (default CODE_RESEND_MS). */
  resendMs?: number;
  /** Codes per IP per hour (default CODE_IP_PER_HOUR). */
  ipPerHour?: number;
}): CodeService {
  const { repo, captcha, senders, log } = deps;
  const resendMs = deps.resendMs ?? CODE_RESEND_MS;
  const ipPerHour = deps.ipPerHour ?? CODE_IP_PER_HOUR;
  const now = deps.now ?? Date.now;
  /** The live code of (account, type) when `code` is it; else counts a wrong guess and throws 'code_invalid'. */
  async function liveMatching(account: Account, type: CodeType, code: string, t: Date) {
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
    return row;
  }

  return {
    async send(input) {
      const account = parseAccount(input.account, input.areaCode);
      const key = accountKey(account);
      const t = now();
      const last = await repo.lastCodeAt(key);
      if (last && t - last.getTime() < resendMs) throw new AppError('code_too_frequent', 429);
      if ((await repo.countCodesByIp(input.ip, new Date(t - 60 * 60_000))) >= ipPerHour) throw new AppError('code_too_frequent', 429);
      // The puzzle guards what a bot would gain from: codes to an address not yet proven to be the caller's
      // (sign-up, log-in, reset, binding a new address). A VERIFY code goes only to the signed-in user's own proven
      // address (domains/security resolves it from the session) and is bounded by the per-account and per-IP limits
      // above, so the user is not asked to solve a puzzle again for their own fund password, withdrawal or Google bind.
      if (input.type !== 'VERIFY') await captcha.consume(input.pass);
      const sender = account.kind === 'email' ? senders.email : senders.phone;
      if (!sender) throw new AppError('service_unavailable', 503);
      const exists = await deps.accountExists(account);
      const forNewAccount = input.type === 'REGISTER' || input.type === 'BIND';
      // 'code' normally; a notice to the owner when someone asks to register a taken account; nothing for an
      // unknown account's FORGET/LOGIN.
      const kind = forNewAccount ? (exists ? 'register_notice' : 'code') : exists ? 'code' : 'none';
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
      if (kind === 'none') return;
      const delivery = async () => {
        try {
          await sender.send({
            channel: account.kind,
            address: accountAddress(account),
            areaCode: account.kind === 'phone' ? account.areaCode : '',
            type: input.type,
            code: kind === 'code' ? code : '',
            lang: input.lang,
            validMinutes: CODE_TTL_MS / 60_000,
            kind,
          });
          return true;
        } catch (err) {
          log.error({ err, sender: sender.name, kind }, 'verification code could not be sent');
          await repo.consumeCode(id, new Date(now()));
          return false;
        }
      };
      if (sender.inline) {
        if (!(await delivery())) throw new AppError('service_unavailable', 503);
      } else {
        void delivery();
      }
    },

    async consume(account, type, code) {
      const t = new Date(now());
      const row = await liveMatching(account, type, code, t);
      if (!(await repo.consumeCode(row.id, t))) throw new AppError('code_invalid', 400, 'code');
    },

    async check(account, type, code) {
      await liveMatching(account, type, code, new Date(now()));
    },
  };
}
