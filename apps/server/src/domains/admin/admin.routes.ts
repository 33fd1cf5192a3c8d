/**
 * Routes of the operator console API (`/api/admin/...`, paths in packages/api ADMIN_PATHS): login (public), then
 * everything behind `requireOperator(permission)` with the header `x-admin-token`. Thin: validation by the TypeBox
 * schemas of packages/api admin.ts, rules and audit rows in AdminService.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  ADMIN_PATHS,
  AdminAuditPage,
  AdminAuditQuery,
  AdminFreezeBody,
  AdminKycApplication,
  AdminKycApproveBody,
  AdminKycImageQuery,
  AdminKycListQuery,
  AdminKycPage,
  AdminKycQuery,
  AdminKycRejectBody,
  AdminLoginBody,
  AdminOperatorCreateBody,
  AdminOperatorDisableBody,
  AdminOperatorIdBody,
  AdminSession,
  AdminTotpReset,
  AdminUserDetail,
  AdminUserQuery,
  AdminUserRow,
  AdminUserSearchQuery,
  Envelope,
  Operator,
  OperatorCredentials,
} from '@exchange/api';
import { ok } from '../../platform/shared/envelope';
import { actorOf, originOf } from '../../platform/shared/operator';
import type { AdminService } from './admin.service';

const TAGS = ['admin'];
const NullResult = Envelope(Type.Null());
/** The console's operator token header, documented on every route behind it. */
const ADMIN_HEADERS = Type.Object({ 'x-admin-token': Type.Optional(Type.String({ maxLength: 128 })) });

