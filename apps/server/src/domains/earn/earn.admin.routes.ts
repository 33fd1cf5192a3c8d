/**
 * Console routes of fixed-term savings (packages/api earn.ts EARN_ADMIN_PATHS). Every role with `view` reads the
 * products; creating or changing one moves the terms money is paid on and needs `wallet_decide` (finance, admin).
 * Each change is an engine command carrying its audit record (the projector writes the audit_log row with it).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AdminEarnProduct, EARN_ADMIN_PATHS, Envelope, SaveEarnProductBody } from '@exchange/api';
import { ok } from '../../platform/shared/envelope';
import { actorOf } from '../../platform/shared/operator';
import type { EarnService } from './earn.service';

const TAGS = ['admin'];
const ADMIN_HEADERS = Type.Object({ 'x-admin-token': Type.Optional(Type.String({ maxLength: 128 })) });

/** The console's savings routes over the savings service. */
export default function earnAdminRoutes({ earn }: { earn: EarnService }): FastifyPluginAsync {
  return async function earnAdminRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const { requireOperator } = app; // the shared session checks, decorated by main/app.ts

    app.get(
      `/api/${EARN_ADMIN_PATHS.products}`,
      {
        preHandler: requireOperator('view'),
        schema: {
          tags: TAGS,
          summary: 'Savings products (every status), with the principal locked in each',
          headers: ADMIN_HEADERS,
          response: { 200: Envelope(Type.Array(AdminEarnProduct)) },
        },
      },
      async () => ok(earn.adminProducts()),
    );

    app.post(
      `/api/${EARN_ADMIN_PATHS.saveProduct}`,
      {
        preHandler: requireOperator('wallet_decide'),
        schema: {
          tags: TAGS,
          summary: 'Create (no productId) or change a savings product; existing locks keep their rate and term',
          headers: ADMIN_HEADERS,
          body: SaveEarnProductBody,
          response: { 200: Envelope(AdminEarnProduct) },
        },
      },
      async (req) => ok(await earn.saveProduct(actorOf(req), req.body)),
    );
  };
}
