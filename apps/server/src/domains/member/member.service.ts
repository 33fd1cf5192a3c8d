/**
 * The member service: registration, login/logout, password reset, sessions, profile (nickname, invitation
 * code) and favourite pairs; it asks the puzzle and the verification codes of domains/verification.
 * Rules: passwords 8-20 characters, not only digits (spec sections 5 and 9), hashed with argon2id; session
 * tokens are 32 random bytes (base64url) stored as sha256, valid 7 days, revocable; logins are limited per
 * account (puzzle after 3 failures, locked after 5 within 15 minutes, counted atomically: see `login`) and per IP
 * (the puzzle after 20 failures; beyond 200, a lock of the accounts that failed from it only).
 *
 * Users are the engine's (ARCHITECTURE.md section 2, the engine): registration, password changes and the nickname are
 * journaled commands (registerUser/updateUser) through the engine host, so the user id that keys balances comes from
 * the journal and a lost database is rebuilt from it; the `users` table is their projection. Lookups by account read
 * the engine (authoritative); the rest reads the projection after waiting for it. Sessions, codes and favourites live
 * in the database only.
 */
import argon2 from 'argon2';
import type { CaptchaService } from '../verification/captcha.service';
import type { CodeService } from '../verification/code.service';
import type { FastifyBaseLogger } from 'fastify';
import type { Favorite, GeetestResult, Lang, Member, MarketType, Session, WsSessionEndReason } from '@exchange/api';
import type { Db } from '../../platform/db/client';
import type { Hooks } from '../../platform/shared/hooks';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import { AppError } from '../../platform/shared/errors';
import { accountKey, parseAccount, parseEmail, parsePhone, type Account } from '../../platform/shared/account';
import { createMemberRepository } from './member.repository';
import { isWellFormedToken, randomToken, randomUid, randomWelCode, sha256Hex } from '../../platform/shared/secrets';
import { ARGON2_OPTIONS, checkPassword } from '../../platform/shared/password';
import { parseUserId, userKeyOf } from '../../platform/shared/account';
import { USER_AGENT_MAX } from '../../platform/shared/auth';

/** Session lifetime. */
export const SESSION_TTL_MS = 7 * 24 * 60 * 60_000;
/** How long a session lookup's answer (live or not) is reused without asking the database again. */
export const SESSION_CACHE_MS = 5_000;
/** Live sessions kept in the cache (the oldest looked up is forgotten first). */
export const SESSION_CACHE_MAX = 50_000;
/** Token hashes known to name no live session, kept in the negative cache (forged tokens; oldest forgotten first). */
export const NO_SESSION_CACHE_MAX = 20_000;
/** Session lookups sent to the database at once; the rest wait their turn (see lookupSlot). */
export const SESSION_LOOKUPS_AT_ONCE = 4;
/** Window over which failed logins count. */
export const LOGIN_WINDOW_MS = 15 * 60_000;
/** Failed logins of an account after which the puzzle is required. */
export const LOGIN_CAPTCHA_AFTER = 3;
/** Failed logins of an account after which it is locked for the window. */
export const LOGIN_LOCK_AFTER = 5;
/**
 * Failed logins from one IP after which every login from it needs the puzzle. Not a lock: behind a proxy, one
 * attacker's failures must not lock out the proxy's other users.
 */
export const LOGIN_IP_CAPTCHA_AFTER = 20;
/** Failed logins from one IP after which the accounts that failed from it (and only those) are locked from it. */
export const LOGIN_IP_LOCK_AFTER = 200;
/** How long the failure rows are kept as the record of failed logins (the limits use login_counters). */
const LOGIN_FAILURE_RECORD_MS = 7 * 24 * 60 * 60_000;

/** Registration input (packages/api RegisterBody), after schema validation. */
export interface RegisterInput {
  registerType: 'EMAIL' | 'PHONE';
  mail?: string | undefined;
  phone?: string | undefined;
  areaCode?: string | undefined;
  code: string;
  password: string;
  confirmPassword: string;
  invitationCode?: string | undefined;
  agreement: boolean | string;
}

