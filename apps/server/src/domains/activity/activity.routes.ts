/**
 * Routes of the app's activities (packages/api activity.ts ACTIVITY_PATHS). Public: list, detail, leaderboard (names
 * masked); behind requireAuth: my progress, join, history. Thin: validation by the shared TypeBox schemas, rules in
 * ActivityService and the engine.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  ACTIVITY_PATHS,
  ActivityHistoryRow,
  ActivityIdQuery,
  ActivityItem,
  ActivityLeaderboard,
  ActivityListQuery,
  ActivityMine,
  Envelope,
  JoinActivityBody,
} from '@exchange/api';
import { ok } from '../../platform/shared/envelope';
import { requestLang } from '../../platform/shared/lang';
import { requireAuth } from '../../platform/shared/auth';

const TAGS = ['activity'];

const activityRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const svc = () => app.ctx.activity;
  const auth = { preHandler: requireAuth };

  app.get(
    `/api/${ACTIVITY_PATHS.list}`,
    {
      schema: {
        tags: TAGS,
        summary: 'Every activity, newest first (optionally UPCOMING, ONGOING or ENDED), texts in the request language',
        querystring: ActivityListQuery,
        response: { 200: Envelope(Type.Array(ActivityItem)) },
      },
    },
    async (req) => ok(svc().list(requestLang(req), req.query.status)),
  );

  app.get(
    `/api/${ACTIVITY_PATHS.detail}`,
    { schema: { tags: TAGS, summary: 'One activity: rules, period, prizes', querystring: ActivityIdQuery, response: { 200: Envelope(ActivityItem) } } },
    async (req) => ok(svc().detail(requestLang(req), req.query.activityId)),
  );

  app.get(
    `/api/${ACTIVITY_PATHS.leaderboard}`,
    {
      schema: {
        tags: TAGS,
        summary: 'The live leaderboard (top 50; names masked)',
        querystring: ActivityIdQuery,
        response: { 200: Envelope(ActivityLeaderboard) },
      },
    },
    async (req) => ok(svc().leaderboard(req.query.activityId)),
  );

  app.get(
    `/api/${ACTIVITY_PATHS.my}`,
    {
      ...auth,
      schema: {
        tags: TAGS,
        summary: 'Your progress, rank and reward in one activity',
        querystring: ActivityIdQuery,
        response: { 200: Envelope(ActivityMine) },
      },
    },
    async (req) => ok(svc().mine(req.userId, req.query.activityId)),
  );

  app.post(
    `/api/${ACTIVITY_PATHS.join}`,
    { ...auth, schema: { tags: TAGS, summary: 'Join an ongoing activity (once)', body: JoinActivityBody, response: { 200: Envelope(ActivityMine) } } },
    async (req) => ok(await svc().join(req.userId, req.body.activityId)),
  );

  app.get(
    `/api/${ACTIVITY_PATHS.history}`,
    {
      ...auth,
      schema: {
        tags: TAGS,
        summary: 'The activities you joined, newest first, with progress and reward',
        response: { 200: Envelope(Type.Array(ActivityHistoryRow)) },
      },
    },
    async (req) => ok(svc().history(requestLang(req), req.userId)),
  );
};

export default activityRoutes;
