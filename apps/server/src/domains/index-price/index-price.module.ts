/**
 * The index-price module (platform/domain-module.ts): the live index's audit table and its retention. The live index
 * itself (live-index.ts) runs inside the market jobs' index job when INDEX_SOURCE=live.
 */
import type { DomainModule } from '../../platform/domain-module';
import { indexTicksRetention } from './index-price.tables';

export const indexPriceModule: DomainModule<object> = {
  name: 'index-price',
  retention: indexTicksRetention,
};
