/** The inbox module (platform/domain-module.ts): the in-app inbox: messages from the users' events, unread counts, read marks. */
import type { DomainModule } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { createInboxService, type InboxService } from './inbox.service';
import inboxRoutes from './inbox.routes';
import { inboxProjection } from './inbox.projection';

export const inboxModule: DomainModule<PlatformContext, { inbox: InboxService }> = {
  name: 'inbox',
  projection: inboxProjection,
  create: (ctx) => ({ inbox: createInboxService({ db: ctx.db, host: ctx.host }) }),
  routes: [inboxRoutes],
};
