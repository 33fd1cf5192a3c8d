/** The inbox module (platform/domain-module.ts): the in-app inbox: messages from the users' events, unread counts, read marks. */
import type { DomainModule } from '../../platform/domain-module';
import inboxRoutes from './inbox.routes';

export const inboxModule: DomainModule<unknown> = {
  name: 'inbox',
  routes: [inboxRoutes],
};
