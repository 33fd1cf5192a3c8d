/** The ws module (platform/domain-module.ts): the app's WebSocket channels (/ws/websocket). */
import type { AppContext, DomainModule } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import wsRoutes, { type WsRoutesDeps } from './ws.routes';

export const wsModule: DomainModule<PlatformContext & Pick<WsRoutesDeps, 'marketData' | 'perpMarket' | 'members'>> = {
  name: 'ws',
  routes: (ctx) => [
    wsRoutes({
      marketData: ctx.marketData,
      perpMarket: ctx.perpMarket,
      pushes: ctx.pushes ?? [],
      // Each domain's `source` reads its own service from the context, which holds every module's.
      sources: () => (ctx.pushes ?? []).flatMap((p) => p.source?.(ctx) ?? []),
      host: ctx.host,
      members: ctx.members,
      hooks: ctx.hooks,
      config: ctx.config,
    }),
  ],
};
export default wsModule satisfies DomainModule<AppContext>;
