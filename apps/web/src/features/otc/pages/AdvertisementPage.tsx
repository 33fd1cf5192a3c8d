/**
 * /advertisement: the merchant's ads: the list with each ad's status, price, remaining quantity and limits,
 * pause / resume / edit / close; "Post an ad" opens the form (components/AdForm). Not an active merchant: a link to
 * the merchant application.
 */
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button } from 'antd-mobile';
import type { OtcAd, OtcAdStatus } from '@exchange/api';
import { showToast } from '../../../shared/api-client';
import { EmptyState, isAwaiting, ListSkeleton, LoadFailed, PageHeader } from '../../../shared/ui';
import { loadFeedback } from '../../../shared/ui/feedback';
import { useAdActions } from '../api/ad-actions';
import { useOtcConfig } from '../api/get-config';
import { useOtcMerchant } from '../api/get-merchant';
import { useMyOtcAds } from '../api/get-my-ads';
import { useMyPayments } from '../api/get-payments';
import { AdForm } from '../components/AdForm';
import { PayTypeTag } from '../components/parts';
import type { AdFormValues } from '../lib/ad-form';
import '../otc.css';
import { formatCny, formatCoin } from '../../../shared/format';

function toBody(v: AdFormValues) {
  return {
    priceType: v.priceType,
    ...(v.priceType === 'FIXED' ? { price: v.price.trim() } : { floatPercent: v.floatPercent.trim() }),
    quantity: v.quantity.trim(),
    minFiat: v.minFiat.trim(),
    maxFiat: v.maxFiat.trim(),
    paymentWindowMinutes: v.paymentWindowMinutes,
    paymentMethodIds: v.paymentMethodIds.join(','),
    remarks: v.remarks,
  };
}

/** One of the merchant's ads with its actions. */
export function MyAdCard({ ad, onEdit, onStatus }: { ad: OtcAd; onEdit: () => void; onStatus: (s: OtcAdStatus) => void }) {
  const { t } = useTranslation('otc');
  return (
    <li className="otc-card" aria-label={t('ads.adOf', { id: ad.adId })}>
      <div className="otc-card-top">
        <span className={ad.side === 'SELL' ? 'c-down otc-strong' : 'c-up otc-strong'}>{t(`adForm.sides.${ad.side}`, { coin: ad.coin })}</span>
        <span className={`otc-state otc-ad-${ad.status.toLowerCase()}`}>{t(`ads.status.${ad.status}`)}</span>
      </div>
      <div className="otc-row">
        <span className="otc-row-label">{t('order.price')}</span>
        <span className="otc-row-value otc-strong">
          {formatCny(ad.price)}
          {ad.priceType === 'FLOAT' && <span className="text-3"> ({ad.floatPercent}%)</span>}
        </span>
      </div>
      <div className="otc-row">
        <span className="otc-row-label">{t('ads.remaining')}</span>
        <span className="otc-row-value">
          {formatCoin(ad.remaining, ad.coin)} / {formatCoin(ad.total, ad.coin)} {ad.coin}
        </span>
      </div>
      <div className="otc-row">
        <span className="otc-row-label">{t('ad.limits')}</span>
        <span className="otc-row-value">
          {formatCny(ad.minFiat)} - {formatCny(ad.maxFiat)}
        </span>
      </div>
      <div className="otc-pays">
        {ad.payTypes.map((p) => (
          <PayTypeTag key={p} type={p} />
        ))}
      </div>
      {ad.status !== 'CLOSED' && (
        <div className="otc-card-actions">
          {ad.status === 'ONLINE' ? (
            <Button size="mini" onClick={() => onStatus('PAUSED')}>
              {t('ads.pause')}
            </Button>
          ) : (
            <Button size="mini" color="primary" onClick={() => onStatus('ONLINE')}>
              {t('ads.resume')}
            </Button>
          )}
          <Button size="mini" onClick={onEdit}>
            {t('ads.edit')}
          </Button>
          <Button size="mini" color="danger" fill="outline" onClick={() => onStatus('CLOSED')}>
            {t('ads.close')}
          </Button>
        </div>
      )}
    </li>
  );
}

