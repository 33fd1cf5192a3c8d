/** The convert module (platform/domain-module.ts): convert: quotes at the order book, guaranteed for 10 s. */
import type { AppContext, DomainModule, DomainServices } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { createConvertService, type ConvertService } from './convert.service';
import convertRoutes from './convert.routes';

declare module '../../platform/domain-module' {
  interface DomainServices {
    convert: ConvertService;
  }
}

export const convertModule: DomainModule<PlatformContext, Pick<DomainServices, 'convert'>> = {
  name: 'convert',
  create: (ctx) => ({ convert: createConvertService({ db: ctx.db, host: ctx.host, now: ctx.clock.now }) }),
  routes: (ctx) => [convertRoutes({ convert: ctx.convert })],
};
export default convertModule satisfies DomainModule<AppContext>;
