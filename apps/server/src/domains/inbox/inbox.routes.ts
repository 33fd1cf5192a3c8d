/**
 * Routes of the in-app inbox (packages/api inbox.ts INBOX_PATHS), all behind requireAuth (a logged-out caller gets
 * the session error; the app's /message page asks him to log in). Thin: validation by the shared TypeBox schemas,
 * the rules in InboxService.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Envelope, GetInboxQuery, INBOX_PATHS, InboxMarked, InboxPage, InboxUnread, MarkAllInboxReadBody, MarkInboxReadBody } from '@exchange/api';
import { ok } from '../../platform/shared/envelope';
import type { InboxService } from './inbox.service';

const TAGS = ['inbox'];

/** The inbox routes over the inbox service. */
export default function inboxRoutes({ inbox }: { inbox: InboxService }): FastifyPluginAsync {
  return async function inboxRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const { requireAuth } = app; // the shared session checks, decorated by main/app.ts
    const auth = { preHandler: requireAuth };

    app.get(
      `/api/${INBOX_PATHS.list}`,
      {
        ...auth,
        schema: {
          tags: TAGS,
          summary: 'Your messages, newest first, paged; of one category when given',
          querystring: GetInboxQuery,
          response: { 200: Envelope(InboxPage) },
        },
      },
      async (req) => ok(await inbox.list(req.userId, req.query.category, req.query.page ?? 1, req.query.pageSize ?? 20)),
    );

    app.get(
      `/api/${INBOX_PATHS.unreadCount}`,
      { ...auth, schema: { tags: TAGS, summary: 'Your unread messages, in total and per category', response: { 200: Envelope(InboxUnread) } } },
      async (req) => ok(await inbox.unread(req.userId)),
    );

    app.post(
      `/api/${INBOX_PATHS.markRead}`,
      { ...auth, schema: { tags: TAGS, summary: 'Marks one of your messages read', body: MarkInboxReadBody, response: { 200: Envelope(InboxMarked) } } },
      async (req) => ok(await inbox.markRead(req.userId, req.body.id)),
    );

    app.post(
      `/api/${INBOX_PATHS.markAllRead}`,
      {
        ...auth,
        schema: {
          tags: TAGS,
          summary: 'Marks all your unread messages read (of one category when given)',
          body: MarkAllInboxReadBody,
          response: { 200: Envelope(InboxMarked) },
        },
      },
      async (req) => ok(await inbox.markAllRead(req.userId, req.body.category)),
    );
  };
}