/** The merchant's ads page. */
export default function AdvertisementPage() {
  const { t } = useTranslation('otc');
  const navigate = useNavigate();
  const merchant = useOtcMerchant();
  const config = useOtcConfig();
  const ads = useMyOtcAds();
  const payments = useMyPayments();
  const { publish, update, setStatus } = useAdActions();
  const [editing, setEditing] = useState<OtcAd | 'new' | null>(null);
  const active = merchant.data?.state === 'ACTIVE';

  const onStatus = (ad: OtcAd, status: OtcAdStatus) => {
    const go = () => setStatus.mutate({ adId: ad.adId, status }, { onSuccess: () => showToast(t(`ads.done.${status}`)) });
    if (status !== 'CLOSED') return go();
    void loadFeedback()
      .then(({ Dialog }) => Dialog.confirm({ content: t('ads.closeConfirm'), confirmText: t('ads.close'), cancelText: t('common:cancel') }))
      .then((ok) => ok && go());
  };

  const submit = (v: AdFormValues) => {
    const done = () => {
      showToast(t(editing === 'new' ? 'ads.published' : 'ads.saved'));
      setEditing(null);
    };
    if (editing === 'new') publish.mutate({ side: v.side, ...toBody(v), clientId: `ad${Date.now().toString(36)}` }, { onSuccess: done });
    else if (editing) update.mutate({ adId: editing.adId, ...toBody(v) }, { onSuccess: done });
  };

  const right =
    active && !editing ? (
      <button type="button" className="otc-link" onClick={() => setEditing('new')}>
        {t('ads.post')}
      </button>
    ) : null;

  let body;
  if (isAwaiting(merchant) || isAwaiting(config)) body = <ListSkeleton />;
  else if (merchant.isError || config.isError || !config.data)
    body = <LoadFailed error={merchant.error ?? config.error} onRetry={() => void merchant.refetch()} />;
  else if (!active)
    body = (
      <EmptyState
        text={t('ads.notMerchant')}
        action={
          <Button color="primary" size="small" onClick={() => navigate('/transaction/merchantAudit')}>
            {t('merchant.title')}
          </Button>
        }
      />
    );
  // The form's payment methods: without them it would say "add a payment method" before they arrived.
  else if (editing && isAwaiting(payments)) body = <ListSkeleton rows={3} />;
  else if (editing)
    body = (
      <AdForm
        key={editing === 'new' ? 'new' : editing.adId}
        ad={editing === 'new' ? undefined : editing}
        config={config.data}
        methods={payments.data ?? []}
        busy={publish.isPending || update.isPending}
        onSubmit={submit}
        onCancel={() => setEditing(null)}
      />
    );
  else if (isAwaiting(ads)) body = <ListSkeleton />;
  else if (ads.isError && !ads.data) body = <LoadFailed error={ads.error} onRetry={() => void ads.refetch()} />;
  else if (!ads.data?.length)
    body = (
      <EmptyState
        text={t('ads.empty')}
        action={
          <Button color="primary" size="small" onClick={() => setEditing('new')}>
            {t('ads.post')}
          </Button>
        }
      />
    );
  else
    body = (
      <ul className="otc-list" aria-label={t('ads.title')}>
        {ads.data.map((ad) => (
          <MyAdCard key={ad.adId} ad={ad} onEdit={() => setEditing(ad)} onStatus={(s) => onStatus(ad, s)} />
        ))}
      </ul>
    );

  return (
    <div className="otc-page">
      <PageHeader
        title={editing ? t(editing === 'new' ? 'adForm.title' : 'adForm.editTitle') : t('ads.title')}
        right={right}
        onBack={editing ? () => setEditing(null) : undefined}
        fallback="/transaction/merchantAudit"
      />
      {body}
    </div>
  );
}
