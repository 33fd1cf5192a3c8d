/**
 * App version routes (packages/api app-version.ts): the public check of the update flow and the bundle download,
 * and the console's list, publish and withdraw. Publishing a version (what every user is asked to install) and
 * withdrawing one need the `operators` permission (admin: the role that runs the console); every role views.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  APP_VERSION_ADMIN_PATHS,
  APP_VERSION_PATHS,
  AppBundleQuery,
  AppRelease,
  AppReleaseList,
  Envelope,
  LatestVersion,
  LatestVersionQuery,
  PublishVersionBody,
  WithdrawVersionBody,
} from '@exchange/api';
import { ok } from '../../platform/shared/envelope';
import { actorOf } from '../../platform/shared/operator';
import type { AppVersionService } from './app-version.service';

const ADMIN_HEADERS = Type.Object({ 'x-admin-token': Type.Optional(Type.String({ maxLength: 128 })) });

/** The app version routes over the app version service. */
export default function appVersionRoutes({ appVersions }: { appVersions: AppVersionService }): FastifyPluginAsync {
  return async function appVersionRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const { requireOperator } = app; // the shared session checks, decorated by main/app.ts
    const view = requireOperator('view');
    const manage = requireOperator('operators');

    app.get(
      `/api/${APP_VERSION_PATHS.latest}`,
      {
        schema: {
          tags: ['app'],
          summary: 'The latest published version of a platform, and whether it is higher than the caller’s',
          querystring: LatestVersionQuery,
          response: { 200: Envelope(LatestVersion) },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        return ok(await appVersions.latest(req.query.platform, req.query.current));
      },
    );

    app.get(
      `/api/${APP_VERSION_PATHS.bundle}`,
      { schema: { tags: ['app'], summary: 'The web bundle (zip) of a published shell version, for the live update', querystring: AppBundleQuery } },
      async (req, reply) => {
        const zip = await appVersions.bundle(BigInt(req.query.id));
        return reply
          .type('application/zip')
          .header('cache-control', 'public, max-age=31536000, immutable')
          .header('content-disposition', `attachment; filename="bundle-${req.query.id}.zip"`)
          .send(zip);
      },
    );

    app.get(
      `/api/${APP_VERSION_ADMIN_PATHS.list}`,
      {
        preHandler: view,
        schema: {
          tags: ['admin'],
          summary: 'Every app version, newest publication first',
          headers: ADMIN_HEADERS,
          response: { 200: Envelope(AppReleaseList) },
        },
      },
      async () => ok({ records: await appVersions.list() }),
    );

    app.post(
      `/api/${APP_VERSION_ADMIN_PATHS.publish}`,
      {
        preHandler: manage,
        schema: {
          tags: ['admin'],
          summary: 'Publish an app version with its reasons (zh, en); a shell version may carry the web bundle',
          headers: ADMIN_HEADERS,
          body: PublishVersionBody,
          response: { 200: Envelope(AppRelease) },
        },
      },
      async (req) => ok(await appVersions.publish(actorOf(req), req.body)),
    );

    app.post(
      `/api/${APP_VERSION_ADMIN_PATHS.withdraw}`,
      {
        preHandler: manage,
        schema: {
          tags: ['admin'],
          summary: 'Withdraw a published app version',
          headers: ADMIN_HEADERS,
          body: WithdrawVersionBody,
          response: { 200: Envelope(AppRelease) },
        },
      },
      async (req) => ok(await appVersions.withdraw(actorOf(req), BigInt(req.body.id))),
    );
  };
}
