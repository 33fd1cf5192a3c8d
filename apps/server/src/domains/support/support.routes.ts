/**
 * Routes of the app's customer-service chat (packages/api support.ts SUPPORT_PATHS), all behind requireAuth: the
 * chat state, the messages, sending (text or an image uploaded with purpose SUPPORT) and the images of the caller's
 * own messages. Thin: validation by the shared TypeBox schemas, rules in SupportService. A visitor gets 401 here; the
 * app shows them the log-in prompt instead of the chat.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  Envelope,
  GetSupportMessagesQuery,
  SendSupportMessageBody,
  SUPPORT_PATHS,
  SupportChatState,
  SupportImageQuery,
  SupportMessage,
  SupportMessagePage,
} from '@exchange/api';
import { ok } from '../../platform/shared/envelope';
import { requestLang } from '../../platform/shared/lang';
import type { SupportService } from './support.service';

const TAGS = ['support'];

/** The app's support routes over the support service. */
export default function supportRoutes({ support }: { support: SupportService }): FastifyPluginAsync {
  return async function supportRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const { requireAuth } = app; // the shared session checks, decorated by main/app.ts
    const auth = { preHandler: requireAuth };

    app.get(
      `/api/${SUPPORT_PATHS.getState}`,
      {
        ...auth,
        schema: {
          tags: TAGS,
          summary: 'Your support chat: the open conversation, unread replies, whether an operator is online',
          response: { 200: Envelope(SupportChatState) },
        },
      },
      async (req) => ok(await support.state(req.userId)),
    );

    app.get(
      `/api/${SUPPORT_PATHS.getMessages}`,
      {
        ...auth,
        schema: {
          tags: TAGS,
          summary: 'Your support messages after or before an id (the last 50 by default), oldest first; marks replies read',
          querystring: GetSupportMessagesQuery,
          response: { 200: Envelope(SupportMessagePage) },
        },
      },
      async (req) => ok(await support.messages(req.userId, req.query)),
    );

    app.post(
      `/api/${SUPPORT_PATHS.sendMessage}`,
      {
        ...auth,
        schema: {
          tags: TAGS,
          summary: 'Write to customer service: text and/or an uploaded image (purpose SUPPORT); at most 10 messages every 10 s',
          body: SendSupportMessageBody,
          response: { 200: Envelope(SupportMessage) },
        },
      },
      async (req) => ok(await support.send(req.userId, requestLang(req), req.body)),
    );

    app.get(
      `/api/${SUPPORT_PATHS.image}`,
      { ...auth, schema: { tags: TAGS, summary: 'An image of one of your support messages', querystring: SupportImageQuery } },
      async (req, reply) => {
        const img = await support.image({ userId: req.userId }, req.query.imageId);
        return reply.type(img.mime).header('cache-control', 'private, no-store').header('content-disposition', 'inline').send(img.bytes);
      },
    );
  };
}
