/** The entrust module (platform/domain-module.ts): spot orders: entry, cancels, open orders and history. */
import type { DomainModule } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { createEntrustService, type EntrustService } from './entrust.service';
import entrustRoutes from './entrust.routes';
import { entrustProjection } from './entrust.projection';
import { entrustPushes } from './entrust.push';
import { entrustRetention } from './entrust.tables';

export const entrustModule: DomainModule<PlatformContext, { entrust: EntrustService }> = {
  name: 'entrust',
  retention: entrustRetention,
  projection: entrustProjection,
  pushes: entrustPushes,
  create: (ctx) => ({ entrust: createEntrustService({ config: ctx.config, db: ctx.db, log: ctx.log, host: ctx.host }) }),
  routes: (ctx) => [entrustRoutes({ entrust: ctx.entrust, config: ctx.config })],
};
