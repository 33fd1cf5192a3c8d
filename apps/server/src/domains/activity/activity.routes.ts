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
import type { ActivityService } from './activity.service';

const TAGS = ['activity'];

/** The app's activity routes over the activity service. */
export default function activityRoutes({ activity }: { activity: ActivityService }): FastifyPluginAsync {
  return async function activityRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const { requireAuth } = app; // the shared session checks, decorated by main/app.ts
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
      async (req) => ok(activity.list(requestLang(req), req.query.status)),
    );

    app.get(
      `/api/${ACTIVITY_PATHS.detail}`,
      { schema: { tags: TAGS, summary: 'One activity: rules, period, prizes', querystring: ActivityIdQuery, response: { 200: Envelope(ActivityItem) } } },
      async (req) => ok(activity.detail(requestLang(req), req.query.activityId)),
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
      async (req) => ok(activity.leaderboard(req.query.activityId)),
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
      async (req) => ok(activity.mine(req.userId, req.query.activityId)),
    );

    app.post(
      `/api/${ACTIVITY_PATHS.join}`,
      { ...auth, schema: { tags: TAGS, summary: 'Join an ongoing activity (once)', body: JoinActivityBody, response: { 200: Envelope(ActivityMine) } } },
      async (req) => ok(await activity.join(req.userId, req.body.activityId)),
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
      async (req) => ok(activity.history(requestLang(req), req.userId)),
    );
  };
}
