/**
 * /transaction/transactionFabi (the user buys) and /transaction/transactionFabi1 (the user sells): the P2P market,
 * as Binance P2P: Buy/Sell tabs, a filter by fiat amount and payment type, the ads (best price first), and each ad's
 * button opening the order entry /transactionDetail?adId= after the login, nickname and verification checks. The
 * header leads to my orders and the merchant pages.
 */
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Input } from 'antd-mobile';
import type { OtcAd, OtcPayType, OtcSide } from '@exchange/api';
import { EmptyState, isAwaiting, ListSkeleton, LoadFailed, PageHeader } from '../../../shared/ui';
import { SegTabs } from '../../../shared/ui/SegTabs';
import { useOtcAds } from '../api/get-ads';
import { useOtcConfig } from '../api/get-config';
import { AdCard } from '../components/AdCard';
import { useOtcTradeGuard } from '../hooks/use-trade-guard';
import { fiatToCents } from '../lib/amount';
import '../otc.css';

/** The routes of the two sides. */
export const MARKET_ROUTE: Record<OtcSide, string> = { BUY: '/transaction/transactionFabi', SELL: '/transaction/transactionFabi1' };
const PAY_FILTERS: readonly (OtcPayType | '')[] = ['', 'BANK', 'WECHAT', 'ALIPAY'];

/** The market of one side. */
export function MarketPage({ side }: { side: OtcSide }) {
  const { t } = useTranslation('otc');
  const navigate = useNavigate();
  const guard = useOtcTradeGuard();
  const [amountInput, setAmountInput] = useState('');
  const [payType, setPayType] = useState<OtcPayType | ''>('');
  const amountOk = amountInput === '' || fiatToCents(amountInput) !== null;
  const amount = amountOk ? amountInput.trim() : '';
  const ads = useOtcAds(side, amount, payType);
  const config = useOtcConfig();
  const coin = config.data?.coin ?? 'USDT';

  const onTake = (ad: OtcAd) => {
    if (!guard()) return;
    navigate(`/transactionDetail?adId=${encodeURIComponent(ad.adId)}`);
  };

  const right = (
    <button type="button" className="otc-link" onClick={() => navigate('/transaction/otcOrder')}>
      {t('orders.title')}
    </button>
  );
  const records = ads.data?.records ?? [];
  return (
    <div className="otc-page">
      <PageHeader title={t('market.title')} right={right} fallback="/transaction" />
      <SegTabs
        classPrefix="otc"
        label={t('market.title')}
        items={(['BUY', 'SELL'] as const).map((k) => ({ key: k, label: t(k === 'BUY' ? 'market.buy' : 'market.sell') }))}
        active={side}
        onChange={(k) => navigate(MARKET_ROUTE[k], { replace: true })}
      />
      <div className="otc-filters">
        <div className="otc-amount-filter">
          <Input
            aria-label={t('market.amountFilter')}
            placeholder={t('market.amountFilter')}
            value={amountInput}
            inputMode="decimal"
            clearable
            onChange={setAmountInput}
          />
          <span className="text-3">{config.data?.fiat ?? 'CNY'}</span>
        </div>
        {!amountOk && (
          <div className="otc-error" role="alert">
            {t('error.amountFormat')}
          </div>
        )}
        <SegTabs
          classPrefix="otc"
          variant="pill"
          label={t('market.payFilter')}
          items={PAY_FILTERS.map((k) => ({ key: k || 'ALL', label: k ? t(`payType.${k}`) : t('market.allPay') }))}
          active={payType || 'ALL'}
          onChange={(k) => setPayType(k === 'ALL' ? '' : (k as OtcPayType))}
        />
      </div>
      <div className="otc-index text-3">{config.data && t('market.index', { price: config.data.indexPrice, coin, fiat: config.data.fiat })}</div>
      {isAwaiting(ads) ? (
        <ListSkeleton />
      ) : ads.isError && !ads.data ? (
        <LoadFailed error={ads.error} onRetry={() => void ads.refetch()} />
      ) : records.length === 0 ? (
        <EmptyState text={t('market.empty')} />
      ) : (
        <ul className="otc-list" aria-label={t(side === 'BUY' ? 'market.buy' : 'market.sell')}>
          {records.map((ad) => (
            <AdCard key={ad.adId} ad={ad} userSide={side} onTake={onTake} />
          ))}
        </ul>
      )}
      <div className="otc-foot">
        <button type="button" className="otc-link" onClick={() => navigate('/transaction/merchantAudit')}>
          {t('merchant.entry')}
        </button>
        <button type="button" className="otc-link" onClick={() => navigate('/otc365agreement')}>
          {t('agreement.otcTitle')}
        </button>
      </div>
    </div>
  );
}

/** /transaction/transactionFabi: the user buys. */
export default function BuyMarketPage() {
  return <MarketPage side="BUY" />;
}
