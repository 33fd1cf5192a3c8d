/**
 * Console routes of the withdrawal review queue (ADMIN_PATHS withdrawals, approveWithdrawal,
 * rejectWithdrawal): every role with `view` reads the queue; `wallet_decide` (finance, admin) approves and rejects.
 * Each decision is an engine command carrying its audit record (the projector writes the audit_log row with it).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  ADMIN_PATHS,
  AdminApproveWithdrawalBody,
  AdminRejectWithdrawalBody,
  AdminWithdrawal,
  AdminWithdrawalsPage,
  AdminWithdrawalsQuery,
  Envelope,
} from '@exchange/api';
import { ok } from '../../platform/shared/envelope';
import { actorOf } from '../../platform/shared/operator';
import type { WalletService } from './wallet.service';

const TAGS = ['admin'];
const ADMIN_HEADERS = Type.Object({ 'x-admin-token': Type.Optional(Type.String({ maxLength: 128 })) });

/** The console's withdrawal routes over the wallet service. */
export default function walletAdminRoutes({ wallet }: { wallet: WalletService }): FastifyPluginAsync {
  return async function walletAdminRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const { requireOperator } = app; // the shared session checks, decorated by main/app.ts
    const decide = requireOperator('wallet_decide');

    app.get(
      `/api/${ADMIN_PATHS.withdrawals}`,
      {
        preHandler: requireOperator('view'),
        schema: {
          tags: TAGS,
          summary: 'Withdrawals by status (default REVIEW, or ALL), newest first, 20 a page',
          headers: ADMIN_HEADERS,
          querystring: AdminWithdrawalsQuery,
          response: { 200: Envelope(AdminWithdrawalsPage) },
        },
      },
      async (req) => ok(await wallet.adminWithdrawals(req.query)),
    );

    app.post(
      `/api/${ADMIN_PATHS.approveWithdrawal}`,
      {
        preHandler: decide,
        schema: {
          tags: TAGS,
          summary: 'Approve a withdrawal under review (above the dual-approval amount a second, different operator must approve too)',
          headers: ADMIN_HEADERS,
          body: AdminApproveWithdrawalBody,
          response: { 200: Envelope(AdminWithdrawal) },
        },
      },
      async (req) => ok(await wallet.approve(actorOf(req), req.body.id)),
    );

    app.post(
      `/api/${ADMIN_PATHS.rejectWithdrawal}`,
      {
        preHandler: decide,
        schema: {
          tags: TAGS,
          summary: 'Reject a withdrawal not yet broadcast, with the reason in zh and en (the user sees theirs); the hold is released',
          headers: ADMIN_HEADERS,
          body: AdminRejectWithdrawalBody,
          response: { 200: Envelope(AdminWithdrawal) },
        },
      },
      async (req) => ok(await wallet.reject(actorOf(req), req.body.id, req.body.reasonZh, req.body.reasonEn)),
    );
  };
}