/** Login input (packages/api LoginBody). `googleCode`: the TOTP code, required once Google authenticator is bound. */
export interface LoginInput extends Partial<GeetestResult> {
  account: string;
  areaCode?: string | undefined;
  password: string;
  googleCode?: string | undefined;
}

/** Password reset input (packages/api ForgetPasswordBody). */
export interface ForgetPasswordInput {
  account: string;
  areaCode?: string | undefined;
  code: string;
  password: string;
  confirmPassword: string;
  /** the Google Authenticator code: required when the account has it bound */
  googleCode?: string | undefined;
}

/** Who is calling: IP (for limits), language (for code messages) and User-Agent (sessions and the security log). */
export interface CallerInfo {
  ip: string;
  lang: Lang;
  userAgent?: string | undefined;
}

/**
 * What login and password reset need from account security (domains/security implements it; defined here so the
 * member module does not import it): the second factor at login, the withdrawal lock after a reset, the log.
 */
export interface LoginSecurity {
  /** True when the user has Google authenticator bound (engine profile). */
  totpBound(userId: string): boolean;
  /** Checks a TOTP code of the user (window 1, once only); throws google_code_invalid or google_code_locked. */
  verifyTotp(userId: string, code: string): Promise<void>;
  /** Profile fields that put the 24 h withdrawal lock with `reason` from `now` (journaled with the change). */
  lockFields(reason: 'PASSWORD_CHANGED' | 'PASSWORD_RESET' | 'GOOGLE_CLOSED', now: number): Record<string, string>;
  /** Appends to the user's security log; never throws (a failure is logged). */
  record(userId: string, type: string, req: { ip: string; userAgent: string }, detail?: string): Promise<void>;
}

/** One live session of a user, for the devices list (ids are opaque, never the token or its hash). */
export interface SessionInfo {
  id: string;
  ip: string;
  userAgent: string;
  createdAt: number;
  lastSeenAt: number;
  current: boolean;
}

/** How often a session's last-seen time is written at most. */
export const SESSION_TOUCH_MS = 60_000;

export interface MemberService {
  /** The user id of a valid, unexpired, unrevoked session token whose owner is `userId`; else null. */
  authenticate(token: string, userId: string): Promise<string | null>;
  /**
   * Ends every session of the user at once: revokes them, forgets them in this process and fires
   * hooks.sessionsEnded (the user's WebSockets are unbound). For password change, 2FA change, account freeze.
   */
  endAllSessions(userId: string, reason: WsSessionEndReason): Promise<void>;
  /** The user's nickname ('' when not set, or when the user does not exist). */
  nickName(userId: string): Promise<string>;
  /** The slide puzzle (domains/verification). */
  captcha: CaptchaService;
  /** Verification codes (domains/verification). */
  codes: CodeService;
  /**
   * Registers a user, fires hooks.userRegistered and logs them in. Throws email_invalid, phone_invalid,
   * password_invalid, password_mismatch, agreement_required, invitation_invalid, code_invalid, and account_exists
   * only after a valid code (so it tells nothing to whoever does not own the address).
   */
  register(input: RegisterInput, caller: CallerInfo): Promise<Session>;
  /** Logs in. Throws login_locked (429), captcha_required, captcha_invalid, login_failed. */
  login(input: LoginInput, caller: CallerInfo): Promise<Session>;
  /** Revokes the session of `token` and ends it everywhere (hooks.sessionsEnded); a no-op when unknown. */
  logout(token: string): Promise<void>;
  /**
   * Resets a password with a FORGET code and revokes every session of the user; with account security wired, also
   * sets the 24 h withdrawal lock PASSWORD_RESET (spec section 9) and logs it. Throws password_invalid,
   * password_mismatch, code_invalid (also for an unknown account: the answer does not tell whether it exists).
   */
  forgetPassword(input: ForgetPasswordInput, caller?: CallerInfo): Promise<void>;
  /** True when `password` is the user's login password (argon2id check); false for an unknown user. */
  verifyPassword(userId: string, password: string): Promise<boolean>;
  /**
   * Sets a new login password (rule checked by the caller) with `extra` profile fields in the same journaled
   * change, then ends every session of the user except the one of `keepToken` (the security service's change password).
   */
  replacePassword(userId: string, password: string, extra: Record<string, string>, keepToken: string): Promise<void>;
  /** The user's live sessions, newest first; `current` marks the one of `token`. */
  listSessions(userId: string, token: string): Promise<SessionInfo[]>;
  /** Revokes the user's session `sessionId` and ends it everywhere (as logout); false when it is not theirs or not live. */
  revokeSessionById(userId: string, sessionId: string): Promise<boolean>;
  /** The member record (spec section 3) of an existing user; throws not_found. */
  getMember(userId: string): Promise<Member>;
  /** Sets the nickname once; throws nickname_required, nickname_already_set. */
  setNickName(userId: string, nickName: string): Promise<void>;
  /** The user's favourite pairs, optionally of one market type. */
  getFavorites(userId: string, type?: MarketType): Promise<Favorite[]>;
  /** Adds a favourite pair (idempotent); throws market_not_found for a pair that is not listed as `type`. */
  addFavorite(userId: string, pairsName: string, type: MarketType): Promise<void>;
  /** Removes a favourite pair (idempotent). */
  cancelFavorite(userId: string, pairsName: string, type: MarketType): Promise<void>;
  /** The user's invitation code. */
  welCode(userId: string): Promise<string>;
  /**
   * Creates an e-mail user directly (no code, no puzzle) unless the address is taken, firing
   * hooks.userRegistered when created. For the demo account.
   */
  ensureEmailUser(mail: string, password: string, nickName: string): Promise<{ userId: string; created: boolean }>;
}