/** The console's own routes over the admin service. */
export default function adminRoutes({ admin }: { admin: AdminService }): FastifyPluginAsync {
  return async function adminRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const { requireOperator } = app; // the shared session checks, decorated by main/app.ts
    const view = requireOperator('view');

    // ---------------------------------------------------------------- auth
    app.post(
      `/api/${ADMIN_PATHS.login}`,
      {
        schema: {
          tags: TAGS,
          summary: 'Operator login: e-mail, password and TOTP code in one step; failures limited',
          body: AdminLoginBody,
          response: { 200: Envelope(AdminSession) },
        },
      },
      async (req) => ok(await admin.login(req.body, originOf(req))),
    );
    app.post(
      `/api/${ADMIN_PATHS.logout}`,
      { preHandler: view, schema: { tags: TAGS, summary: "Revoke this request's operator session", headers: ADMIN_HEADERS, response: { 200: NullResult } } },
      async (req) => {
        await admin.logout(actorOf(req));
        return ok(null);
      },
    );
    app.get(
      `/api/${ADMIN_PATHS.me}`,
      { preHandler: view, schema: { tags: TAGS, summary: 'The operator of this session', headers: ADMIN_HEADERS, response: { 200: Envelope(Operator) } } },
      async (req) => ok(await admin.me(actorOf(req))),
    );

    // ---------------------------------------------------------------- users
    app.get(
      `/api/${ADMIN_PATHS.userSearch}`,
      {
        preHandler: view,
        schema: {
          tags: TAGS,
          summary: 'Users by UID, e-mail or phone',
          headers: ADMIN_HEADERS,
          querystring: AdminUserSearchQuery,
          response: { 200: Envelope(Type.Array(AdminUserRow)) },
        },
      },
      async (req) => ok(await admin.searchUsers(req.query.q)),
    );
    app.get(
      `/api/${ADMIN_PATHS.userDetail}`,
      {
        preHandler: view,
        schema: {
          tags: TAGS,
          summary: "A user's profile, KYC, sessions and balances (read-only)",
          headers: ADMIN_HEADERS,
          querystring: AdminUserQuery,
          response: { 200: Envelope(AdminUserDetail) },
        },
      },
      async (req) => ok(await admin.userDetail(req.query.userId)),
    );
    for (const [path, frozen] of [
      [ADMIN_PATHS.userFreeze, true],
      [ADMIN_PATHS.userUnfreeze, false],
    ] as const) {
      app.post(
        `/api/${path}`,
        {
          preHandler: requireOperator('user_freeze'),
          schema: {
            tags: TAGS,
            summary: frozen ? 'Freeze an account (no orders or transfers; login and views stay)' : 'Unfreeze an account',
            headers: ADMIN_HEADERS,
            body: AdminFreezeBody,
            response: { 200: NullResult },
          },
        },
        async (req) => {
          await admin.setFrozen(actorOf(req), req.body.userId, frozen, req.body.reason.trim());
          return ok(null);
        },
      );
    }

    // ---------------------------------------------------------------- audit log
    app.get(
      `/api/${ADMIN_PATHS.auditList}`,
      {
        preHandler: view,
        schema: {
          tags: TAGS,
          summary: 'The audit log, newest first, filtered by operator, action, user and time',
          headers: ADMIN_HEADERS,
          querystring: AdminAuditQuery,
          response: { 200: Envelope(AdminAuditPage) },
        },
      },
      async (req) => ok(await admin.auditLog({ ...req.query, page: req.query.page ?? 1, pageSize: req.query.pageSize ?? 20 })),
    );

    // ---------------------------------------------------------------- KYC review
    app.get(
      `/api/${ADMIN_PATHS.kycList}`,
      {
        preHandler: view,
        schema: {
          tags: TAGS,
          summary: 'KYC applications, pending first',
          headers: ADMIN_HEADERS,
          querystring: AdminKycListQuery,
          response: { 200: Envelope(AdminKycPage) },
        },
      },
      async (req) => ok(await admin.kycList({ ...req.query, page: req.query.page ?? 1, pageSize: req.query.pageSize ?? 20 })),
    );
    app.get(
      `/api/${ADMIN_PATHS.kycDetail}`,
      {
        preHandler: view,
        schema: {
          tags: TAGS,
          summary: 'One KYC application: submitted data and image ids',
          headers: ADMIN_HEADERS,
          querystring: AdminKycQuery,
          response: { 200: Envelope(AdminKycApplication) },
        },
      },
      async (req) => ok(await admin.kycApplication(req.query.id)),
    );
    app.get(
      `/api/${ADMIN_PATHS.kycImage}`,
      {
        preHandler: view,
        schema: {
          tags: TAGS,
          summary: 'An image of a KYC application (the bytes; the view is audited)',
          headers: ADMIN_HEADERS,
          querystring: AdminKycImageQuery,
        },
      },
      async (req, reply) => {
        const img = await admin.kycImage(actorOf(req), req.query.imageId);
        return reply.type(img.mime).header('cache-control', 'no-store').send(img.bytes);
      },
    );
    app.post(
      `/api/${ADMIN_PATHS.kycApprove}`,
      {
        preHandler: requireOperator('kyc_decide'),
        schema: { tags: TAGS, summary: 'Approve a pending KYC application', headers: ADMIN_HEADERS, body: AdminKycApproveBody, response: { 200: NullResult } },
      },
      async (req) => {
        await admin.kycDecide(actorOf(req), req.body.id, { approve: true });
        return ok(null);
      },
    );
    app.post(
      `/api/${ADMIN_PATHS.kycReject}`,
      {
        preHandler: requireOperator('kyc_decide'),
        schema: {
          tags: TAGS,
          summary: 'Reject a pending KYC application with a reason in zh and en (the user sees it)',
          headers: ADMIN_HEADERS,
          body: AdminKycRejectBody,
          response: { 200: NullResult },
        },
      },
      async (req) => {
        await admin.kycDecide(actorOf(req), req.body.id, { approve: false, reasonZh: req.body.reasonZh.trim(), reasonEn: req.body.reasonEn.trim() });
        return ok(null);
      },
    );

    // ---------------------------------------------------------------- operators (admin role)
    const operators = requireOperator('operators');
    app.get(
      `/api/${ADMIN_PATHS.operatorList}`,
      { preHandler: operators, schema: { tags: TAGS, summary: 'Every operator', headers: ADMIN_HEADERS, response: { 200: Envelope(Type.Array(Operator)) } } },
      async () => ok(await admin.listOperators()),
    );
    app.post(
      `/api/${ADMIN_PATHS.operatorCreate}`,
      {
        preHandler: operators,
        schema: {
          tags: TAGS,
          summary: 'Create an operator; the password and TOTP key are shown once',
          headers: ADMIN_HEADERS,
          body: AdminOperatorCreateBody,
          response: { 200: Envelope(OperatorCredentials) },
        },
      },
      async (req) => ok(await admin.createOperator(actorOf(req), req.body)),
    );
    app.post(
      `/api/${ADMIN_PATHS.operatorDisable}`,
      {
        preHandler: operators,
        schema: {
          tags: TAGS,
          summary: 'Disable (revoking its sessions) or enable an operator',
          headers: ADMIN_HEADERS,
          body: AdminOperatorDisableBody,
          response: { 200: NullResult },
        },
      },
      async (req) => {
        await admin.setOperatorDisabled(actorOf(req), req.body.operatorId, req.body.disabled);
        return ok(null);
      },
    );
    app.post(
      `/api/${ADMIN_PATHS.operatorResetTotp}`,
      {
        preHandler: operators,
        schema: {
          tags: TAGS,
          summary: 'Give an operator a new TOTP key (shown once); its sessions end',
          headers: ADMIN_HEADERS,
          body: AdminOperatorIdBody,
          response: { 200: Envelope(AdminTotpReset) },
        },
      },
      async (req) => ok(await admin.resetOperatorTotp(actorOf(req), req.body.operatorId)),
    );
  };
}
