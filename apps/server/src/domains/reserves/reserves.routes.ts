/**
 * Routes of proof of reserves: GET asset/reserves/getRoot (public: the latest snapshot's root, totals,
 * reserves and ratios), GET asset/reserves/getMyProof (requireAuth: the caller's own leaf and path, never another
 * user's) and the console's POST admin/wallet/reservesSnapshot (permission wallet_decide: finance and admin; audited).
 * Thin: the rules are ReservesService's.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ADMIN_PATHS, API_PATHS, AdminReservesResult, Envelope, ReservesProof, ReservesRoot } from '@exchange/api';
import { ok } from '../../platform/shared/envelope';
import { actorOf } from '../../platform/shared/operator';
import type { ReservesService } from './reserves.service';

const TAGS = ['reserves'];
/** The console's operator token header. */
const ADMIN_HEADERS = Type.Object({ 'x-admin-token': Type.Optional(Type.String({ maxLength: 128 })) });

/** The proof of reserves routes over the reserves service. */
export default function reservesRoutes({ reserves }: { reserves: ReservesService }): FastifyPluginAsync {
  return async function reservesRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const { requireAuth, requireOperator } = app; // the shared session checks, decorated by main/app.ts

    app.get(
      `/api/${API_PATHS.getReservesRoot}`,
      {
        schema: {
          tags: TAGS,
          summary: 'The latest proof-of-reserves snapshot: Merkle-sum root, user liabilities, on-chain reserves and ratio per asset',
          response: { 200: Envelope(ReservesRoot) },
        },
      },
      async () => ok(await reserves.root()),
    );

    app.get(
      `/api/${API_PATHS.getReservesProof}`,
      {
        preHandler: requireAuth,
        schema: {
          tags: TAGS,
          summary: "The caller's leaf (salt, balances) and Merkle-sum path in the latest snapshot, to verify against getRoot",
          response: { 200: Envelope(ReservesProof) },
        },
      },
      async (req) => ok(await reserves.proof(req.userId)),
    );

    app.post(
      `/api/${ADMIN_PATHS.reservesSnapshot}`,
      {
        preHandler: requireOperator('wallet_decide'),
        schema: {
          tags: [...TAGS, 'admin'],
          summary: 'Take and publish a proof-of-reserves snapshot (audited)',
          headers: ADMIN_HEADERS,
          response: { 200: Envelope(AdminReservesResult) },
        },
      },
      async (req) => {
        const actor = actorOf(req);
        return ok(await reserves.takeSnapshot({ id: actor.id, email: actor.email, ip: actor.ip, userAgent: actor.userAgent }));
      },
    );
  };
}
