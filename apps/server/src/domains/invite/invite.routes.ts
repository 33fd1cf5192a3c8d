/**
 * Routes of the invitation and rebates (packages/api invite.ts INVITE_PATHS). Public: rules; everything else
 * behind requireAuth and about the caller only (the user id comes from the session, never from the request). Thin:
 * validation by the shared TypeBox schemas, rules in InviteService.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  Envelope,
  INVITE_PATHS,
  InviteePage,
  InviteesQuery,
  InviteRules,
  InviteSummary,
  RankingList,
  RankingQuery,
  RebateDayPage,
  RebatesQuery,
} from '@exchange/api';
import { ok } from '../../platform/shared/envelope';
import type { InviteService } from './invite.service';
import type { PlatformContext } from '../../platform/platform-context';

const TAGS = ['invite'];

/** The invite routes over the invite service and the clock (the ranking's month). */
export default function inviteRoutes({ invite, clock }: { invite: InviteService } & Pick<PlatformContext, 'clock'>): FastifyPluginAsync {
  return async function inviteRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const { requireAuth } = app; // the shared session checks, decorated by main/app.ts
    const auth = { preHandler: requireAuth };

    app.get(
      `/api/${INVITE_PATHS.rules}`,
      {
        schema: {
          tags: TAGS,
          summary: "The rebate rules: 30% of the invitees' USDT contract fees, settled daily at 00:00 Asia/Shanghai, the 5,000 USDT threshold",
          response: { 200: Envelope(InviteRules) },
        },
      },
      async () => ok(invite.rules()),
    );

    app.get(
      `/api/${INVITE_PATHS.summary}`,
      {
        ...auth,
        schema: {
          tags: TAGS,
          summary: 'Your invitation code, invitees, rebates paid and pending, and whether you meet the threshold',
          response: { 200: Envelope(InviteSummary) },
        },
      },
      async (req) => ok(await invite.summary(req.userId)),
    );

    app.get(
      `/api/${INVITE_PATHS.invitees}`,
      {
        ...auth,
        schema: {
          tags: TAGS,
          summary: 'Your invitees, newest first: masked account, rebate earned, registration time',
          querystring: InviteesQuery,
          response: { 200: Envelope(InviteePage) },
        },
      },
      async (req) => ok(await invite.invitees(req.userId, req.query.page ?? 1, req.query.pageSize ?? 20)),
    );

    app.get(
      `/api/${INVITE_PATHS.rebates}`,
      {
        ...auth,
        schema: { tags: TAGS, summary: 'Your rebates per settled day, newest first', querystring: RebatesQuery, response: { 200: Envelope(RebateDayPage) } },
      },
      async (req) => ok(await invite.rebates(req.userId, req.query.page ?? 1, req.query.pageSize ?? 20)),
    );

    app.get(
      `/api/${INVITE_PATHS.ranking}`,
      {
        ...auth,
        schema: {
          tags: TAGS,
          summary: "The monthly rebate ranking: this month from its 1st (Asia/Shanghai), or last month's final list",
          querystring: RankingQuery,
          response: { 200: Envelope(RankingList) },
        },
      },
      async (req) => ok(await invite.ranking(req.userId, req.query.month ?? 'this', clock.now())),
    );

    app.get(
      `/api/${INVITE_PATHS.leaderboard}`,
      { ...auth, schema: { tags: TAGS, summary: 'The all-time invitation leaderboard by number of invitees', response: { 200: Envelope(RankingList) } } },
      async (req) => ok(await invite.leaderboard(req.userId)),
    );
  };
}
