/**
 * Binance's slippage warning before a market order: shown when the estimate on the visible book
 * (lib/price-impact) puts the average fill more than 1% from the best price, or when the book cannot fill the
 * whole order; says the estimated impact, the estimated average and the best price, and lets the user continue
 * or cancel.
 */
import { Button } from 'antd-mobile';
import type { Pair } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { formatFixed } from '../../../shared/format';
import type { PriceImpact } from '../lib/price-impact';
import { SpotDialog } from './SpotDialog';

/** Props of PriceImpactDialog. */
export interface PriceImpactDialogProps {
  /** The estimate to warn about. */
  impact: PriceImpact;
  pair: Pair;
  onContinue: () => void;
  onCancel: () => void;
}

/** The warning dialog. */
export function PriceImpactDialog({ impact, pair, onContinue, onCancel }: PriceImpactDialogProps) {
  const { t } = useTranslation('spot');
  const price = (v: string) => `${formatFixed(v, pair.priceDecimals, { group: true })} ${pair.mainCur}`;
  return (
    <SpotDialog
      title={t('impact.title')}
      icon={
        <svg className="sp-result-icon sp-result-part" width="22" height="22" viewBox="0 0 24 24" aria-hidden="true">
          <path d="M12 2.5L23 21.5H1z" fill="currentColor" />
          <path d="M12 9v6M12 18v.5" stroke="#fff" strokeWidth="2.2" strokeLinecap="round" />
        </svg>
      }
      onClose={onCancel}
      actions={
        <>
          <Button block onClick={onCancel}>
            {t('common:cancel')}
          </Button>
          <Button block color="primary" onClick={onContinue}>
            {t('impact.continue')}
          </Button>
        </>
      }
    >
      <p className="sp-impact-text">{t('impact.body', { pct: impact.impactPct })}</p>
      <dl className="sp-kv">
        <div className="sp-kv-row">
          <dt>{t('impact.estAvg')}</dt>
          <dd className="num">{impact.avgPrice ? price(impact.avgPrice) : '--'}</dd>
        </div>
        <div className="sp-kv-row">
          <dt>{t('impact.best')}</dt>
          <dd className="num">{price(impact.bestPrice)}</dd>
        </div>
      </dl>
      {!impact.complete && (
        <p className="sp-impact-text sp-impact-thin">
          {t('impact.thin', { qty: formatFixed(impact.filledQty, pair.qtyDecimals, { group: true }), coin: pair.tokenCur })}
        </p>
      )}
    </SpotDialog>
  );
}
