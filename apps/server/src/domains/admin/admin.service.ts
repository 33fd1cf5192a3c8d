/**
 * The operator console service: operator accounts (separate from users; argon2id password,
 * mandatory TOTP with its secret sealed at rest), short-lived sessions (30 minutes idle, 8 hours at most, revoked on
 * logout), the append-only audit log, user lookup and detail (read from the engine: authoritative), freeze and
 * unfreeze (the engine profile field `frozen`, which the engine enforces on orders and transfers), and the KYC review
 * queue over the KYC service's port.
 *
 * Every operator action writes one audit row in the same transaction as its effect: database-only actions through the
 * repository's transactions; actions that change an engine user (freeze, KYC decisions) put the audit record on the
 * updateUser command (`audit`), and the projector writes the row in the transaction that projects the change, so the
 * journal holds it too. Logins (failed ones as well), logouts and views of KYC images are logged.
 */
import { engineAuditRecord, isRole, type Actor, type RequestOrigin } from '../../platform/shared/operator';
import crypto from 'node:crypto';
import argon2 from 'argon2';
import { ACCOUNT_KINDS, formatDecimal } from '@exchange/core';
import type {
  AdminAuditPage,
  AdminKycApplication,
  AdminKycPage,
  AdminSession,
  AdminUserDetail,
  AdminUserRow,
  Operator,
  OperatorCredentials,
  OperatorRole,
} from '@exchange/api';
import type { Db } from '../../platform/db/client';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import { AppError } from '../../platform/shared/errors';
import { randomToken, sha256Hex } from '../../platform/shared/secrets';
import { createAdminRepository, type AuditInsert, type OperatorRow } from './admin.repository';
import type { KycPort } from './kyc-port';
import type { SecretBox } from '../../platform/shared/secret-box';
import { newTotpSecret, otpauthUrl, totpStep } from './totp';

/** A session ends this long after its last use. */
export const ADMIN_IDLE_MS = 30 * 60_000;
/** A session ends this long after it began, however busy. */
export const ADMIN_MAX_MS = 8 * 60 * 60_000;
/** A session's last use is written at most this often (a console polls; one write a minute is plenty). */
const TOUCH_EVERY_MS = 60_000;
/** Failed logins within the window after which an e-mail is locked (whatever the IP). */
export const ADMIN_LOCK_AFTER = 5;
/** Failed logins from one IP within the window after which every console login from it is refused. */
export const ADMIN_IP_LOCK_AFTER = 20;
/** Window over which failed logins count. */
export const ADMIN_LOGIN_WINDOW_MS = 15 * 60_000;
/** argon2id parameters (OWASP's minimum, as member.service). */
const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
const PASSWORD_ALPHABET = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** The purpose the operators' TOTP secrets are sealed for (platform/shared/secret-box.ts binds it as associated data). */
const TOTP_PURPOSE = 'operator-totp';

