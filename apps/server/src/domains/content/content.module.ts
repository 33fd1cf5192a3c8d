/** The content module (platform/domain-module.ts): content edited in the console: banners, notices, help centre, pages. */
import type { AppContext, DomainModule, DomainServices } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import path from 'node:path';
import { createContentService, type ContentService } from './content.service';
import type { UploadsService } from '../uploads/uploads.service';
import contentRoutes from './content.routes';
import contentAdminRoutes from './content.admin.routes';

declare module '../../platform/domain-module' {
  interface DomainServices {
    content: ContentService;
  }
}

export const contentModule: DomainModule<PlatformContext & { uploads: UploadsService }, Pick<DomainServices, 'content'>> = {
  name: 'content',
  after: ['uploads'],
  create: async (ctx) => {
    const content = createContentService({ db: ctx.db, images: ctx.uploads, now: ctx.clock.now });
    // the first start writes the demo's banners, notices, help centre and pages, published
    await content.seed(path.join(ctx.config.dataDir, 'static', 'banners'), ctx.clock.now());
    return { content };
  },
  routes: (ctx) => [contentRoutes({ content: ctx.content }), contentAdminRoutes({ content: ctx.content })],
};
export default contentModule satisfies DomainModule<AppContext>;
