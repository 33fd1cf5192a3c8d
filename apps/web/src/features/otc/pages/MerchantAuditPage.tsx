/**
 * /transaction/merchantAudit: the merchant status (none, pending review, active with its stats, suspended, rejected
 * with the operator's reason, left) and the application: the security deposit held from the OTC account, the merchant
 * agreement (/merchantAgreement) accepted, the transaction password. An active merchant goes to its ads or leaves
 * (the deposit released). Applying needs login, a nickname and identity verification (spec section 4 prompts).
 */
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button, Checkbox } from 'antd-mobile';
import type { OtcMerchantView } from '@exchange/api';
import { showToast } from '../../../shared/api-client';
import { InlineLoading, LoadFailed, PageHeader } from '../../../shared/ui';
import { PinPopup } from '../../../shared/ui/PinInput';
import { loadFeedback } from '../../../shared/ui/feedback';
import { useAppStore } from '../../../shared/storage';
import { useOtcConfig } from '../api/get-config';
import { useOtcMerchant } from '../api/get-merchant';
import { useMerchantActions } from '../api/merchant-actions';
import { InfoRow, releaseMinutes } from '../components/parts';
import { useOtcTradeGuard } from '../hooks/use-trade-guard';
import '../otc.css';

/** The status card and actions of a loaded merchant record. */
export function MerchantStatus({ m, coin }: { m: OtcMerchantView; coin: string }) {
  const { t } = useTranslation('otc');
  const navigate = useNavigate();
  const guard = useOtcTradeGuard();
  const { apply, leave } = useMerchantActions();
  const [agree, setAgree] = useState(false);
  const [pin, setPin] = useState<'apply' | 'leave' | null>(null);
  const canApply = m.state === 'NONE' || m.state === 'REJECTED' || m.state === 'LEFT';

  const onApply = () => {
    if (!guard()) return;
    if (!agree) {
      showToast(t('merchant.mustAgree'), 2000);
      return;
    }
    setPin('apply');
  };
  const onLeave = () =>
    void loadFeedback()
      .then(({ Dialog }) =>
        Dialog.confirm({ content: t('merchant.leaveConfirm', { deposit: m.deposit, coin }), confirmText: t('merchant.leave'), cancelText: t('common:cancel') }),
      )
      .then((ok) => ok && setPin('leave'));

  return (
    <>
      <section className={`otc-banner otc-banner-merchant-${m.state.toLowerCase()}`} role="status">
        <h2 className="otc-banner-title">{t(`merchant.state.${m.state}`)}</h2>
        <div className="otc-banner-sub">{t(`merchant.stateHint.${m.state}`)}</div>
        {m.reason && (m.state === 'REJECTED' || m.state === 'SUSPENDED') && <div className="otc-banner-sub">{t('merchant.reason', { reason: m.reason })}</div>}
      </section>
      <section className="otc-section">
        <InfoRow label={t('merchant.deposit')} value={`${canApply ? m.requiredDeposit : m.deposit} ${coin}`} strong />
        {(m.state === 'ACTIVE' || m.state === 'SUSPENDED') && (
          <>
            <InfoRow label={t('merchant.orders30d')} value={String(m.stats.orders30d)} />
            <InfoRow label={t('merchant.completion30d')} value={`${m.stats.completionRate30d}%`} />
            <InfoRow label={t('merchant.avgRelease')} value={t('merchant.minutes', { n: releaseMinutes(m.stats.avgReleaseSeconds) })} />
          </>
        )}
      </section>
      {canApply && (
        <section className="otc-section">
          <ul className="otc-rules">
            <li>{t('merchant.rule1', { deposit: m.requiredDeposit, coin })}</li>
            <li>{t('merchant.rule2')}</li>
            <li>{t('merchant.rule3')}</li>
          </ul>
          <Checkbox checked={agree} onChange={setAgree} className="otc-agree">
            {t('merchant.agreePrefix')}{' '}
          </Checkbox>
          <button type="button" className="otc-link" onClick={() => navigate('/merchantAgreement')}>
            {t('agreement.merchantTitle')}
          </button>
          <div className="otc-actions">
            <Button block color="primary" loading={apply.isPending} onClick={onApply}>
              {t('merchant.apply')}
            </Button>
          </div>
        </section>
      )}
      {(m.state === 'ACTIVE' || m.state === 'SUSPENDED') && (
        <div className="otc-actions">
          {m.state === 'ACTIVE' && (
            <Button block color="primary" onClick={() => navigate('/advertisement')}>
              {t('ads.title')}
            </Button>
          )}
          <Button block fill="outline" loading={leave.isPending} onClick={onLeave}>
            {t('merchant.leave')}
          </Button>
        </div>
      )}
      <PinPopup
        visible={pin !== null}
        onClose={() => setPin(null)}
        onSubmit={(p) =>
          (pin === 'leave' ? leave.mutateAsync(p) : apply.mutateAsync(p)).then(() => showToast(t(pin === 'leave' ? 'merchant.left' : 'merchant.applied')))
        }
      />
    </>
  );
}

/** The merchant status and application page. */
export default function MerchantAuditPage() {
  const { t } = useTranslation('otc');
  const isLogin = useAppStore((s) => s.isLogin);
  const q = useOtcMerchant();
  const config = useOtcConfig();
  const guard = useOtcTradeGuard();
  return (
    <div className="otc-page">
      <PageHeader title={t('merchant.title')} fallback="/transaction/transactionFabi" />
      {!isLogin ? (
        <div className="otc-actions">
          <Button block color="primary" onClick={() => void guard()}>
            {t('merchant.apply')}
          </Button>
        </div>
      ) : q.isLoading ? (
        <InlineLoading />
      ) : q.isError || !q.data ? (
        <LoadFailed error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        <MerchantStatus m={q.data} coin={config.data?.coin ?? 'USDT'} />
      )}
    </div>
  );
}
