/**
 * Account security (spec sections
 * 2, 5 and 9): binding a second address, the login and transaction passwords, Google authenticator, withdrawal
 * locks, sessions and the security log; and the second factor of the login (LoginSecurity, used by the member
 * service).
 *
 * What keys money or must survive the loss of the database is journaled in the engine's user profile (updateUser):
 * `transPasswordHash` (argon2id), `googleSecret` (the bound TOTP secret, sealed by the secret box; '' = not bound),
 * `withdrawLockUntil` (Unix ms) and `withdrawLockReason`, and a bound address with its unique key (`addKeys`). The
 * database holds the log, the pending TOTP secret, the attempt counters with their locks and the last TOTP step used.
 *
 * Rules: transaction password exactly 6 digits; 5 wrong ones lock it for 2 hours (trans_password_locked, with the
 * minutes left). TOTP: window 1 step, a code is good once, 5 wrong ones within 15 minutes lock it for 15 minutes
 * (google_code_locked). A password change, a reset through forget and closing Google lock withdrawals for 24 hours.
 * The second proof of a sensitive change is the TOTP code when Google is bound, else a VERIFY code sent to the
 * user's own phone or e-mail.
 */
import argon2 from 'argon2';
import Bowser from 'bowser';
import type { FastifyBaseLogger } from 'fastify';
import type {
  BindAccountBody,
  ChangePasswordBody,
  ChangeTransPasswordBody,
  ForgetTransPasswordBody,
  GeetestResult,
  GoogleSecret,
  Lang,
  SecurityLogItem,
  SecurityLogPage,
  SecurityState,
  SessionItem,
  SetTransPasswordBody,
  WithdrawLock,
  WithdrawLockReason,
} from '@exchange/api';
import type { Db } from '../../platform/db/client';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import { AppError } from '../../platform/shared/errors';
import { SecretBoxError, type SecretBox } from '../../platform/shared/secret-box';
import { parseEmail, parsePhone, type Account } from '../../platform/shared/account';
import { type LoginSecurity, type MemberService } from '../member/member.service';
import { createSecurityRepository, type SecurityInbox } from './security.repository';
import { matchTotp, newTotpSecret, totpUrl } from './totp';
import { maskAccount } from '../../platform/shared/account';
import { ARGON2_OPTIONS, checkPassword } from '../../platform/shared/password';
import { parseUserId, userKeyOf } from '../../platform/shared/account';
import { USER_AGENT_MAX } from '../../platform/shared/auth';

/** How long withdrawals stay locked after a password change or reset, or closing Google (spec section 9). */
export const WITHDRAW_LOCK_MS = 24 * 60 * 60_000;
/** Wrong transaction passwords after which it is locked, and for how long. */
export const TRANS_PASSWORD_MAX_FAILURES = 5;
export const TRANS_PASSWORD_LOCK_MS = 2 * 60 * 60_000;
/** Failures older than this are forgotten (transaction password). */
const TRANS_PASSWORD_WINDOW_MS = 24 * 60 * 60_000;
/** Wrong TOTP codes within TOTP_WINDOW_MS after which TOTP is locked for TOTP_LOCK_MS. */
export const TOTP_MAX_FAILURES = 5;
export const TOTP_WINDOW_MS = 15 * 60_000;
export const TOTP_LOCK_MS = 15 * 60_000;
/** How long a pending (offered, not bound) Google secret is offered again. */
export const PENDING_SECRET_TTL_MS = 10 * 60_000;

const KIND_TRANS = 'TRANS_PASSWORD';
const KIND_TOTP = 'TOTP';

/** Where a request came from (the security log). */
export interface RequestInfo {
  ip: string;
  userAgent: string;
}

