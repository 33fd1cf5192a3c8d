/** The inbox module (platform/domain-module.ts): the in-app inbox: messages from the users' events, unread counts, read marks. */
import type { DomainModule } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { createInboxService, type InboxService } from './inbox.service';
import inboxRoutes from './inbox.routes';

export const inboxModule: DomainModule<PlatformContext, { inbox: InboxService }> = {
  name: 'inbox',
  create: (ctx) => ({ inbox: createInboxService({ db: ctx.db, host: ctx.host }) }),
  routes: [inboxRoutes],
};