/** The console service. Every method that changes anything writes its audit row with the change. */
export interface AdminService {
  /** Logs an operator in (e-mail + password + TOTP in one step). Throws admin_login_locked (429), admin_login_failed. */
  login(input: { email: string; password: string; totp: string }, origin: RequestOrigin): Promise<AdminSession>;
  /** The operator of a live session token (sliding its idle timer), or null. */
  authenticate(token: string, origin: RequestOrigin): Promise<Actor | null>;
  /** Revokes the actor's session (audit row `logout`). */
  logout(actor: Actor): Promise<void>;
  /** The actor as an operator record. */
  me(actor: Actor): Promise<Operator>;
  /** Users matching a UID, e-mail or phone (read from the engine); empty when none. */
  searchUsers(q: string): Promise<AdminUserRow[]>;
  /** One user's profile, KYC applications, sessions and balances; throws user_not_found. */
  userDetail(userId: string): Promise<AdminUserDetail>;
  /** Freezes (or unfreezes) a user through the engine with the audit record; admin_already_frozen / admin_not_frozen. */
  setFrozen(actor: Actor, userId: string, frozen: boolean, reason: string): Promise<void>;
  /** One page of the audit log, newest first. */
  auditLog(filter: {
    operatorId?: string;
    action?: string;
    userId?: string;
    from?: number;
    to?: number;
    page: number;
    pageSize: number;
  }): Promise<AdminAuditPage>;
  /** One page of KYC applications, pending first. Throws admin_kyc_unavailable without a KYC service. */
  kycList(filter: { state?: 'PENDING' | 'PASS' | 'REJECTED'; level?: 'BASIC' | 'ADVANCED'; page: number; pageSize: number }): Promise<AdminKycPage>;
  /** One KYC application; admin_kyc_not_found. */
  kycApplication(id: string): Promise<AdminKycApplication>;
  /** An image of an application, with an audit row `kyc_image_view`; not_found. */
  kycImage(actor: Actor, imageId: string): Promise<{ bytes: Buffer; mime: string }>;
  /** Approves or rejects (reason in zh and en) a pending application; the audit record rides the engine command. */
  kycDecide(actor: Actor, id: string, decision: { approve: true } | { approve: false; reasonZh: string; reasonEn: string }): Promise<void>;
  /** Every operator (admin). */
  listOperators(): Promise<Operator[]>;
  /**
   * Creates an operator with a generated password and TOTP secret, returned once. `actor` null = the command line
   * (audited as operator "cli"). `demo` = the documented credentials of the demo operator (demo-operator.ts; demo mode
   * only). Throws operator_exists, email_invalid, validation_failed.
   */
  createOperator(
    actor: Actor | null,
    input: { email: string; name: string; role: string },
    demo?: { password: string; totpSecret: string },
  ): Promise<OperatorCredentials>;
  /** Disables (revoking its sessions) or enables an operator; operator_not_found, operator_self. */
  setOperatorDisabled(actor: Actor, operatorId: string, disabled: boolean): Promise<void>;
  /** Gives an operator a new TOTP secret (returned once); its sessions are revoked. operator_not_found. */
  resetOperatorTotp(actor: Actor, operatorId: string): Promise<{ totpSecret: string; otpauthUrl: string }>;
}

/** Lower-cased, trimmed e-mail when it looks like one; else null. */
function normEmail(s: string): string | null {
  const e = s.trim().toLowerCase();
  return /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{1,63}$/.test(e) ? e : null;
}

/** A generated operator password: 16 characters drawn uniformly (CSPRNG) from an unambiguous alphabet (~93 bits). */
function generatePassword(): string {
  let s = '';
  for (let i = 0; i < 16; i++) s += PASSWORD_ALPHABET[crypto.randomInt(PASSWORD_ALPHABET.length)];
  return s;
}

/** The wire form of an operator row. */
function toOperator(o: OperatorRow): Operator {
  return {
    id: o.id.toString(),
    email: o.email,
    name: o.name,
    role: (isRole(o.role) ? o.role : 'support') as OperatorRole,
    disabled: o.disabled,
    createdAt: o.createdAt.getTime(),
  };
}

/** The user id of a wire id, or null. */
function parseId(s: string | undefined): bigint | null {
  return s !== undefined && /^[1-9][0-9]{0,17}$/.test(s) ? BigInt(s) : null;
}