/** The account-security operations (ctx.security; the withdrawal, payment and OTC features call the first four). */
export interface SecurityService extends LoginSecurity {
  /**
   * Checks the user's transaction password; counts failures and locks after 5 for 2 hours. Throws AppError
   * trans_password_not_set, trans_password_wrong, trans_password_locked (with the minutes left).
   */
  verifyTransactionPassword(userId: string, transPassword: string): Promise<void>;
  /** The user's withdrawal lock now (engine profile), or null (spec section 9; the wallet enforces it). */
  withdrawalLock(userId: string): { until: number; reason: WithdrawLockReason } | null;
  /**
   * The second proof of a sensitive action: the TOTP code when Google is bound (google_code_required,
   * google_code_invalid, google_code_locked), else a VERIFY code sent to the user's own phone or e-mail
   * (verify_code_required, code_invalid).
   */
  verifySecondFactor(userId: string, input: { googleCode?: string | undefined; code?: string | undefined }): Promise<void>;
  /** Appends an entry to the user's security log; never throws (a failure is logged). */
  recordSecurityEvent(userId: string, type: string, req: RequestInfo, detail?: string): Promise<void>;
  /** Sends a VERIFY code to the user's own e-mail or phone (`channel` picks when both are bound); as sendCode. */
  sendVerifyCode(userId: string, channel: 'EMAIL' | 'PHONE' | undefined, req: { ip: string; lang: Lang; pass: Partial<GeetestResult> }): Promise<void>;
  /** The account centre's state. */
  getSecurity(userId: string): Promise<SecurityState>;
  /** Binds the missing phone or e-mail (account_already_bound when that one is bound). */
  bindAccount(userId: string, input: BindAccountBody, req: RequestInfo): Promise<void>;
  /** Changes the login password; ends the other sessions; 24 h withdrawal lock PASSWORD_CHANGED. */
  changePassword(userId: string, input: ChangePasswordBody, token: string, req: RequestInfo): Promise<WithdrawLock>;
  /** Sets the first transaction password. */
  setTransPassword(userId: string, input: SetTransPasswordBody, req: RequestInfo): Promise<void>;
  /** Changes the transaction password (the old one counts toward its lock). */
  changeTransPassword(userId: string, input: ChangeTransPasswordBody, req: RequestInfo): Promise<void>;
  /** Resets a forgotten transaction password with a VERIFY code (and the TOTP code when bound); lifts its lock. */
  forgetTransPassword(userId: string, input: ForgetTransPasswordBody, req: RequestInfo): Promise<void>;
  /** The pending Google secret (a new one, or the same for 10 minutes until bound). */
  googleSecret(userId: string): Promise<GoogleSecret>;
  /** Binds Google authenticator with a VERIFY code (checked first) and a code of the pending secret. */
  bindGoogle(userId: string, googleCode: string, verifyCode: string, req: RequestInfo): Promise<void>;
  /** Unbinds Google authenticator (its code and a VERIFY code); 24 h withdrawal lock GOOGLE_CLOSED. */
  closeGoogle(userId: string, googleCode: string, verifyCode: string, req: RequestInfo): Promise<WithdrawLock>;
  /** The user's signed-in devices. */
  getSessions(userId: string, token: string): Promise<SessionItem[]>;
  /** Ends one of the user's sessions everywhere (session_not_found for another user's or an ended one). */
  revokeSession(userId: string, sessionId: string, req: RequestInfo): Promise<void>;
  /** A page of the user's security log, newest first. */
  getSecurityLog(userId: string, pageNo: number, pageSize: number): Promise<SecurityLogPage>;
}

/** "Chrome 120 on Windows 10" from a User-Agent header (bowser); 'Unknown device' when it says nothing. */
export function deviceOf(userAgent: string): string {
  if (userAgent === '') return 'Unknown device';
  const p = Bowser.parse(userAgent);
  const browser = [p.browser.name, p.browser.version?.split('.')[0]].filter(Boolean).join(' ');
  const os = [p.os.name, p.os.versionName ?? p.os.version].filter(Boolean).join(' ');
  if (browser === '' && os === '') return userAgent.slice(0, 64);
  return browser !== '' && os !== '' ? `${browser} on ${os}` : browser || os;
}

/** Whole minutes (rounded up, at least 1) from `now` to `until`, for the lock messages. */
function minutesLeft(until: number, now: number): string {
  return String(Math.max(1, Math.ceil((until - now) / 60_000)));
}

