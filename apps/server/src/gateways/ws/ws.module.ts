/** The ws module (platform/domain-module.ts): the app's WebSocket channels (/ws/websocket). */
import type { DomainModule } from '../../platform/domain-module';
import wsRoutes from './ws.routes';

export const wsModule: DomainModule<unknown> = {
  name: 'ws',
  routes: [wsRoutes],
};
