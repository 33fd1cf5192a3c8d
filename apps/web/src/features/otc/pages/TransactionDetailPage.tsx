/**
 * /transactionDetail?adId=: the order entry of an ad (Binance P2P's "Buy USDT" sheet as a page). The user enters the
 * fiat amount (CNY) or the quantity (USDT) and sees the other computed live by the engine's rule (quantity =
 * floor(fiat * 10^8 / price) units, shown under the fields), the ad's limits, payment time limit and terms. Selling
 * asks for the user's own enabled payment method of a type the ad accepts (none: a prompt to /payment) and the
 * transaction password. Taking creates the order and opens /transaction/orderDetail?orderId=.
 */
import { useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button, Input, Radio } from 'antd-mobile';
import type { OtcAd, PaymentMethod } from '@exchange/api';
import { EmptyState, InlineLoading, isAwaiting, ListSkeleton, LoadFailed, PageHeader } from '../../../shared/ui';
import { PinPopup } from '../../../shared/ui/PinInput';
import { loadFeedback } from '../../../shared/ui/feedback';
import { useSecurity } from '../../../shared/session';
import { useOtcAd } from '../api/get-ad';
import { useMyPayments } from '../api/get-payments';
import { useOrderActions } from '../api/order-actions';
import { MerchantLine, PayTypeTag } from '../components/parts';
import { useOtcTradeGuard } from '../hooks/use-trade-guard';
import { checkOrderAmounts, orderAmounts, type AmountProblem } from '../lib/amount';
import '../otc.css';
import { formatCny, formatCoin } from '../../../shared/format';

/** A fresh idempotency key of a take (one per attempt; a retry of the same attempt reuses it). */
export function newClientId(): string {
  const c = globalThis.crypto;
  if (c && 'randomUUID' in c) return c.randomUUID();
  return `t${Date.now().toString(36)}${Math.floor(performance.now() * 1000).toString(36)}`;
}

/** The enabled payment methods of the user that `ad` accepts. */
export function acceptedMethods(ad: Pick<OtcAd, 'payTypes'>, methods: readonly PaymentMethod[] | undefined): PaymentMethod[] {
  return (methods ?? []).filter((m) => m.enabled && ad.payTypes.includes(m.payType));
}

