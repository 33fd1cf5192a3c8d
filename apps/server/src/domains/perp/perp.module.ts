/** The perp module (platform/domain-module.ts): uSDT perpetuals, user side: account, positions, settings, orders, records. */
import type { AppContext, DomainModule, DomainServices } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { createPerpService, type PerpService } from './perp.service';
import perpRoutes from './perp.routes';
import { createPerpConditionalService, type PerpConditionalService } from './perp.conditional';
import { perpProjection } from './perp.projection';
import { perpPushes } from './perp.push';
import { perpRetention } from './perp.tables';

declare module '../../platform/domain-module' {
  interface DomainServices {
    perp: PerpService;
    perpConditional: PerpConditionalService;
  }
}

export const perpModule: DomainModule<PlatformContext, Pick<DomainServices, 'perp' | 'perpConditional'>> = {
  name: 'perp',
  retention: perpRetention,
  projection: perpProjection,
  pushes: perpPushes,
  create: (ctx) => {
    const perp = createPerpService({ db: ctx.db, host: ctx.host });
    return { perp, perpConditional: createPerpConditionalService({ db: ctx.db, host: ctx.host, perp }) };
  },
  routes: (ctx) => [perpRoutes({ perp: ctx.perp, conditional: ctx.perpConditional, config: ctx.config })],
};
export default perpModule satisfies DomainModule<AppContext>;
