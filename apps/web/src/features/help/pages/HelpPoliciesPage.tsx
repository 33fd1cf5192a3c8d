/**
 * /helpCenterDetail4: the help centre's agreements and policies: without `slug`, the list of the text
 * pages edited in the console (user agreement, privacy policy, P2P trading terms, merchant agreement); with
 * ?slug=agreement|privacy|otc|merchant, that page.
 */
import { List } from 'antd-mobile';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { PageSlug } from '@exchange/api';
import { PageHeader } from '../../../shared/ui';
import { ContentDoc } from '../../../shared/content/ContentDoc';
import '../help.css';

/** The text pages listed here, in order. */
export const POLICY_SLUGS = ['agreement', 'privacy', 'otc', 'merchant'] as const satisfies readonly PageSlug[];

/** Policies page. */
export default function HelpPoliciesPage() {
  const { t } = useTranslation('help');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const slug = POLICY_SLUGS.find((s) => s === params.get('slug'));
  if (slug) return <ContentDoc slug={slug} title={t(`policy.${slug}`)} fallback="/helpCenterDetail4" />;
  return (
    <div className="help-page">
      <PageHeader title={t('policies')} fallback="/helpCenter" />
      <List style={{ marginTop: 10 }}>
        {POLICY_SLUGS.map((s) => (
          <List.Item key={s} onClick={() => navigate(`/helpCenterDetail4?slug=${s}`)}>
            {t(`policy.${s}`)}
          </List.Item>
        ))}
      </List>
    </div>
  );
}
