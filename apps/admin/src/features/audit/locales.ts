/**
 * The audit log page's menu label (the audit table's texts are shared, in src/locales), in English (the source of the
 * key set) and Chinese. src/locales/features.ts merges them into the console's texts.
 */
import type { FeatureTexts } from '../../locales/features';

const en = {
  nav: { audit: 'Audit log' },
};

const zh: typeof en = {
  nav: { audit: '审计日志' },
};

export default { en, zh } satisfies FeatureTexts;
