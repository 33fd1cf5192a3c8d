/**
 * Routes of the app's fixed-term savings (packages/api earn.ts EARN_PATHS, earn part). Public: getProducts; the rest
 * behind requireAuth and scoped to the caller. Thin: validation by the shared TypeBox schemas, rules in EarnService.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  EARN_PATHS,
  EarnLock,
  EarnLockBody,
  EarnLockPage,
  EarnProduct,
  EarnRedeemBody,
  Envelope,
  GetEarnLocksQuery,
  GetEarnRedemptionsQuery,
} from '@exchange/api';
import { ok } from '../../platform/shared/envelope';
import type { EarnService } from './earn.service';

const TAGS = ['earn'];

/** The app's savings routes over the savings service. */
export default function earnRoutes({ earn }: { earn: EarnService }): FastifyPluginAsync {
  return async function earnRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const { requireAuth } = app; // the shared session checks, decorated by main/app.ts
    const auth = { preHandler: requireAuth };

    app.get(
      `/api/${EARN_PATHS.getProducts}`,
      { schema: { tags: TAGS, summary: 'Fixed-term savings products open for locking', response: { 200: Envelope(Type.Array(EarnProduct)) } } },
      async () => ok(earn.products()),
    );

    app.post(
      `/api/${EARN_PATHS.lock}`,
      {
        ...auth,
        schema: {
          tags: TAGS,
          summary: "Lock an amount of the product's coin from your ASSETS account for the term (idempotent by clientId)",
          body: EarnLockBody,
          response: { 200: Envelope(EarnLock) },
        },
      },
      async (req) => ok(await earn.lock(req.userId, req.body)),
    );

    app.post(
      `/api/${EARN_PATHS.redeem}`,
      {
        ...auth,
        schema: {
          tags: TAGS,
          summary: 'Redeem your lock: early (the interest paid is taken off the principal, when the product allows it) or after maturity',
          body: EarnRedeemBody,
          response: { 200: Envelope(EarnLock) },
        },
      },
      async (req) => ok(await earn.redeem(req.userId, req.body.lockId)),
    );

    app.get(
      `/api/${EARN_PATHS.getLocks}`,
      {
        ...auth,
        schema: {
          tags: TAGS,
          summary: 'Your locks (LOCKED by default, or ALL), newest first',
          querystring: GetEarnLocksQuery,
          response: { 200: Envelope(EarnLockPage) },
        },
      },
      async (req) => ok(await earn.locks(req.userId, req.query.status ?? 'LOCKED', req.query.page ?? 1, req.query.pageSize ?? 20)),
    );

    app.get(
      `/api/${EARN_PATHS.getRedemptions}`,
      {
        ...auth,
        schema: {
          tags: TAGS,
          summary: 'Your redemptions (at maturity or early), latest first',
          querystring: GetEarnRedemptionsQuery,
          response: { 200: Envelope(EarnLockPage) },
        },
      },
      async (req) => ok(await earn.redemptions(req.userId, req.query.page ?? 1, req.query.pageSize ?? 20)),
    );
  };
}
