/** The inbox module (platform/domain-module.ts): the in-app inbox: messages from the users' events, unread counts, read marks. */
import type { AppContext, DomainModule, DomainServices } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { createInboxService, type InboxService } from './inbox.service';
import inboxRoutes from './inbox.routes';
import { inboxProjection } from './inbox.projection';
import { inboxPushes } from './inbox.push';
import { inboxRetention } from './inbox.tables';

declare module '../../platform/domain-module' {
  interface DomainServices {
    inbox: InboxService;
  }
}

export const inboxModule: DomainModule<PlatformContext, Pick<DomainServices, 'inbox'>> = {
  name: 'inbox',
  retention: inboxRetention,
  projection: inboxProjection,
  pushes: inboxPushes,
  create: (ctx) => ({ inbox: createInboxService({ db: ctx.db, host: ctx.host }) }),
  routes: (ctx) => [inboxRoutes({ inbox: ctx.inbox })],
};
export default inboxModule satisfies DomainModule<AppContext>;