function truthy(v: boolean | string): boolean {
  return v === true || v === 'true' || v === '1';
}

/**
 * The member record (spec section 3) of an engine user: the profile fields the member service journals
 * (registerUser/updateUser), with the projection's defaults (member.projection.ts userRow: no area code = 86).
 */
function toMember(userId: bigint, p: Readonly<Record<string, string>>): Member {
  return {
    userId: userId.toString(),
    uuid: p.uuid ?? '',
    nickName: p.nickName ?? '',
    phone: p.phone ?? '',
    mail: p.mail ?? '',
    areaCode: p.areaCode || '86',
    cardNo: p.cardNo ?? '',
    cardState: p.cardState ?? '',
  };
}

/**
 * Builds the member service over the verification domain's puzzle and codes. Optional: `now` (Unix ms clock).
 */
export function createMemberService(deps: {
  db: Db;
  log: FastifyBaseLogger;
  hooks: Hooks;
  host: EnginePort;
  /** the slide puzzle and the verification codes (domains/verification) */
  captcha: CaptchaService;
  codes: CodeService;
  now?: () => number;
  /** Account security (login 2FA, locks, the log); without it, logins need no second factor. */
  security?: () => LoginSecurity | undefined;
}): MemberService {
  const { db, log, hooks, host } = deps;
  const security = deps.security ?? (() => undefined);
  const now = deps.now ?? Date.now;
  const repo = createMemberRepository(db);
  const { captcha, codes } = deps;
  let dummyHash: Promise<string> | undefined;
  let loginPurgeAtMs = 0;

  /** Deletes stale login counters and old failure rows, at most once a minute per process. */
  async function purgeLoginRecords(t: number): Promise<void> {
    if (t < loginPurgeAtMs) return;
    loginPurgeAtMs = t + 60_000;
    await repo.purgeLoginRecords(new Date(t - LOGIN_WINDOW_MS), new Date(t - LOGIN_FAILURE_RECORD_MS));
  }

  /**
   * The engine's record of a user (authoritative and current: no database round trip, no wait for the projection);
   * throws not_found.
   */
  function userOf(userId: string): { id: bigint; profile: Readonly<Record<string, string>> } {
    const id = parseUserId(userId);
    const u = id === null ? undefined : host.engine.user(id.toString());
    if (id === null || !u) throw new AppError('not_found', 404);
    return { id, profile: u.profile };
  }

  async function startSession(userId: bigint, caller?: CallerInfo): Promise<Session> {
    const token = randomToken();
    const t = now();
    const expiresAt = t + SESSION_TTL_MS;
    await repo.insertSession({
      tokenHash: sha256Hex(token),
      userId,
      createdAt: new Date(t),
      expiresAt: new Date(expiresAt),
      ip: caller?.ip ?? '',
      userAgent: (caller?.userAgent ?? '').slice(0, USER_AGENT_MAX),
    });
    return { token, userId: userId.toString(), expiresAt };
  }

  /** The request fields of the security log. */
  function where(caller?: CallerInfo): { ip: string; userAgent: string } {
    return { ip: caller?.ip ?? '', userAgent: (caller?.userAgent ?? '').slice(0, USER_AGENT_MAX) };
  }

  /**
   * Refreshes a session's last-seen time when the last write is SESSION_TOUCH_MS old (so not on every request);
   * not awaited by the request, a failure is only logged.
   */
  function touch(entry: { sessionId: bigint; touchedAtMs: number }, t: number): void {
    if (t - entry.touchedAtMs < SESSION_TOUCH_MS) return;
    entry.touchedAtMs = t;
    repo.touchSession(entry.sessionId, new Date(t)).catch((err: unknown) => log.warn({ err }, 'session last-seen not written'));
  }

  /**
   * Registers a user through the journal (registerUser) with fresh uuid and welCode (retrying their rare
   * collisions), waits until the users row is projected, and returns the engine's id; account_exists on a taken
   * account.
   */
  async function createUser(account: Account, password: string, nickName: string, invitedBy: bigint | null): Promise<bigint> {
    const passwordHash = await argon2.hash(password, ARGON2_OPTIONS);
    for (let attempt = 0; ; attempt++) {
      const uuid = randomUid();
      const welCode = randomWelCode();
      const profile: Record<string, string> = {
        uuid,
        mail: account.kind === 'email' ? account.mail : '',
        phone: account.kind === 'phone' ? account.phone : '',
        areaCode: account.kind === 'phone' ? account.areaCode : '86',
        passwordHash,
        nickName,
        welCode,
        invitedBy: invitedBy === null ? '' : invitedBy.toString(),
      };
      const r = await host.submit({ type: 'registerUser', account: userKeyOf(account), uniqueKeys: [`uuid:${uuid}`, `wel:${welCode}`], profile });
      if (r.code === 'account_exists') throw new AppError('account_exists', 400);
      if (r.code === 'user_key_taken' && attempt < 5) continue;
      if (r.code !== 'ok' || r.userId === undefined) throw new Error(`registerUser refused: ${r.code}`);
      await host.projected();
      return BigInt(r.userId);
    }
  }

  /** The engine's record of the account's user, or undefined. */
  function userByAccount(account: Account): { id: bigint; profile: Record<string, string> } | undefined {
    const id = host.engine.userByKey(userKeyOf(account));
    const u = id === undefined ? undefined : host.engine.user(id);
    return u === undefined ? undefined : { id: BigInt(u.userId), profile: u.profile };
  }

  async function fireRegistered(userId: bigint): Promise<void> {
    for (const listener of hooks.userRegistered) {
      try {
        await listener(userId.toString());
      } catch (err) {
        log.error({ err, userId: userId.toString() }, 'userRegistered listener failed');
      }
    }
  }

  /**
   * Session lookups, by token hash, so that neither an authenticated request nor a forged token costs a database
   * round trip each time (the embedded PGlite serves one query at a time on the main thread: 20,000 WebSocket auth
   * messages with forged tokens once froze /healthz for seconds). Live sessions go to `sessionCache`, hashes with no
   * live session to `noSessionCache`, each answer reused for SESSION_CACHE_MS; concurrent lookups of one hash share
   * one query. A session ended in this process is forgotten at once (`sessionsEnded`); one revoked by another
   * process (several gateways on one PostgreSQL) is seen within SESSION_CACHE_MS. Expiry is always checked against
   * the clock. Both maps are bounded; their insertion order is the eviction order.
   */
  const sessionCache = new Map<string, { userId: bigint; expiresAtMs: number; checkedAtMs: number; sessionId: bigint; touchedAtMs: number }>();
  const noSessionCache = new Map<string, number>();
  /** Lookups in flight by hash; `stale` when its session (or all its user's, `endedUsers`) ended meanwhile. */
  const lookups = new Map<string, { done: Promise<bigint | null>; stale: boolean; endedUsers: Set<bigint> }>();

  let lookupsRunning = 0;
  const lookupsWaiting: Array<() => void> = [];

  /**
   * Waits for one of SESSION_LOOKUPS_AT_ONCE database slots, granted from a fresh turn of the event loop
   * (setImmediate): a burst of lookups (distinct forged tokens) then runs a few per turn with I/O served in between,
   * instead of back to back in one chain of promises that holds /healthz and every other request for seconds.
   */
  function lookupSlot(): Promise<() => void> {
    return new Promise((resolve) => {
      lookupsWaiting.push(() => {
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          lookupsRunning--;
          grantLookups();
        });
      });
      grantLookups();
    });
  }

  function grantLookups(): void {
    while (lookupsRunning < SESSION_LOOKUPS_AT_ONCE && lookupsWaiting.length > 0) {
      lookupsRunning++;
      setImmediate(lookupsWaiting.shift()!);
    }
  }

  function remember<V>(cache: Map<string, V>, max: number, hash: string, value: V): void {
    cache.delete(hash);
    if (cache.size >= max) cache.delete(cache.keys().next().value as string);
    cache.set(hash, value);
  }

  /**
   * The owner of the live session with this token hash, or null, from the database, remembered either way. A lookup
   * that raced with the end of its session is asked again: sessions end only after their revocation is written, so
   * the next answer sees it (and a stale "live" is never cached or returned).
   */
  function lookUpSession(hash: string): Promise<bigint | null> {
    const running = lookups.get(hash);
    if (running) return running.done;
    const entry = { done: Promise.resolve<bigint | null>(null), stale: false, endedUsers: new Set<bigint>() };
    entry.done = (async () => {
      try {
        for (let attempt = 0; attempt < 5; attempt++) {
          entry.stale = false;
          entry.endedUsers.clear();
          const release = await lookupSlot();
          const t = now();
          let found: Awaited<ReturnType<typeof repo.liveSession>>;
          try {
            found = await repo.liveSession(hash, new Date(t));
          } finally {
            release();
          }
          if (entry.stale || (found && entry.endedUsers.has(found.userId))) continue;
          // A session issued before the user's last password reset (journaled) is dead even if its revocation row
          // was lost with the database.
          const validFrom = Number((found && host.engine.user(found.userId.toString())?.profile.sessionsValidFrom) ?? '0');
          if (!found || found.expiresAt.getTime() - SESSION_TTL_MS < validFrom) {
            sessionCache.delete(hash);
            remember(noSessionCache, NO_SESSION_CACHE_MAX, hash, t);
            return null;
          }
          noSessionCache.delete(hash);
          const live = {
            userId: found.userId,
            expiresAtMs: found.expiresAt.getTime(),
            checkedAtMs: t,
            sessionId: found.id,
            touchedAtMs: found.lastSeenAt?.getTime() ?? found.expiresAt.getTime() - SESSION_TTL_MS,
          };
          remember(sessionCache, SESSION_CACHE_MAX, hash, live);
          touch(live, t);
          return found.userId;
        }
        return null; // ended again and again while being looked up: treat as ended
      } finally {
        lookups.delete(hash);
      }
    })();
    lookups.set(hash, entry);
    return entry.done;
  }

  /**
   * Forgets ended sessions in this process and fires hooks.sessionsEnded. Called after their revocation is written,
   * so that a lookup racing with it is asked again (see lookUpSession) and sees the revocation.
   */
  function sessionsEnded(userId: bigint, reason: WsSessionEndReason, tokenHash?: string): void {
    if (tokenHash !== undefined) {
      sessionCache.delete(tokenHash);
      const running = lookups.get(tokenHash);
      if (running) running.stale = true;
    } else {
      for (const [hash, entry] of sessionCache) if (entry.userId === userId) sessionCache.delete(hash);
      for (const running of lookups.values()) running.endedUsers.add(userId);
    }
    const event = tokenHash === undefined ? { userId: userId.toString(), reason } : { userId: userId.toString(), tokenHash, reason };
    for (const listener of hooks.sessionsEnded) {
      try {
        listener(event);
      } catch (err) {
        log.error({ err, userId: event.userId }, 'sessionsEnded listener failed');
      }
    }
  }

  /** Revokes every session of the user, then ends them everywhere in this process. */
  async function endUserSessions(userId: bigint, reason: WsSessionEndReason): Promise<void> {
    await repo.revokeAllSessions(userId, new Date(now()));
    sessionsEnded(userId, reason);
  }

  return {
    captcha,
    codes,

    async authenticate(token, userId) {
      const id = parseUserId(userId);
      // A token that is not of the form issued never reaches the database.
      if (id === null || !isWellFormedToken(token)) return null;
      const hash = sha256Hex(token);
      const t = now();
      const hit = sessionCache.get(hash);
      if (hit && t - hit.checkedAtMs < SESSION_CACHE_MS) {
        if (hit.userId === id && t < hit.expiresAtMs) {
          touch(hit, t);
          return id.toString();
        }
        // Expired, or presented with another user's id: refused without a query, and forgotten so that its next use
        // is checked against the database again.
        sessionCache.delete(hash);
        return null;
      }
      const miss = noSessionCache.get(hash);
      if (miss !== undefined && t - miss < SESSION_CACHE_MS) return null;
      const owner = await lookUpSession(hash);
      return owner === id ? id.toString() : null;
    },

    async endAllSessions(userId, reason) {
      const id = parseUserId(userId);
      if (id !== null) await endUserSessions(id, reason);
    },

    async nickName(userId) {
      const id = parseUserId(userId);
      return (id === null ? undefined : host.engine.user(id.toString()))?.profile.nickName ?? '';
    },

    async register(input) {
      const account = input.registerType === 'EMAIL' ? parseEmail(input.mail, 'mail') : parsePhone(input.phone, input.areaCode, 'phone');
      checkPassword(input.password);
      if (input.password !== input.confirmPassword) throw new AppError('password_mismatch', 400, 'confirmPassword');
      if (!truthy(input.agreement)) throw new AppError('agreement_required', 400, 'agreement');
      let invitedBy: bigint | null = null;
      const invitation = (input.invitationCode ?? '').trim().toUpperCase();
      if (invitation !== '') {
        const inviter = await repo.findByWelCode(invitation);
        if (!inviter) throw new AppError('invitation_invalid', 400, 'invitationCode');
        invitedBy = inviter.id;
      }
      // The code first: sendCode gives no REGISTER code for a taken account (against account enumeration), so a wrong or absent
      // code answers code_invalid whether or not the account exists, and account_exists after a valid code (a
      // registration that won a race) tells the code's owner nothing new.
      await codes.consume(account, 'REGISTER', input.code);
      if (userByAccount(account)) throw new AppError('account_exists', 400);
      const id = await createUser(account, input.password, '', invitedBy);
      await fireRegistered(id);
      return startSession(id);
    },

    async login(input, caller) {
      const account = parseAccount(input.account, input.areaCode);
      const key = accountKey(account);
      const t = now();
      const since = new Date(t - LOGIN_WINDOW_MS);
      await purgeLoginRecords(t);
      const accountCounter = { account: key, ip: '' };
      const ipCounter = { account: '', ip: caller.ip };
      // The attempt is counted and checked against the lock in one statement before any password is checked, so
      // parallel attempts get distinct numbers: a burst has at most LOGIN_LOCK_AFTER passwords checked, and the
      // 4th and 5th need the puzzle however they arrive. The IP's counter likewise (failures and attempts in flight).
      const nth = await repo.takeLoginAttempt(accountCounter, LOGIN_LOCK_AFTER, since, new Date(t));
      if (nth === null) throw new AppError('login_locked', 429);
      // In flight: counted now, given back on success; only a failure extends the IP's window (countFailure).
      const ipNth = await repo.addLoginAttempts(ipCounter, 1, since, new Date(t), false);
      let user: ReturnType<typeof userByAccount>;
      try {
        if (ipNth > LOGIN_IP_LOCK_AFTER && (await repo.loginAttempts({ account: key, ip: caller.ip }, since)) > 0) {
          throw new AppError('login_locked', 429);
        }
        if (nth > LOGIN_CAPTCHA_AFTER || ipNth > LOGIN_IP_CAPTCHA_AFTER) await captcha.consume(input);
        user = userByAccount(account);
      } catch (err) {
        // No password was checked: the attempt does not count.
        await Promise.allSettled([repo.releaseLoginAttempt(accountCounter), repo.releaseLoginAttempt(ipCounter)]);
        throw err;
      }
      let okPassword = false;
      if (user) {
        okPassword = await argon2.verify(user.profile.passwordHash ?? '', input.password);
      } else {
        // Same work for unknown accounts, so timing does not reveal which accounts exist.
        dummyHash ??= argon2.hash(randomToken(), ARGON2_OPTIONS);
        await argon2.verify(await dummyHash, input.password);
      }
      /** Counted already on the account's and the IP's counters; the account's failures from this IP as well. */
      const countFailure = async (why: string) => {
        await repo.addLoginAttempts({ account: key, ip: caller.ip }, 1, since, new Date(now()));
        // The IP's attempt stays counted as a failure, and its window now runs from this failure.
        await repo.addLoginAttempts(ipCounter, 0, since, new Date(now()));
        await repo.addFailure(key, caller.ip, new Date(now()));
        if (user) await security()?.record(user.id.toString(), 'LOGIN_FAILED', where(caller), why);
      };
      if (!user || !okPassword) {
        await countFailure('PASSWORD');
        throw new AppError('login_failed', 400);
      }
      // Google authenticator bound: the TOTP code too, asked for only after the password checked out; a wrong one
      // counts as a failed login (and on the TOTP lock of domains/security).
      const sec = security();
      if (sec?.totpBound(user.id.toString())) {
        if (input.googleCode === undefined || input.googleCode === '') {
          // Not a failure, but no session: the attempt is given back, the client asks for the code and retries.
          await Promise.allSettled([repo.releaseLoginAttempt(accountCounter), repo.releaseLoginAttempt(ipCounter)]);
          throw new AppError('google_code_required', 400, 'googleCode');
        }
        try {
          await sec.verifyTotp(user.id.toString(), input.googleCode);
        } catch (err) {
          await countFailure('GOOGLE');
          throw err;
        }
      }
      await repo.releaseLoginAttempt(ipCounter);
      await repo.clearFailures(key);
      const session = await startSession(user.id, caller);
      await sec?.record(user.id.toString(), 'LOGIN', where(caller));
      return session;
    },

    async logout(token) {
      const hash = sha256Hex(token);
      sessionCache.delete(hash);
      const owner = await repo.revokeSession(hash, new Date(now()));
      if (owner !== null) sessionsEnded(owner, 'logout', hash);
    },

    async forgetPassword(input, caller) {
      const account = parseAccount(input.account, input.areaCode);
      checkPassword(input.password);
      if (input.password !== input.confirmPassword) throw new AppError('password_mismatch', 400, 'confirmPassword');
      // The code first, and code_invalid for an unknown account too: sendCode gives no FORGET code for one, so the
      // answer never tells whether an account exists.
      await codes.check(account, 'FORGET', input.code);
      const user = userByAccount(account);
      if (!user) throw new AppError('code_invalid', 400, 'code');
      // Google authenticator bound: its code too, as login asks (the e-mail code alone must not take the account);
      // without one the e-mail code stays live, so the client asks for the Google code and sends both again.
      const sec = security();
      if (sec?.totpBound(user.id.toString())) {
        if (input.googleCode === undefined || input.googleCode === '') throw new AppError('google_code_required', 400, 'googleCode');
        await sec.verifyTotp(user.id.toString(), input.googleCode);
      }
      await codes.consume(account, 'FORGET', input.code);
      const passwordHash = await argon2.hash(input.password, ARGON2_OPTIONS);
      // Journaled with the time of the change: sessions issued before it are refused by authenticate even if the
      // database (where the revocations below are written) is lost or rolled back.
      // The 24 h withdrawal lock (spec section 9) is journaled with the new password: one change, never half of it.
      const t = now();
      const lock = security()?.lockFields('PASSWORD_RESET', t) ?? {};
      const r = await host.submit({ type: 'updateUser', userId: user.id.toString(), profile: { passwordHash, sessionsValidFrom: String(t), ...lock } });
      if (r.code !== 'ok') throw new Error(`updateUser refused: ${r.code}`);
      await host.projected();
      await endUserSessions(user.id, 'password_reset');
      await repo.clearFailures(accountKey(account));
      await security()?.record(user.id.toString(), 'PASSWORD_RESET', where(caller));
    },

    async verifyPassword(userId, password) {
      const id = parseUserId(userId);
      const u = id === null ? undefined : host.engine.user(id.toString());
      if (!u) return false;
      return argon2.verify(u.profile.passwordHash ?? '', password);
    },

    async replacePassword(userId, password, extra, keepToken) {
      const u = userOf(userId);
      const passwordHash = await argon2.hash(password, ARGON2_OPTIONS);
      const r = await host.submit({ type: 'updateUser', userId: u.id.toString(), profile: { ...extra, passwordHash } });
      if (r.code !== 'ok') throw new Error(`updateUser refused: ${r.code}`);
      await host.projected();
      const ended = await repo.revokeOtherSessions(u.id, sha256Hex(keepToken), new Date(now()));
      for (const hash of ended) sessionsEnded(u.id, 'password_change', hash);
    },

    async listSessions(userId, token) {
      const u = userOf(userId);
      const mine = sha256Hex(token);
      const rows = await repo.listLiveSessions(u.id, new Date(now()));
      const validFrom = Number(u.profile.sessionsValidFrom ?? '0');
      return rows
        .filter((r) => r.createdAt.getTime() >= validFrom)
        .map((r) => ({
          id: r.id.toString(),
          ip: r.ip,
          userAgent: r.userAgent,
          createdAt: r.createdAt.getTime(),
          lastSeenAt: (r.lastSeenAt ?? r.createdAt).getTime(),
          current: r.tokenHash === mine,
        }));
    },

    async revokeSessionById(userId, sessionId) {
      const u = userOf(userId);
      // Session ids are bigint identities: the same form and range as user ids (a larger one names no session).
      const sid = parseUserId(sessionId);
      if (sid === null) return false;
      const hash = await repo.revokeSessionOf(u.id, sid, new Date(now()));
      if (hash === null) return false;
      sessionsEnded(u.id, 'logout', hash);
      return true;
    },

    async getMember(userId) {
      const u = userOf(userId);
      return toMember(u.id, u.profile);
    },

    async setNickName(userId, nickName) {
      const nick = nickName.trim();
      if (nick === '') throw new AppError('nickname_required', 400, 'nickName');
      const u = userOf(userId);
      const r = await host.submit({ type: 'updateUser', userId: u.id.toString(), profile: { nickName: nick }, expect: { nickName: '' } });
      if (r.code === 'user_field_mismatch') throw new AppError('nickname_already_set', 400);
      if (r.code !== 'ok') throw new Error(`updateUser refused: ${r.code}`);
      await host.projected();
    },

    async getFavorites(userId, type) {
      const u = userOf(userId);
      return (await repo.listFavorites(u.id, type)).map((f) => ({ pairsName: f.pairsName, type: f.type as MarketType }));
    },

    async addFavorite(userId, pairsName, type) {
      const u = userOf(userId);
      if (!(await repo.isListed(pairsName, type))) throw new AppError('market_not_found', 400, 'pairsName');
      await repo.addFavorite(u.id, pairsName, type);
    },

    async cancelFavorite(userId, pairsName, type) {
      const u = userOf(userId);
      await repo.removeFavorite(u.id, pairsName, type);
    },

    async welCode(userId) {
      return userOf(userId).profile.welCode ?? '';
    },

    async ensureEmailUser(mail, password, nickName) {
      const account = parseEmail(mail);
      const existing = userByAccount(account);
      if (existing) return { userId: existing.id.toString(), created: false };
      try {
        const id = await createUser(account, password, nickName, null);
        await fireRegistered(id);
        return { userId: id.toString(), created: true };
      } catch (err) {
        // Created meanwhile by a concurrent call.
        const again = userByAccount(account);
        if (again) return { userId: again.id.toString(), created: false };
        throw err;
      }
    },
  };
}
