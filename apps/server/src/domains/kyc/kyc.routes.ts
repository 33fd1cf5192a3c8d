/**
 * Routes of member/kyc: submitBasic, submitAdvanced (POST, form or JSON) and
 * getKyc (GET), all behind requireAuth and about the caller only. Thin: the schemas bound the fields, the rules
 * and their error codes are KycService's.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { API_PATHS, Envelope, KycStatus, SubmitAdvancedBody, SubmitBasicBody } from '@exchange/api';
import { ok } from '../../platform/shared/envelope';
import { requestLang } from '../../platform/shared/lang';
import type { KycService } from './kyc.service';

const TAGS = ['kyc'];
const NullResult = Envelope(Type.Null());

/** The identity verification routes over the KYC service. */
export default function kycRoutes({ kyc }: { kyc: KycService }): FastifyPluginAsync {
  return async function kycRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const { requireAuth } = app; // the shared session checks, decorated by main/app.ts

    app.post(
      `/api/${API_PATHS.submitBasic}`,
      {
        preHandler: requireAuth,
        schema: {
          tags: TAGS,
          summary: 'Submit the basic identity verification (country, real name, document type and number); PENDING until an operator decides',
          body: SubmitBasicBody,
          response: { 200: NullResult },
        },
      },
      async (req) => {
        await kyc.submitBasic(req.userId, req.body);
        return ok(null);
      },
    );

    app.post(
      `/api/${API_PATHS.submitAdvanced}`,
      {
        preHandler: requireAuth,
        schema: {
          tags: TAGS,
          summary: "Submit the advanced identity verification (the caller's ID front, back and handheld uploads); needs basic PASS",
          body: SubmitAdvancedBody,
          response: { 200: NullResult },
        },
      },
      async (req) => {
        await kyc.submitAdvanced(req.userId, req.body);
        return ok(null);
      },
    );

    app.get(
      `/api/${API_PATHS.getKyc}`,
      {
        preHandler: requireAuth,
        schema: { tags: TAGS, summary: "The caller's verification states (document number masked)", response: { 200: Envelope(KycStatus) } },
      },
      async (req) => ok(await kyc.getKyc(req.userId, requestLang(req))),
    );
  };
}