/** Builds the security service. `box` null: no secret box (scale-out mode without SECRETS_KEY), Google unavailable. */
export function createSecurityService(deps: {
  db: Db;
  host: EnginePort;
  members: MemberService;
  box: SecretBox | null;
  log: FastifyBaseLogger;
  /** the inbox, which writes a log entry's message (built after this service: read lazily) */
  inbox: () => SecurityInbox;
  now?: () => number;
}): SecurityService {
  const { host, members, box, log } = deps;
  const now = deps.now ?? Date.now;
  const repo = createSecurityRepository(deps.db, deps.inbox);

  /** The engine's record of a user (authoritative, current); throws not_found. */
  function userOf(userId: string): { id: bigint; profile: Readonly<Record<string, string>> } {
    const id = parseUserId(userId);
    const u = id === null ? undefined : host.engine.user(id.toString());
    if (id === null || !u) throw new AppError('not_found', 404);
    return { id, profile: u.profile };
  }

  /** Journals profile fields of a user (optionally with a compare-and-set and new unique keys) and waits for the projection. */
  async function update(userId: bigint, profile: Record<string, string>, opts: { expect?: Record<string, string>; addKeys?: string[] } = {}): Promise<void> {
    const r = await host.submit({ type: 'updateUser', userId: userId.toString(), profile, ...opts });
    if (r.code === 'user_key_taken') throw new AppError('account_exists', 400);
    if (r.code === 'user_field_mismatch') throw new AppError('user_field_mismatch', 409);
    if (r.code !== 'ok') throw new Error(`updateUser refused: ${r.code}`);
    await host.projected();
  }

  function needBox(): SecretBox {
    if (box === null) throw new AppError('secrets_unavailable', 503);
    return box;
  }

  /** The bound TOTP secret in clear, or null when not bound. */
  function boundSecret(userId: bigint, profile: Readonly<Record<string, string>>): string | null {
    const sealed = profile.googleSecret ?? '';
    if (sealed === '') return null;
    try {
      return needBox().open(sealed, `totp:${userId}`);
    } catch (err) {
      if (err instanceof SecretBoxError) {
        log.error({ userId: userId.toString() }, 'the bound TOTP secret cannot be opened (SECRETS_KEY or key file changed?)');
        throw new AppError('secrets_unavailable', 503);
      }
      throw err;
    }
  }

  /**
   * Checks a TOTP code against `secret`: refused while locked; a wrong or reused code counts toward the lock (5 in
   * 15 minutes); a right one claims its step (never accepted again) and clears the count.
   */
  async function checkTotp(userId: bigint, secret: string, code: string): Promise<void> {
    const t = now();
    const locked = await repo.lockedUntil(userId, KIND_TOTP, new Date(t));
    if (locked) throw new AppError('google_code_locked', 429, 'googleCode', { minutes: minutesLeft(locked.getTime(), t) });
    const step = matchTotp(secret, code, t);
    if (step !== null && (await repo.claimStep(userId, step))) {
      await repo.clearFailures(userId, KIND_TOTP);
      return;
    }
    const f = await repo.addFailure(userId, KIND_TOTP, TOTP_MAX_FAILURES, new Date(t - TOTP_WINDOW_MS), new Date(t), new Date(t + TOTP_LOCK_MS));
    if (f.lockedUntil) throw new AppError('google_code_locked', 429, 'googleCode', { minutes: minutesLeft(f.lockedUntil.getTime(), t) });
    throw new AppError('google_code_invalid', 400, 'googleCode');
  }

  /** The user's own addresses, e-mail first. */
  function ownAccounts(profile: Readonly<Record<string, string>>): Account[] {
    const out: Account[] = [];
    if ((profile.mail ?? '') !== '') out.push({ kind: 'email', mail: profile.mail! });
    if ((profile.phone ?? '') !== '') out.push({ kind: 'phone', phone: profile.phone!, areaCode: profile.areaCode || '86' });
    return out;
  }

  /** Consumes a VERIFY code sent to one of the user's own addresses (code_invalid when none matches). */
  async function consumeVerify(profile: Readonly<Record<string, string>>, code: string | undefined, field = 'verifyCode'): Promise<void> {
    if (code === undefined || code === '') throw new AppError('verify_code_required', 400, field);
    let last: unknown = new AppError('code_invalid', 400, field);
    for (const a of ownAccounts(profile)) {
      try {
        await members.codes.consume(a, 'VERIFY', code);
        return;
      } catch (err) {
        last = err;
      }
    }
    throw last;
  }

  async function secondFactor(
    userId: bigint,
    profile: Readonly<Record<string, string>>,
    input: { googleCode?: string | undefined; code?: string | undefined },
  ): Promise<void> {
    const secret = boundSecret(userId, profile);
    if (secret !== null) {
      if (input.googleCode === undefined || input.googleCode === '') throw new AppError('google_code_required', 400, 'googleCode');
      await checkTotp(userId, secret, input.googleCode);
      return;
    }
    await consumeVerify(profile, input.code);
  }

  async function hashTrans(transPassword: string): Promise<string> {
    return argon2.hash(transPassword, ARGON2_OPTIONS);
  }

  /** The rules of a new transaction password: exactly 6 digits, confirmed. */
  function checkTrans(transPassword: string, confirm: string): void {
    if (!/^[0-9]{6}$/.test(transPassword)) throw new AppError('trans_password_invalid', 400, 'transPassword');
    if (transPassword !== confirm) throw new AppError('trans_password_mismatch', 400, 'confirmTransPassword');
  }

  function lockFields(reason: WithdrawLockReason, t: number): Record<string, string> {
    return { withdrawLockUntil: String(t + WITHDRAW_LOCK_MS), withdrawLockReason: reason };
  }

  function lockOf(profile: Readonly<Record<string, string>>, t: number): WithdrawLock | null {
    const until = Number(profile.withdrawLockUntil ?? '0');
    const reason = profile.withdrawLockReason as WithdrawLockReason | undefined;
    if (!Number.isSafeInteger(until) || until <= t || reason === undefined) return null;
    return { until, reason };
  }

  const service: SecurityService = {
    // ---- LoginSecurity (member service) ----
    totpBound(userId) {
      const id = parseUserId(userId);
      return (id === null ? undefined : host.engine.user(id.toString()))?.profile.googleSecret ? true : false;
    },

    async verifyTotp(userId, code) {
      const u = userOf(userId);
      const secret = boundSecret(u.id, u.profile);
      if (secret === null) return;
      await checkTotp(u.id, secret, code);
    },

    lockFields,

    async record(userId, type, req, detail = '') {
      const id = parseUserId(userId);
      if (id === null) return;
      try {
        await repo.insertEvent({
          userId: id,
          type,
          detail,
          ip: req.ip.slice(0, 64),
          userAgent: req.userAgent.slice(0, USER_AGENT_MAX),
          createdAt: new Date(now()),
        });
      } catch (err) {
        log.error({ err, userId, type }, 'security log entry not written');
      }
    },

    // ---- the interface of other features ----
    async verifyTransactionPassword(userId, transPassword) {
      const u = userOf(userId);
      const hash = u.profile.transPasswordHash ?? '';
      if (hash === '') throw new AppError('trans_password_not_set', 400, 'transPassword');
      const t = now();
      const locked = await repo.lockedUntil(u.id, KIND_TRANS, new Date(t));
      if (locked) throw new AppError('trans_password_locked', 429, 'transPassword', { minutes: minutesLeft(locked.getTime(), t) });
      if (/^[0-9]{6}$/.test(transPassword) && (await argon2.verify(hash, transPassword))) {
        await repo.clearFailures(u.id, KIND_TRANS);
        return;
      }
      const f = await repo.addFailure(
        u.id,
        KIND_TRANS,
        TRANS_PASSWORD_MAX_FAILURES,
        new Date(t - TRANS_PASSWORD_WINDOW_MS),
        new Date(t),
        new Date(t + TRANS_PASSWORD_LOCK_MS),
      );
      if (f.lockedUntil) throw new AppError('trans_password_locked', 429, 'transPassword', { minutes: minutesLeft(f.lockedUntil.getTime(), t) });
      throw new AppError('trans_password_wrong', 400, 'transPassword');
    },

    withdrawalLock(userId) {
      const id = parseUserId(userId);
      const u = id === null ? undefined : host.engine.user(id.toString());
      return u ? lockOf(u.profile, now()) : null;
    },

    async verifySecondFactor(userId, input) {
      const u = userOf(userId);
      await secondFactor(u.id, u.profile, input);
    },

    recordSecurityEvent(userId, type, req, detail) {
      return service.record(userId, type, req, detail);
    },

    async sendVerifyCode(userId, channel, req) {
      const u = userOf(userId);
      const own = ownAccounts(u.profile);
      const a = channel === undefined ? own[0] : own.find((x) => (channel === 'EMAIL' ? x.kind === 'email' : x.kind === 'phone'));
      if (!a) throw new AppError('channel_not_bound', 400, 'channel');
      await members.codes.send({
        account: a.kind === 'email' ? a.mail : a.phone,
        areaCode: a.kind === 'phone' ? a.areaCode : undefined,
        type: 'VERIFY',
        ip: req.ip,
        lang: req.lang,
        pass: req.pass,
      });
    },

    // ---- the account centre ----
    async getSecurity(userId) {
      const u = userOf(userId);
      const p = u.profile;
      const last = await repo.latestEvent(u.id, 'LOGIN');
      return {
        phone: maskAccount(p.phone ?? ''),
        areaCode: (p.phone ?? '') === '' ? '' : p.areaCode || '86',
        mail: maskAccount(p.mail ?? ''),
        googleBound: (p.googleSecret ?? '') !== '',
        transPasswordSet: (p.transPasswordHash ?? '') !== '',
        withdrawLock: lockOf(p, now()),
        lastLogin: last ? { at: last.createdAt.getTime(), ip: last.ip } : null,
      };
    },

    async bindAccount(userId, input, req) {
      const u = userOf(userId);
      const account = input.bindType === 'EMAIL' ? parseEmail(input.mail, 'mail') : parsePhone(input.phone, input.areaCode, 'phone');
      const field = account.kind === 'email' ? 'mail' : 'phone';
      if ((u.profile[field] ?? '') !== '') throw new AppError('account_already_bound', 400, field);
      // The code sent to the new address first (a taken address never got one: code_invalid, as for registration),
      // then the second proof on the existing account.
      await members.codes.consume(account, 'BIND', input.code);
      await secondFactor(u.id, u.profile, { googleCode: input.googleCode, code: input.verifyCode });
      const profile: Record<string, string> = account.kind === 'email' ? { mail: account.mail } : { phone: account.phone, areaCode: account.areaCode };
      try {
        await update(u.id, profile, { expect: { [field]: '' }, addKeys: [userKeyOf(account)] });
      } catch (err) {
        if (err instanceof AppError && err.code === 'user_field_mismatch') throw new AppError('account_already_bound', 400, field);
        throw err;
      }
      await service.record(userId, 'ACCOUNT_BOUND', req, input.bindType);
    },

    async changePassword(userId, input, token, req) {
      const u = userOf(userId);
      checkPassword(input.password);
      if (input.password !== input.confirmPassword) throw new AppError('password_mismatch', 400, 'confirmPassword');
      if (!(await members.verifyPassword(userId, input.oldPassword))) throw new AppError('password_wrong', 400, 'oldPassword');
      if (input.password === input.oldPassword) throw new AppError('password_same', 400, 'password');
      await secondFactor(u.id, u.profile, { googleCode: input.googleCode, code: input.verifyCode });
      const t = now();
      const lock = lockFields('PASSWORD_CHANGED', t);
      await members.replacePassword(userId, input.password, lock, token);
      await service.record(userId, 'PASSWORD_CHANGED', req);
      return { until: Number(lock.withdrawLockUntil), reason: 'PASSWORD_CHANGED' };
    },

    async setTransPassword(userId, input, req) {
      const u = userOf(userId);
      if ((u.profile.transPasswordHash ?? '') !== '') throw new AppError('trans_password_already_set', 400);
      checkTrans(input.transPassword, input.confirmTransPassword);
      await secondFactor(u.id, u.profile, { googleCode: input.googleCode, code: input.verifyCode });
      try {
        await update(u.id, { transPasswordHash: await hashTrans(input.transPassword) }, { expect: { transPasswordHash: '' } });
      } catch (err) {
        if (err instanceof AppError && err.code === 'user_field_mismatch') throw new AppError('trans_password_already_set', 400);
        throw err;
      }
      await service.record(userId, 'TRANS_PASSWORD_SET', req);
    },

    async changeTransPassword(userId, input, req) {
      const u = userOf(userId);
      checkTrans(input.transPassword, input.confirmTransPassword);
      try {
        await service.verifyTransactionPassword(userId, input.oldTransPassword);
      } catch (err) {
        // The same checks, but about the field of this form.
        if (err instanceof AppError && err.field === 'transPassword') throw new AppError(err.code, err.status, 'oldTransPassword', err.params);
        throw err;
      }
      await update(u.id, { transPasswordHash: await hashTrans(input.transPassword) }, { expect: { transPasswordHash: u.profile.transPasswordHash ?? '' } });
      await service.record(userId, 'TRANS_PASSWORD_CHANGED', req);
    },

    async forgetTransPassword(userId, input, req) {
      const u = userOf(userId);
      if ((u.profile.transPasswordHash ?? '') === '') throw new AppError('trans_password_not_set', 400);
      checkTrans(input.transPassword, input.confirmTransPassword);
      const secret = boundSecret(u.id, u.profile);
      if (secret !== null && (input.googleCode === undefined || input.googleCode === '')) throw new AppError('google_code_required', 400, 'googleCode');
      await consumeVerify(u.profile, input.verifyCode);
      if (secret !== null) await checkTotp(u.id, secret, input.googleCode!);
      await update(u.id, { transPasswordHash: await hashTrans(input.transPassword) });
      await repo.clearFailures(u.id, KIND_TRANS);
      await service.record(userId, 'TRANS_PASSWORD_RESET', req);
    },

    // ---- Google authenticator ----
    async googleSecret(userId) {
      const u = userOf(userId);
      if ((u.profile.googleSecret ?? '') !== '') throw new AppError('google_already_bound', 400);
      const b = needBox();
      const t = now();
      const purpose = `totp-pending:${u.id}`;
      const pending = await repo.pendingSecret(u.id);
      let secret: string | null = null;
      if (pending && t - pending.createdAt.getTime() < PENDING_SECRET_TTL_MS) {
        try {
          secret = b.open(pending.sealedSecret, purpose);
        } catch (err) {
          if (!(err instanceof SecretBoxError)) throw err;
        }
      }
      if (secret === null) {
        secret = newTotpSecret();
        await repo.putPendingSecret(u.id, b.seal(secret, purpose), new Date(t));
      }
      const label = (u.profile.mail ?? '') !== '' ? u.profile.mail! : `+${u.profile.areaCode || '86'} ${u.profile.phone ?? ''}`;
      return { secret, otpauthUrl: totpUrl(secret, label) };
    },

    async bindGoogle(userId, googleCode, verifyCode, req) {
      const u = userOf(userId);
      if ((u.profile.googleSecret ?? '') !== '') throw new AppError('google_already_bound', 400);
      const b = needBox();
      // The VERIFY code first: without it nothing about the pending secret is looked at or counted.
      await consumeVerify(u.profile, verifyCode);
      const pending = await repo.pendingSecret(u.id);
      if (!pending || now() - pending.createdAt.getTime() >= PENDING_SECRET_TTL_MS) throw new AppError('google_secret_expired', 400);
      let secret: string;
      try {
        secret = b.open(pending.sealedSecret, `totp-pending:${u.id}`);
      } catch (err) {
        if (err instanceof SecretBoxError) throw new AppError('google_secret_expired', 400);
        throw err;
      }
      await checkTotp(u.id, secret, googleCode);
      try {
        await update(u.id, { googleSecret: b.seal(secret, `totp:${u.id}`) }, { expect: { googleSecret: '' } });
      } catch (err) {
        if (err instanceof AppError && err.code === 'user_field_mismatch') throw new AppError('google_already_bound', 400);
        throw err;
      }
      await repo.deletePendingSecret(u.id);
      await service.record(userId, 'GOOGLE_BOUND', req);
    },

    async closeGoogle(userId, googleCode, verifyCode, req) {
      const u = userOf(userId);
      const secret = boundSecret(u.id, u.profile);
      if (secret === null) throw new AppError('google_not_bound', 400);
      await checkTotp(u.id, secret, googleCode);
      await consumeVerify(u.profile, verifyCode);
      const lock = lockFields('GOOGLE_CLOSED', now());
      await update(u.id, { googleSecret: '', ...lock }, { expect: { googleSecret: u.profile.googleSecret ?? '' } });
      await service.record(userId, 'GOOGLE_CLOSED', req);
      return { until: Number(lock.withdrawLockUntil), reason: 'GOOGLE_CLOSED' };
    },

    // ---- sessions and the log ----
    async getSessions(userId, token) {
      const list = await members.listSessions(userId, token);
      return list.map((s) => ({ id: s.id, device: deviceOf(s.userAgent), ip: s.ip, createdAt: s.createdAt, lastSeenAt: s.lastSeenAt, current: s.current }));
    },

    async revokeSession(userId, sessionId, req) {
      if (!(await members.revokeSessionById(userId, sessionId))) throw new AppError('session_not_found', 404, 'id');
      await service.record(userId, 'SESSION_REVOKED', req);
    },

    async getSecurityLog(userId, pageNo, pageSize) {
      const u = userOf(userId);
      const { rows, total } = await repo.listEvents(u.id, (pageNo - 1) * pageSize, pageSize);
      const list: SecurityLogItem[] = rows.map((r) => ({
        id: r.id.toString(),
        type: r.type as SecurityLogItem['type'],
        detail: r.detail,
        ip: r.ip,
        device: deviceOf(r.userAgent),
        createdAt: r.createdAt.getTime(),
      }));
      return { list, total, pageNo, pageSize };
    },
  };
  return service;
}
