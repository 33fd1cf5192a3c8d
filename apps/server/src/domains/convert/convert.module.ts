/** The convert module (platform/domain-module.ts): convert: quotes at the order book, guaranteed for 10 s. */
import type { DomainModule } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { createConvertService, type ConvertService } from './convert.service';
import convertRoutes from './convert.routes';

export const convertModule: DomainModule<PlatformContext, { convert: ConvertService }> = {
  name: 'convert',
  create: (ctx) => ({ convert: createConvertService({ db: ctx.db, host: ctx.host, now: ctx.clock.now }) }),
  routes: (ctx) => [convertRoutes({ convert: ctx.convert })],
};