/** Builds the console service. `now` (Unix ms clock) and `kyc` (the KYC service's port) are optional. */
export function createAdminService(deps: {
  db: Db;
  host: EnginePort;
  box: SecretBox | null;
  kyc?: () => KycPort | undefined;
  now?: () => number;
}): AdminService {
  const { host } = deps;
  /** The secret box; without one (scale-out mode without SECRETS_KEY) no TOTP can be sealed or checked. */
  function box(): SecretBox {
    if (!deps.box) throw new AppError('service_unavailable', 503);
    return deps.box;
  }
  const now = deps.now ?? Date.now;
  const repo = createAdminRepository(deps.db);
  let dummyHash: Promise<string> | undefined;

  function kyc(): KycPort {
    const k = deps.kyc?.();
    if (!k) throw new AppError('admin_kyc_unavailable', 400);
    return k;
  }

  /** An audit row of a database-only action by `actor` (null = the command line; id null = an unknown e-mail's login). */
  function auditRow(
    actor: { id: bigint | null; email: string; ip: string; userAgent: string } | null,
    action: string,
    extra: Partial<AuditInsert> = {},
  ): AuditInsert {
    return {
      operatorId: actor?.id ?? null,
      operatorEmail: actor?.email ?? 'cli',
      action,
      at: new Date(now()),
      ip: actor?.ip ?? '',
      userAgent: actor?.userAgent ?? '',
      ...extra,
    };
  }

  function userRowOf(userId: string): AdminUserRow | null {
    const u = host.engine.user(userId);
    if (!u) return null;
    const p = u.profile;
    return {
      userId,
      uuid: p.uuid ?? '',
      mail: p.mail ?? '',
      phone: p.phone ?? '',
      areaCode: p.areaCode || '86',
      nickName: p.nickName ?? '',
      cardState: p.cardState ?? '',
      frozen: p.frozen === '1',
    };
  }

  return {
    async login(input, origin) {
      const email = normEmail(input.email) ?? input.email.trim().toLowerCase().slice(0, 254);
      const t = now();
      const since = new Date(t - ADMIN_LOGIN_WINDOW_MS);
      const failures = await repo.loginFailures(email, origin.ip, since);
      if (failures.byEmail >= ADMIN_LOCK_AFTER || failures.byIp >= ADMIN_IP_LOCK_AFTER) throw new AppError('admin_login_locked', 429);
      const op = await repo.operatorByEmail(email);
      let ok = false;
      let step: number | null = null;
      if (op) {
        ok = await argon2.verify(op.passwordHash, input.password);
        if (ok) {
          step = totpStep(box().open(op.totpSecret, TOTP_PURPOSE), input.totp, t);
          // A code is accepted once (a watched or replayed code cannot log in again), across processes.
          ok = step !== null && !op.disabled && (await repo.takeTotpStep(op.id, step));
        }
      } else {
        // Same work for an unknown e-mail, so timing does not tell which operators exist.
        dummyHash ??= argon2.hash(randomToken(), ARGON2_OPTIONS);
        await argon2.verify(await dummyHash, input.password);
      }
      if (!op || !ok) {
        await repo.addLoginFailure(
          email,
          origin.ip,
          new Date(t),
          auditRow({ id: op?.id ?? null, email: op?.email ?? email, ...origin }, 'login_failed'),
          new Date(t - 24 * 60 * 60_000),
        );
        throw new AppError('admin_login_failed', 400);
      }
      const token = randomToken();
      await repo.insertSession(sha256Hex(token), op.id, op.email, new Date(t), auditRow({ id: op.id, email: op.email, ...origin }, 'login'));
      return { token, expiresAt: t + ADMIN_MAX_MS, operator: toOperator(op) };
    },

    async authenticate(token, origin) {
      if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
      const s = await repo.liveSession(sha256Hex(token));
      if (!s || s.operator.disabled || !isRole(s.operator.role)) return null;
      const t = now();
      if (t - s.lastSeenAt.getTime() >= ADMIN_IDLE_MS || t - s.createdAt.getTime() >= ADMIN_MAX_MS) return null;
      if (t - s.lastSeenAt.getTime() >= TOUCH_EVERY_MS) await repo.touchSession(s.id, new Date(t));
      return { id: s.operator.id, email: s.operator.email, role: s.operator.role, sessionId: s.id, ...origin };
    },

    async logout(actor) {
      await repo.revokeSession(actor.sessionId, new Date(now()), auditRow(actor, 'logout'));
    },

    async me(actor) {
      const op = await repo.operatorById(actor.id);
      if (!op) throw new AppError('admin_unauthorized', 401);
      return toOperator(op);
    },

    async searchUsers(q) {
      const s = q.trim();
      const ids = new Set<string>();
      const add = (id: string | undefined) => {
        if (id !== undefined) ids.add(id);
      };
      const email = normEmail(s);
      if (email) add(host.engine.userByKey(`mail:${email}`));
      if (/^[1-9][0-9]{7}$/.test(s)) add(host.engine.userByKey(`uuid:${s}`));
      // A phone: "+86 13800000000", "86 13800000000" (area code and number), or the bare number (any area code).
      const withArea = /^\+?([0-9]{1,4})[\s-]+([0-9]{4,15})$/.exec(s);
      if (withArea) add(host.engine.userByKey(`phone:${withArea[1]}:${withArea[2]}`));
      // E.164 without a space: the area code is 1 to 3 digits; every split is tried (the keys are exact).
      const e164 = /^\+([0-9]{7,18})$/.exec(s);
      if (e164) for (let n = 1; n <= 3; n++) add(host.engine.userByKey(`phone:${e164[1]!.slice(0, n)}:${e164[1]!.slice(n)}`));
      if (/^[0-9]{4,15}$/.test(s)) for (const id of await repo.usersByPhone(s)) add(id.toString());
      return [...ids].map(userRowOf).filter((r): r is AdminUserRow => r !== null);
    },

    async userDetail(userId) {
      const row = userRowOf(userId);
      const id = parseId(userId);
      if (!row || id === null) throw new AppError('user_not_found', 404);
      const profile = host.engine.user(userId)!.profile;
      const balances: AdminUserDetail['balances'] = [];
      for (const a of host.engine.assets()) {
        for (const account of ACCOUNT_KINDS) {
          const b = host.engine.balance(userId, account, a.code);
          if (b.available === 0n && b.frozen === 0n) continue;
          balances.push({ account, asset: a.code, available: formatDecimal(b.available, a.scale), frozen: formatDecimal(b.frozen, a.scale) });
        }
      }
      const k = deps.kyc?.();
      const kycRows = k ? (await k.listApplications({ userId, page: 1, pageSize: 50 })).rows : [];
      const sessions = await repo.userSessions(id);
      const t = now();
      return {
        user: row,
        createdAt: (await repo.userCreatedAt(id))?.getTime() ?? 0,
        invitedBy: profile.invitedBy ?? '',
        frozenReason: profile.frozenReason ?? '',
        kyc: kycRows.map((r) => ({ id: r.id, level: r.level, state: r.state, createdAt: r.createdAt, reasonZh: r.reasonZh, reasonEn: r.reasonEn })),
        sessions: sessions.map((s) => ({
          id: s.id.toString(),
          createdAt: s.createdAt.getTime(),
          expiresAt: s.expiresAt.getTime(),
          lastSeenAt: s.lastSeenAt?.getTime() ?? 0,
          ip: s.ip,
          userAgent: s.userAgent,
          revoked: s.revokedAt !== null || s.expiresAt.getTime() <= t,
        })),
        balances,
      };
    },

    async setFrozen(actor, userId, frozen, reason) {
      const u = host.engine.user(userId);
      if (!u) throw new AppError('user_not_found', 404);
      const was = u.profile.frozen === '1';
      if (was === frozen) throw new AppError(frozen ? 'admin_already_frozen' : 'admin_not_frozen', 400);
      const before = { frozen: was, reason: u.profile.frozenReason ?? '' };
      const after = { frozen, reason };
      const r = await host.submit({
        type: 'updateUser',
        userId,
        profile: { frozen: frozen ? '1' : '', frozenReason: frozen ? reason : '' },
        // Compare-and-set: a concurrent freeze by another operator makes this one fail instead of logging a false "before".
        expect: { frozen: u.profile.frozen ?? '' },
        audit: engineAuditRecord(actor, frozen ? 'user_freeze' : 'user_unfreeze', before, after),
      });
      if (r.code === 'user_field_mismatch') throw new AppError('user_field_mismatch', 409);
      if (r.code === 'user_not_found') throw new AppError('user_not_found', 404);
      if (r.code !== 'ok') throw new Error(`updateUser refused: ${r.code}`);
      // The audit row is written with the projection of the change: wait for it, so the log shows it on return.
      await host.projected();
    },

    async auditLog(f) {
      const page = await repo.listAudit({
        operatorId: parseId(f.operatorId) ?? undefined,
        action: f.action,
        targetUserId: parseId(f.userId) ?? undefined,
        from: f.from !== undefined ? new Date(f.from) : undefined,
        to: f.to !== undefined ? new Date(f.to) : undefined,
        offset: (f.page - 1) * f.pageSize,
        limit: f.pageSize,
      });
      return {
        total: page.total,
        rows: page.rows.map((r) => ({
          id: r.id.toString(),
          operatorId: r.operatorId?.toString() ?? '',
          operatorEmail: r.operatorEmail,
          action: r.action,
          targetUserId: r.targetUserId?.toString() ?? '',
          before: r.before ?? null,
          after: r.after ?? null,
          at: r.at.getTime(),
          ip: r.ip,
          userAgent: r.userAgent,
        })),
      };
    },

    async kycList(f) {
      const page = await kyc().listApplications(f);
      return {
        total: page.total,
        rows: page.rows.map((r) => ({ id: r.id, userId: r.userId, level: r.level, state: r.state, realName: r.realName, createdAt: r.createdAt })),
      };
    },

    async kycApplication(id) {
      const a = await kyc().application(id);
      if (!a) throw new AppError('admin_kyc_not_found', 404);
      const r = a.application;
      return {
        application: { id: r.id, userId: r.userId, level: r.level, state: r.state, realName: r.realName, createdAt: r.createdAt },
        fields: a.fields,
        imageIds: a.imageIds,
        reasonZh: r.reasonZh,
        reasonEn: r.reasonEn,
      };
    },

    async kycImage(actor, imageId) {
      const img = await kyc().imageFor(imageId, { operatorId: actor.id.toString() });
      // The user whose document was looked at is the row's target (who saw whose identity papers, and when).
      await repo.appendAudit(auditRow(actor, 'kyc_image_view', { targetUserId: BigInt(img.ownerId), after: { imageId } }));
      return img;
    },

    async kycDecide(actor, id, decision) {
      const k = kyc();
      const a = await k.application(id);
      if (!a) throw new AppError('admin_kyc_not_found', 404);
      if (a.application.state !== 'PENDING') throw new AppError('admin_kyc_not_pending', 400);
      const before = { applicationId: id, level: a.application.level, state: a.application.state };
      const after = decision.approve
        ? { applicationId: id, level: a.application.level, state: 'PASS' }
        : { applicationId: id, level: a.application.level, state: 'REJECTED', reasonZh: decision.reasonZh, reasonEn: decision.reasonEn };
      await k.decide(id, decision, engineAuditRecord(actor, decision.approve ? 'kyc_approve' : 'kyc_reject', before, after));
      await host.projected();
    },

    async listOperators() {
      return (await repo.listOperators()).map(toOperator);
    },

    async createOperator(actor, input, demo) {
      const email = normEmail(input.email);
      if (!email) throw new AppError('email_invalid', 400, 'email');
      const name = input.name.trim();
      if (name === '' || name.length > 64) throw new AppError('validation_failed', 400, 'name');
      if (!isRole(input.role)) throw new AppError('validation_failed', 400, 'role');
      const role = input.role;
      const password = demo?.password ?? generatePassword();
      const totpSecret = demo?.totpSecret ?? newTotpSecret();
      const passwordHash = await argon2.hash(password, ARGON2_OPTIONS);
      const op = await repo.insertOperator(
        { email, name, role, passwordHash, totpSecret: box().seal(totpSecret, TOTP_PURPOSE), createdAt: new Date(now()) },
        (created) => auditRow(actor, 'operator_create', { after: { operatorId: created.id.toString(), email, name, role } }),
      );
      if (!op) throw new AppError('operator_exists', 400, 'email');
      return { operator: toOperator(op), password, totpSecret, otpauthUrl: otpauthUrl(email, totpSecret) };
    },

    async setOperatorDisabled(actor, operatorId, disabled) {
      const id = parseId(operatorId);
      const op = id === null ? null : await repo.operatorById(id);
      if (!op) throw new AppError('operator_not_found', 404);
      if (op.id === actor.id && disabled) throw new AppError('operator_self', 400);
      const audit = auditRow(actor, disabled ? 'operator_disable' : 'operator_enable', {
        before: { operatorId, disabled: op.disabled },
        after: { operatorId, disabled },
      });
      await repo.updateOperator(op.id, { disabled }, audit, new Date(now()), disabled);
    },

    async resetOperatorTotp(actor, operatorId) {
      const id = parseId(operatorId);
      const op = id === null ? null : await repo.operatorById(id);
      if (!op) throw new AppError('operator_not_found', 404);
      const totpSecret = newTotpSecret();
      // The secret itself is never logged: the row records that it changed.
      const audit = auditRow(actor, 'operator_totp_reset', { before: { operatorId }, after: { operatorId, totpReset: true } });
      await repo.updateOperator(op.id, { totpSecret: box().seal(totpSecret, TOTP_PURPOSE), lastTotpStep: null }, audit, new Date(now()), true);
      return { totpSecret, otpauthUrl: otpauthUrl(op.email, totpSecret) };
    },
  };
}
