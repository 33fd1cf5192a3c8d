/** The content module (platform/domain-module.ts): content edited in the console: banners, notices, help centre, pages. */
import type { DomainModule } from '../../platform/domain-module';
import contentRoutes from './content.routes';
import contentAdminRoutes from './content.admin.routes';

export const contentModule: DomainModule<unknown> = {
  name: 'content',
  routes: [contentRoutes, contentAdminRoutes],
};
