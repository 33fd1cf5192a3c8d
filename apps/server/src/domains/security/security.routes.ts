/**
 * Routes of member/security (paths in packages/api paths.ts, "account security" block): the account centre's
 * state, binding a second address, login and transaction passwords, Google authenticator, sessions and the
 * security log. All behind requireAuth; thin: validation by the TypeBox schemas of packages/api security.ts (a
 * malformed code or password answers its business code, not validation_failed), rules in SecurityService.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  API_PATHS,
  BindAccountBody,
  ChangePasswordBody,
  ChangeTransPasswordBody,
  Envelope,
  ForgetTransPasswordBody,
  GoogleCodeBody,
  GoogleSecret,
  RevokeSessionBody,
  SecurityLogPage,
  SecurityLogQuery,
  SecurityState,
  SessionItem,
  SetTransPasswordBody,
  WithdrawLock,
} from '@exchange/api';
import { fail, ok } from '../../platform/shared/envelope';
import { AppError } from '../../platform/shared/errors';
import { requestLang } from '../../platform/shared/lang';
import type { SecurityService } from './security.service';
import { mapValidation } from '../../platform/shared/validation';
import { USER_AGENT_MAX } from '../../platform/shared/auth';

const TAGS = ['security'];
const NullResult = Envelope(Type.Null());

/** The codes a malformed field of these forms answers (instead of validation_failed). */
const FIELD_CODES = {
  code: 'code_invalid',
  verifyCode: 'code_invalid',
  googleCode: 'google_code_invalid',
  mail: 'email_invalid',
  phone: 'phone_invalid',
  areaCode: 'phone_invalid',
  bindType: 'bind_type_invalid',
  oldPassword: 'password_wrong',
  password: 'password_invalid',
  confirmPassword: 'password_mismatch',
  transPassword: 'trans_password_invalid',
  confirmTransPassword: 'trans_password_mismatch',
  oldTransPassword: 'trans_password_wrong',
  id: 'session_not_found',
} as const;

/** Where a request came from, for the security log. */
function info(req: FastifyRequest): { ip: string; userAgent: string } {
  const ua = req.headers['user-agent'];
  return { ip: req.ip, userAgent: (typeof ua === 'string' ? ua : '').slice(0, USER_AGENT_MAX) };
}

/** The session token of the request (requireAuth checked it). */
function tokenOf(req: FastifyRequest): string {
  const t = req.headers['token'];
  return (Array.isArray(t) ? (t[0] ?? '') : (t ?? '')).trim();
}

