/**
 * Console routes of customer service (packages/api support.ts SUPPORT_ADMIN_PATHS): the queue, a conversation, reply,
 * assign or claim, close, images, the operators who can take conversations, and the canned replies. Every route needs
 * an operator whose role has `support` (support, admin: the chats hold users' personal details); the others get 403.
 * Each call marks the operator present (the app's "operator online"). Every action writes its audit row.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  AdminSupportAssignBody,
  AdminSupportCloseBody,
  AdminSupportConversation,
  AdminSupportConversationDetail,
  AdminSupportConversationQuery,
  AdminSupportImageQuery,
  AdminSupportQueue,
  AdminSupportQueueQuery,
  AdminSupportReplyBody,
  CannedReply,
  DeleteCannedReplyBody,
  Envelope,
  SaveCannedReplyBody,
  SUPPORT_ADMIN_PATHS,
  SupportAgent,
  SupportMessage,
} from '@exchange/api';
import { ok } from '../../platform/shared/envelope';
import { actorOf } from '../../platform/shared/operator';
import type { SupportService } from './support.service';

const TAGS = ['admin'];
const ADMIN_HEADERS = Type.Object({ 'x-admin-token': Type.Optional(Type.String({ maxLength: 128 })) });

/** The console's support routes over the support service. */
export default function supportAdminRoutes({ support }: { support: SupportService }): FastifyPluginAsync {
  return async function supportAdminRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const { requireOperator } = app; // the shared session checks, decorated by main/app.ts
    const allowed = requireOperator('support');
    /** The role check, then the operator's presence. */
    const preHandler = async function (this: unknown, req: FastifyRequest, reply: FastifyReply): Promise<void> {
      await allowed.call(this as never, req, reply);
      support.seen(actorOf(req));
    };
    const s = <T extends object>(summary: string, extra: T) => ({ preHandler, schema: { tags: TAGS, summary, headers: ADMIN_HEADERS, ...extra } });

    app.get(
      `/api/${SUPPORT_ADMIN_PATHS.conversations}`,
      s('The support queue: OPEN (waiting first, the longest waiting first), WAITING, MINE, ASSIGNED or CLOSED', {
        querystring: AdminSupportQueueQuery,
        response: { 200: Envelope(AdminSupportQueue) },
      }),
      async (req) => ok(await support.queue(actorOf(req), req.query.filter ?? 'OPEN', req.query.page ?? 1, req.query.pageSize ?? 20)),
    );

    app.get(
      `/api/${SUPPORT_ADMIN_PATHS.conversation}`,
      s("A conversation and its messages (after afterId, or the last 200); marks the user's messages read", {
        querystring: AdminSupportConversationQuery,
        response: { 200: Envelope(AdminSupportConversationDetail) },
      }),
      async (req) => ok(await support.conversation(actorOf(req), req.query.conversationId, req.query.afterId)),
    );

    app.post(
      `/api/${SUPPORT_ADMIN_PATHS.reply}`,
      s('Reply to a conversation (claims it when unassigned); pushed live to the user', {
        body: AdminSupportReplyBody,
        response: { 200: Envelope(SupportMessage) },
      }),
      async (req) => ok(await support.reply(actorOf(req), req.body.conversationId, req.body.text)),
    );

    app.post(
      `/api/${SUPPORT_ADMIN_PATHS.assign}`,
      s('Assign a conversation to an operator who can take it, or claim it (no operatorId)', {
        body: AdminSupportAssignBody,
        response: { 200: Envelope(AdminSupportConversation) },
      }),
      async (req) => ok(await support.assign(actorOf(req), req.body.conversationId, req.body.operatorId)),
    );

    app.post(
      `/api/${SUPPORT_ADMIN_PATHS.close}`,
      s("Close a conversation (the user's next message opens a new one)", {
        body: AdminSupportCloseBody,
        response: { 200: Envelope(AdminSupportConversation) },
      }),
      async (req) => ok(await support.close(actorOf(req), req.body.conversationId)),
    );

    app.get(`/api/${SUPPORT_ADMIN_PATHS.image}`, s("An image of a conversation's messages", { querystring: AdminSupportImageQuery }), async (req, reply) => {
      const img = await support.image({ conversationId: req.query.conversationId }, req.query.imageId);
      return reply.type(img.mime).header('cache-control', 'private, no-store').header('content-disposition', 'inline').send(img.bytes);
    });

    app.get(
      `/api/${SUPPORT_ADMIN_PATHS.agents}`,
      s('Operators who can take conversations, and whether each is online', { response: { 200: Envelope(Type.Array(SupportAgent)) } }),
      async () => ok(await support.agents()),
    );

    app.get(
      `/api/${SUPPORT_ADMIN_PATHS.cannedReplies}`,
      s('Canned replies (zh and en), by title', { response: { 200: Envelope(Type.Array(CannedReply)) } }),
      async () => ok(await support.cannedReplies()),
    );

    app.post(
      `/api/${SUPPORT_ADMIN_PATHS.saveCannedReply}`,
      s('Create (no id) or edit a canned reply', { body: SaveCannedReplyBody, response: { 200: Envelope(CannedReply) } }),
      async (req) => ok(await support.saveCannedReply(actorOf(req), req.body)),
    );

    app.post(
      `/api/${SUPPORT_ADMIN_PATHS.deleteCannedReply}`,
      s('Delete a canned reply', { body: DeleteCannedReplyBody, response: { 200: Envelope(Type.Null()) } }),
      async (req) => {
        await support.deleteCannedReply(actorOf(req), req.body.id);
        return ok(null);
      },
    );
  };
}