/** The entry form of a loaded ad. */
export function TakeForm({ ad }: { ad: OtcAd }) {
  const { t } = useTranslation('otc');
  const navigate = useNavigate();
  const guard = useOtcTradeGuard();
  const security = useSecurity();
  // The user's side is the other of the merchant's: a SELL ad is bought from.
  const userSells = ad.side === 'BUY';
  const payments = useMyPayments(userSells);
  const [mode, setMode] = useState<'fiat' | 'coin'>('fiat');
  const [input, setInput] = useState('');
  const [methodId, setMethodId] = useState('');
  const [pinOpen, setPinOpen] = useState(false);
  const [clientId, setClientId] = useState(newClientId);
  const { take } = useOrderActions();

  const amounts = useMemo(() => (input.trim() ? orderAmounts(mode, input, ad.price) : null), [mode, input, ad.price]);
  const problem: AmountProblem | null = input.trim() ? checkOrderAmounts(amounts, ad.minFiat, ad.maxFiat, ad.remaining) : null;
  const methods = acceptedMethods(ad, payments.data);

  const problemText = (p: AmountProblem) =>
    p === 'belowMin'
      ? t('take.belowMin', { min: ad.minFiat })
      : p === 'aboveMax'
        ? t('take.aboveMax', { max: ad.maxFiat })
        : p === 'aboveAvailable'
          ? t('take.aboveAvailable')
          : p === 'zeroQuantity'
            ? t('take.zeroQuantity')
            : t('error.amountFormat');

  const submit = (transPassword?: string) =>
    take.mutateAsync({ adId: ad.adId, fiatAmount: amounts!.fiat, clientId, ...(userSells ? { paymentMethodId: methodId, transPassword } : {}) }).then((o) => {
      setClientId(newClientId());
      navigate(`/transaction/orderDetail?orderId=${encodeURIComponent(o.orderId)}`, { replace: true });
    });

  const onTake = () => {
    if (!guard()) return;
    if (!amounts || problem) return;
    if (userSells) {
      if (methods.length === 0) {
        void loadFeedback()
          .then(({ Dialog }) => Dialog.confirm({ content: t('take.needMethod'), confirmText: t('take.toPayment'), cancelText: t('common:cancel') }))
          .then((ok) => ok && navigate('/payment'));
        return;
      }
      if (!methodId) return;
      if (security.data && !security.data.transPasswordSet) {
        void loadFeedback()
          .then(({ Dialog }) => Dialog.confirm({ content: t('needTransPassword'), confirmText: t('toSetTransPassword'), cancelText: t('common:cancel') }))
          .then((ok) => ok && navigate('/accountCenter/postPasswordSet'));
        return;
      }
      setPinOpen(true);
      return;
    }
    void submit().catch(() => {});
  };

  const buyOrSell = t(userSells ? 'sellCoin' : 'buyCoin', { coin: ad.coin });
  return (
    <div className="otc-entry">
      <section className="otc-section">
        <MerchantLine m={ad.merchant} />
        <div className="otc-entry-price">
          <span className="text-3">{t('take.price')}</span>
          <span className={userSells ? 'c-down otc-strong' : 'c-up otc-strong'} data-testid="take-price">
            {formatCny(ad.price)}
          </span>
        </div>
        <div className="otc-line text-2">
          {t('ad.available')} {formatCoin(ad.remaining, ad.coin)} {ad.coin}
        </div>
        <div className="otc-line text-2">
          {t('ad.limits')} {formatCny(ad.minFiat)} - {formatCny(ad.maxFiat)}
        </div>
        <div className="otc-line text-2">{t('take.window', { n: ad.paymentWindowMinutes })}</div>
        <div className="otc-pays">
          {ad.payTypes.map((p) => (
            <PayTypeTag key={p} type={p} />
          ))}
        </div>
      </section>

      <section className="otc-section">
        <div role="tablist" aria-label={t('take.enterBy')} className="otc-tabs otc-tabs-text">
          {(['fiat', 'coin'] as const).map((m) => (
            <button
              key={m}
              type="button"
              role="tab"
              aria-selected={mode === m}
              className={`otc-tab${mode === m ? ' otc-tab-active' : ''}`}
              onClick={() => {
                if (amounts) setInput(m === 'fiat' ? amounts.fiat : amounts.quantity);
                setMode(m);
              }}
            >
              {m === 'fiat' ? t('take.byFiat', { fiat: ad.fiat }) : t('take.byCoin', { coin: ad.coin })}
            </button>
          ))}
        </div>
        <div className="otc-input">
          <Input
            aria-label={mode === 'fiat' ? t('take.fiatAmount', { fiat: ad.fiat }) : t('take.quantity', { coin: ad.coin })}
            placeholder={mode === 'fiat' ? `${ad.minFiat} - ${ad.maxFiat}` : t('take.quantity', { coin: ad.coin })}
            value={input}
            inputMode="decimal"
            clearable
            onChange={setInput}
          />
          <span className="otc-input-unit">{mode === 'fiat' ? ad.fiat : ad.coin}</span>
        </div>
        {problem && (
          <div className="otc-error" role="alert">
            {problemText(problem)}
          </div>
        )}
        <div className="otc-row">
          <span className="otc-row-label">{t('take.youPay')}</span>
          <span className="otc-row-value otc-strong" data-testid="take-fiat">
            {amounts ? formatCny(amounts.fiat) : '--'}
          </span>
        </div>
        <div className="otc-row">
          <span className="otc-row-label">{t(userSells ? 'take.youSell' : 'take.youGet')}</span>
          <span className="otc-row-value otc-strong" data-testid="take-quantity">
            {amounts ? `${formatCoin(amounts.quantity, ad.coin, { exact: true })} ${ad.coin}` : '--'}
          </span>
        </div>
        <p className="otc-rule text-3">{t('take.rule', { coin: ad.coin, fiat: ad.fiat })}</p>
      </section>

      {userSells && (
        <section className="otc-section" aria-label={t('take.receiveWith')}>
          <h3 className="otc-h3">{t('take.receiveWith')}</h3>
          {isAwaiting(payments) ? (
            <ListSkeleton rows={1} />
          ) : methods.length === 0 ? (
            <div className="otc-note">
              {t('take.needMethod')}{' '}
              <button type="button" className="otc-link" onClick={() => navigate('/payment')}>
                {t('take.toPayment')}
              </button>
            </div>
          ) : (
            <Radio.Group value={methodId} onChange={(v) => setMethodId(String(v))}>
              {methods.map((m) => (
                <Radio key={m.id} value={m.id} className="otc-method-radio">
                  <PayTypeTag type={m.payType} /> <span className="text-2">{m.payType === 'BANK' ? `${m.bankName} ${m.cardNo.slice(-4)}` : m.account}</span>
                </Radio>
              ))}
            </Radio.Group>
          )}
        </section>
      )}

      {ad.remarks && (
        <section className="otc-section">
          <h3 className="otc-h3">{t('take.terms')}</h3>
          <p className="otc-remarks">{ad.remarks}</p>
        </section>
      )}

      <div className="otc-actions">
        <Button
          block
          color={userSells ? 'danger' : 'success'}
          disabled={!amounts || !!problem || (userSells && methods.length > 0 && !methodId)}
          loading={take.isPending}
          onClick={onTake}
        >
          {buyOrSell}
        </Button>
      </div>
      <PinPopup visible={pinOpen} onClose={() => setPinOpen(false)} onSubmit={(pin) => submit(pin)} />
    </div>
  );
}

/** The order entry page. */
export default function TransactionDetailPage() {
  const { t } = useTranslation('otc');
  const [params] = useSearchParams();
  const adId = params.get('adId') ?? '';
  const ad = useOtcAd(adId);
  const title = ad.data ? t(ad.data.side === 'BUY' ? 'sellCoin' : 'buyCoin', { coin: ad.data.coin }) : t('take.title');
  return (
    <div className="otc-page">
      <PageHeader title={title} fallback="/transaction/transactionFabi" />
      {!adId ? (
        <EmptyState text={t('take.noAd')} />
      ) : ad.isLoading ? (
        <InlineLoading />
      ) : ad.isError || !ad.data ? (
        <LoadFailed error={ad.error} onRetry={() => void ad.refetch()} />
      ) : ad.data.status !== 'ONLINE' ? (
        <EmptyState text={t('take.offline')} />
      ) : (
        <TakeForm ad={ad.data} />
      )}
    </div>
  );
}
