/**
 * Console routes of activities (packages/api activity.ts ACTIVITY_ADMIN_PATHS). Every role with `view` reads;
 * defining or ending an activity commits the marketing budget and needs `wallet_decide` (finance, admin). Each action
 * is an engine command carrying its audit record (the projector writes the audit_log row with it).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ACTIVITY_ADMIN_PATHS, ActivityIdQuery, AdminActivity, AdminActivityDetail, CreateActivityBody, EndActivityBody, Envelope } from '@exchange/api';
import { ok } from '../../platform/shared/envelope';
import { actorOf } from '../../platform/shared/operator';
import type { ActivityService } from './activity.service';

const TAGS = ['admin'];
const ADMIN_HEADERS = Type.Object({ 'x-admin-token': Type.Optional(Type.String({ maxLength: 128 })) });

/** The console's activity routes over the activity service. */
export default function activityAdminRoutes({ activity }: { activity: ActivityService }): FastifyPluginAsync {
  return async function activityAdminRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const { requireOperator } = app; // the shared session checks, decorated by main/app.ts
    const view = requireOperator('view');
    const decide = requireOperator('wallet_decide');

    app.get(
      `/api/${ACTIVITY_ADMIN_PATHS.list}`,
      {
        preHandler: view,
        schema: {
          tags: TAGS,
          summary: 'Every activity, newest first, with both languages and the payout',
          headers: ADMIN_HEADERS,
          response: { 200: Envelope(Type.Array(AdminActivity)) },
        },
      },
      async () => ok(activity.adminList()),
    );

    app.get(
      `/api/${ACTIVITY_ADMIN_PATHS.detail}`,
      {
        preHandler: view,
        schema: {
          tags: TAGS,
          summary: 'One activity with its ranking (user ids, top 500)',
          headers: ADMIN_HEADERS,
          querystring: ActivityIdQuery,
          response: { 200: Envelope(AdminActivityDetail) },
        },
      },
      async (req) => ok(activity.adminDetail(req.query.activityId)),
    );

    app.post(
      `/api/${ACTIVITY_ADMIN_PATHS.create}`,
      {
        preHandler: decide,
        schema: {
          tags: TAGS,
          summary: 'Define an activity: a trading competition (prize table) or a deposit bonus',
          headers: ADMIN_HEADERS,
          body: CreateActivityBody,
          response: { 200: Envelope(AdminActivity) },
        },
      },
      async (req) => ok(await activity.create(actorOf(req), req.body)),
    );

    app.post(
      `/api/${ACTIVITY_ADMIN_PATHS.end}`,
      {
        preHandler: decide,
        schema: {
          tags: TAGS,
          summary: 'End an activity now (the payout job pays it within seconds)',
          headers: ADMIN_HEADERS,
          body: EndActivityBody,
          response: { 200: Envelope(AdminActivity) },
        },
      },
      async (req) => ok(await activity.end(actorOf(req), req.body.activityId)),
    );
  };
}
