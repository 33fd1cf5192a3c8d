/**
 * One ad of the market (Binance P2P's card): the merchant, the price, what is available, the per-order limits, the
 * accepted payment types, and the Buy/Sell button (the USER's side).
 */
import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import type { OtcAd, OtcSide } from '@exchange/api';
import { formatCny, formatCoin } from '../../../shared/format';
import { MerchantLine, PayTypeTag } from './parts';

/** Props of AdCard: the ad, the user's side, and what the button does. */
export interface AdCardProps {
  ad: OtcAd;
  userSide: OtcSide;
  onTake: (ad: OtcAd) => void;
}

/** The ad card. */
export function AdCard({ ad, userSide, onTake }: AdCardProps) {
  const { t } = useTranslation('otc');
  return (
    <li className="otc-card" aria-label={t('ad.of', { name: ad.merchant.nickName })}>
      <MerchantLine m={ad.merchant} />
      <div className="otc-card-body">
        <div className="otc-card-main">
          <div className="otc-price">
            <span className="otc-price-sym">¥</span>
            <span data-testid="ad-price">{formatCny(ad.price, { symbol: false })}</span>
          </div>
          <div className="otc-line text-2">
            <span className="text-3">{t('ad.available')}</span> {formatCoin(ad.remaining, ad.coin)} {ad.coin}
          </div>
          <div className="otc-line text-2">
            <span className="text-3">{t('ad.limits')}</span> {formatCny(ad.minFiat)} - {formatCny(ad.maxFiat)}
          </div>
          <div className="otc-pays">
            {ad.payTypes.map((p) => (
              <PayTypeTag key={p} type={p} />
            ))}
          </div>
        </div>
        <Button size="small" color={userSide === 'BUY' ? 'success' : 'danger'} className="otc-take" onClick={() => onTake(ad)}>
          {t(userSide === 'BUY' ? 'buyCoin' : 'sellCoin', { coin: ad.coin })}
        </Button>
      </div>
    </li>
  );
}
