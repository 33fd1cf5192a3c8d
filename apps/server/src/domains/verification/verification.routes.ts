/**
 * Verification routes (wire path data/sms): the slide puzzle (geetestCode, geetestVerify) and verification codes (sendCode).
 * Public (the spec sends captcha calls without token headers).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { API_PATHS, Envelope, GeetestChallenge, GeetestCodeQuery, GeetestResult, GeetestVerifyBody, SendCodeBody, type Lang } from '@exchange/api';
import { ok } from '../../platform/shared/envelope';
import { requestLang } from '../../platform/shared/lang';
import type { CaptchaService } from './captcha.service';
import type { CodeService } from './code.service';

const TAGS = ['sms'];

/**
 * What the verification routes use: the member service's slide puzzle and codes, and the security service's code to
 * the caller's own phone or e-mail (domains/security, built on the members: named here by its shape).
 */
export interface VerificationRoutesDeps {
  captcha: Pick<CaptchaService, 'issue' | 'verify'>;
  codes: Pick<CodeService, 'send'>;
  security: {
    sendVerifyCode(userId: string, channel: 'EMAIL' | 'PHONE' | undefined, req: { ip: string; lang: Lang; pass: Partial<GeetestResult> }): Promise<void>;
  };
}

/** The puzzle and code routes over this domain's puzzle and codes, and the security service's own-account code (`security`). */
export default function verificationRoutes({ captcha, codes, security }: VerificationRoutesDeps): FastifyPluginAsync {
  return async function verificationRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const { requireAuth } = app; // the shared session checks, decorated by main/app.ts

    app.post(
      `/api/${API_PATHS.geetestCode}`,
      {
        schema: {
          tags: TAGS,
          summary:
            'A new slide puzzle: geetest fields plus background and piece PNGs (answer within 5 minutes); 10 per minute per IP (429 captcha_too_frequent)',
          querystring: GeetestCodeQuery,
          response: { 200: Envelope(GeetestChallenge) },
        },
      },
      async (req) => ok(await captcha.issue(req.query.randomCode, req.ip)),
    );

    app.post(
      `/api/${API_PATHS.geetestVerify}`,
      {
        schema: {
          tags: TAGS,
          summary:
            "Check a puzzle answer (piece's x and y ±5 px, with the drag trail; one attempt per challenge); returns a one-use pass for sendCode or login",
          body: GeetestVerifyBody,
          response: { 200: Envelope(GeetestResult) },
        },
      },
      async (req) => ok(await captcha.verify(req.body.challenge, req.body.x, { y: req.body.y, trail: req.body.trail })),
    );

    app.post(
      `/api/${API_PATHS.sendCode}`,
      {
        schema: {
          tags: TAGS,
          summary:
            "Send a 6-digit code (valid 10 minutes) to an e-mail or phone; needs a puzzle pass, except VERIFY; 1 per 60 s per account. VERIFY (with the session headers, no puzzle) goes to the caller's own phone or e-mail (channel EMAIL|PHONE picks when both are bound)",
          body: SendCodeBody,
          response: { 200: Envelope(Type.Null()) },
        },
      },
      async (req, reply) => {
        const b = req.body;
        const pass = { geetest_challenge: b.geetest_challenge, geetest_validate: b.geetest_validate, geetest_seccode: b.geetest_seccode };
        if (b.type === 'VERIFY') {
          // To the caller's own phone or e-mail: needs the session (domains/security), `account` is not used.
          await requireAuth(req, reply);
          await security.sendVerifyCode(req.userId, b.channel, { ip: req.ip, lang: requestLang(req), pass });
          return ok(null);
        }
        await codes.send({
          account: b.account ?? '',
          areaCode: b.areaCode,
          type: b.type,
          ip: req.ip,
          lang: requestLang(req),
          pass,
        });
        return ok(null);
      },
    );
  };
}