/** The account security routes over the security service. */
export default function securityRoutes({ security }: { security: SecurityService }): FastifyPluginAsync {
  return async function securityRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const { requireAuth } = app; // the shared session checks, decorated by main/app.ts
    const opts = { preHandler: requireAuth, attachValidation: true } as const;

    // A lock that says how long it lasts (AppError.params: the minutes left) is answered here with that value; every
    // other error goes on to the app's handler (app.ts), which renders a code and a field only.
    app.setErrorHandler((err, req, reply) => {
      if (!(err instanceof AppError) || err.params === undefined) throw err;
      void reply.status(err.status).send(fail(err.code, requestLang(req), err.field, err.params));
    });

    app.get(
      `/api/${API_PATHS.getSecurity}`,
      {
        preHandler: requireAuth,
        schema: {
          tags: TAGS,
          summary: 'The account centre: masked phone and e-mail, 2FA and transaction password set or not, the withdrawal lock, the last login',
          response: { 200: Envelope(SecurityState) },
        },
      },
      async (req) => ok(await security.getSecurity(req.userId)),
    );

    app.post(
      `/api/${API_PATHS.bindAccount}`,
      {
        ...opts,
        schema: {
          tags: TAGS,
          summary:
            'Bind the missing phone or e-mail: BIND code sent to it, plus the TOTP code when Google is bound, else a VERIFY code (account_already_bound when that kind is bound)',
          body: BindAccountBody,
          response: { 200: NullResult },
        },
      },
      async (req) => {
        mapValidation(req, FIELD_CODES);
        await security.bindAccount(req.userId, req.body, info(req));
        return ok(null);
      },
    );

    app.post(
      `/api/${API_PATHS.changePassword}`,
      {
        ...opts,
        schema: {
          tags: TAGS,
          summary:
            'Change the login password (8-20, not only digits) with the old one and a second proof; ends the other sessions; withdrawals locked 24 h (PASSWORD_CHANGED)',
          body: ChangePasswordBody,
          response: { 200: Envelope(WithdrawLock) },
        },
      },
      async (req) => {
        mapValidation(req, FIELD_CODES);
        return ok(await security.changePassword(req.userId, req.body, tokenOf(req), info(req)));
      },
    );

    app.post(
      `/api/${API_PATHS.setTransPassword}`,
      {
        ...opts,
        schema: {
          tags: TAGS,
          summary: 'Set the transaction password (exactly 6 digits) with a second proof',
          body: SetTransPasswordBody,
          response: { 200: NullResult },
        },
      },
      async (req) => {
        mapValidation(req, FIELD_CODES);
        await security.setTransPassword(req.userId, req.body, info(req));
        return ok(null);
      },
    );

    app.post(
      `/api/${API_PATHS.changeTransPassword}`,
      {
        ...opts,
        schema: {
          tags: TAGS,
          summary: 'Change the transaction password with the old one (5 wrong ones lock it for 2 hours)',
          body: ChangeTransPasswordBody,
          response: { 200: NullResult },
        },
      },
      async (req) => {
        mapValidation(req, FIELD_CODES);
        await security.changeTransPassword(req.userId, req.body, info(req));
        return ok(null);
      },
    );

    app.post(
      `/api/${API_PATHS.forgetTransPassword}`,
      {
        ...opts,
        schema: {
          tags: TAGS,
          summary: 'Reset a forgotten transaction password with a VERIFY code (and the TOTP code when Google is bound); lifts its lock',
          body: ForgetTransPasswordBody,
          response: { 200: NullResult },
        },
      },
      async (req) => {
        mapValidation(req, FIELD_CODES);
        await security.forgetTransPassword(req.userId, req.body, info(req));
        return ok(null);
      },
    );

    app.get(
      `/api/${API_PATHS.googleSecret}`,
      {
        preHandler: requireAuth,
        schema: {
          tags: TAGS,
          summary: 'The Google authenticator secret to bind (the same one for 10 minutes until bound) and its otpauth:// URL for the QR code',
          response: { 200: Envelope(GoogleSecret) },
        },
      },
      async (req) => ok(await security.googleSecret(req.userId)),
    );

    app.post(
      `/api/${API_PATHS.bindGoogle}`,
      {
        ...opts,
        schema: {
          tags: TAGS,
          summary: 'Bind Google authenticator: a code of the offered secret and a VERIFY code',
          body: GoogleCodeBody,
          response: { 200: NullResult },
        },
      },
      async (req) => {
        mapValidation(req, FIELD_CODES);
        await security.bindGoogle(req.userId, req.body.googleCode, req.body.verifyCode, info(req));
        return ok(null);
      },
    );

    app.post(
      `/api/${API_PATHS.closeGoogle}`,
      {
        ...opts,
        schema: {
          tags: TAGS,
          summary: 'Unbind Google authenticator (its code and a VERIFY code); withdrawals locked 24 h (GOOGLE_CLOSED)',
          body: GoogleCodeBody,
          response: { 200: Envelope(WithdrawLock) },
        },
      },
      async (req) => {
        mapValidation(req, FIELD_CODES);
        return ok(await security.closeGoogle(req.userId, req.body.googleCode, req.body.verifyCode, info(req)));
      },
    );

    app.get(
      `/api/${API_PATHS.getSessions}`,
      {
        preHandler: requireAuth,
        schema: {
          tags: TAGS,
          summary: 'The signed-in devices (browser and OS, IP, first and last seen); `current` is this one',
          response: { 200: Envelope(Type.Array(SessionItem)) },
        },
      },
      async (req) => ok(await security.getSessions(req.userId, tokenOf(req))),
    );

    app.post(
      `/api/${API_PATHS.revokeSession}`,
      {
        ...opts,
        schema: {
          tags: TAGS,
          summary: 'Sign a device out everywhere (as logout); only your own sessions',
          body: RevokeSessionBody,
          response: { 200: NullResult },
        },
      },
      async (req) => {
        mapValidation(req, FIELD_CODES);
        await security.revokeSession(req.userId, req.body.id, info(req));
        return ok(null);
      },
    );

    app.get(
      `/api/${API_PATHS.getSecurityLog}`,
      {
        preHandler: requireAuth,
        schema: {
          tags: TAGS,
          summary: 'The security log, newest first: logins (and failed ones), password and 2FA changes, bindings, session revocations',
          querystring: SecurityLogQuery,
          response: { 200: Envelope(SecurityLogPage) },
        },
      },
      async (req) => ok(await security.getSecurityLog(req.userId, req.query.pageNo ?? 1, req.query.pageSize ?? 20)),
    );
  };
}
