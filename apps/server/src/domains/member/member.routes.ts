/**
 * Routes of member/member (paths in packages/api paths.ts): register, login, logout, forgetPassword (public);
 * getMember, setNickName, favourites and the invitation code (behind requireAuth). Thin: validation by the
 * shared TypeBox schemas, rules in MemberService.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  API_PATHS,
  Envelope,
  Favorite,
  FavoriteBody,
  ForgetPasswordBody,
  GetMemberQuery,
  LoginBody,
  MarketType,
  Member,
  MemberCode,
  MemberCodeQuery,
  RegisterBody,
  Session,
  SetNickNameBody,
} from '@exchange/api';
import { fail, ok } from '../../platform/shared/envelope';
import { requestLang } from '../../platform/shared/lang';
import { AppError } from '../../platform/shared/errors';
import type { MemberService } from './member.service';
import { mapValidation } from '../../platform/shared/validation';

const TAGS = ['member'];
const NullResult = Envelope(Type.Null());

/** A `member`/`memberId` parameter, when given, must be the caller (else 403 forbidden). */
function assertSelf(req: FastifyRequest, member: string | undefined): void {
  if (member !== undefined && member !== '' && member !== req.userId) throw new AppError('forbidden', 403);
}

/** The member routes over the member service. */
export default function memberRoutes({ members }: { members: MemberService }): FastifyPluginAsync {
  return async function memberRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const { requireAuth } = app; // the shared session checks, decorated by main/app.ts

    // google_code_locked at login says how long the lock lasts (AppError.params); other errors go to app.ts's handler.
    app.setErrorHandler((err, req, reply) => {
      if (!(err instanceof AppError) || err.params === undefined) throw err;
      void reply.status(err.status).send(fail(err.code, requestLang(req), err.field, err.params));
    });
    const caller = (req: FastifyRequest) => {
      const ua = req.headers['user-agent'];
      return { ip: req.ip, lang: requestLang(req), userAgent: typeof ua === 'string' ? ua : '' };
    };

    app.post(
      `/api/${API_PATHS.register}`,
      {
        attachValidation: true,
        schema: {
          tags: TAGS,
          summary: 'Register by e-mail or phone with a REGISTER code; logs the user in',
          body: RegisterBody,
          response: { 200: Envelope(Session) },
        },
      },
      async (req) => {
        mapValidation(req, {
          password: 'password_invalid',
          confirmPassword: 'password_mismatch',
          agreement: 'agreement_required',
          code: 'code_invalid',
          mail: 'email_invalid',
          phone: 'phone_invalid',
          invitationCode: 'invitation_invalid',
        });
        return ok(await members.register(req.body, caller(req)));
      },
    );

    app.post(
      `/api/${API_PATHS.login}`,
      {
        schema: {
          tags: TAGS,
          summary:
            'Log in with account (e-mail or phone) and password; the puzzle after 3 failures. With Google authenticator bound, also googleCode: without it the answer is google_code_required (after the password checked out), a wrong one google_code_invalid (counted as a failed login), google_code_locked after 5 wrong codes in 15 minutes',
          body: LoginBody,
          response: { 200: Envelope(Session) },
        },
      },
      async (req) => ok(await members.login(req.body, caller(req))),
    );

    app.post(
      `/api/${API_PATHS.logout}`,
      { preHandler: requireAuth, schema: { tags: TAGS, summary: 'Revoke the session token of this request', response: { 200: NullResult } } },
      async (req) => {
        const token = req.headers['token'];
        await members.logout(Array.isArray(token) ? (token[0] ?? '') : (token ?? '').trim());
        return ok(null);
      },
    );

    app.post(
      `/api/${API_PATHS.forgetPassword}`,
      {
        attachValidation: true,
        schema: {
          tags: TAGS,
          summary: 'Reset the login password with a FORGET code; revokes every session',
          body: ForgetPasswordBody,
          response: { 200: NullResult },
        },
      },
      async (req) => {
        mapValidation(req, { password: 'password_invalid', confirmPassword: 'password_mismatch', code: 'code_invalid' });
        await members.forgetPassword(req.body, caller(req));
        return ok(null);
      },
    );

    app.get(
      `/api/${API_PATHS.getMember}`,
      {
        preHandler: requireAuth,
        schema: { tags: TAGS, summary: "The caller's user info (spec section 3)", querystring: GetMemberQuery, response: { 200: Envelope(Member) } },
      },
      async (req) => {
        assertSelf(req, req.query.member);
        return ok(await members.getMember(req.userId));
      },
    );

    app.post(
      `/api/${API_PATHS.setNickName}`,
      {
        preHandler: requireAuth,
        attachValidation: true,
        schema: { tags: TAGS, summary: 'Set the nickname (once only)', body: SetNickNameBody, response: { 200: NullResult } },
      },
      async (req) => {
        mapValidation(req, { nickName: 'nickname_required' });
        assertSelf(req, req.body.member);
        await members.setNickName(req.userId, req.body.nickName);
        return ok(null);
      },
    );

    app.route({
      method: ['GET', 'POST'],
      url: `/api/${API_PATHS.getFavorites}`,
      preHandler: requireAuth,
      schema: {
        tags: TAGS,
        summary: "The caller's favourite pairs, optionally of one market type",
        querystring: Type.Object({ type: Type.Optional(MarketType) }),
        response: { 200: Envelope(Type.Array(Favorite)) },
      },
      handler: async (req) => ok(await members.getFavorites(req.userId, req.query.type)),
    });

    app.post(
      `/api/${API_PATHS.addFavorite}`,
      {
        preHandler: requireAuth,
        schema: { tags: TAGS, summary: 'Add a favourite pair (idempotent; type defaults to SPOT)', body: FavoriteBody, response: { 200: NullResult } },
      },
      async (req) => {
        await members.addFavorite(req.userId, req.body.pairsName, req.body.type ?? 'SPOT');
        return ok(null);
      },
    );

    app.post(
      `/api/${API_PATHS.cancelFavorite}`,
      {
        preHandler: requireAuth,
        schema: { tags: TAGS, summary: 'Remove a favourite pair (idempotent; type defaults to SPOT)', body: FavoriteBody, response: { 200: NullResult } },
      },
      async (req) => {
        await members.cancelFavorite(req.userId, req.body.pairsName, req.body.type ?? 'SPOT');
        return ok(null);
      },
    );

    app.get(
      `/api/${API_PATHS.memberCode}`,
      {
        preHandler: requireAuth,
        schema: { tags: TAGS, summary: "The caller's invitation code (welCode)", querystring: MemberCodeQuery, response: { 200: Envelope(MemberCode) } },
      },
      async (req) => {
        assertSelf(req, req.query.memberId);
        return ok({ welCode: await members.welCode(req.userId) });
      },
    );
  };
}
