/**
 * The state-driven body of /transaction/orderDetail (spec section 2's fiat order screens): the status banner with the
 * payment countdown or the appeal wait, the amounts and the order number (copy), the seller's real name and payment
 * methods with copy buttons and QR images (the buyer pays from these), "I have paid" with the method used and an
 * optional proof image, cancel, release (with a warning to check the account first), the appeal and its outcome.
 * The actions are callbacks: the page runs the mutations (and asks for confirmations and the PIN).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Radio } from 'antd-mobile';
import type { OtcOrderDetail, OtcPaymentDetail } from '@exchange/api';
import { formatCny, formatCoin, formatDateTime } from '../../../shared/format';
import { orderView } from '../lib/order-view';
import { AuthImage } from '../../../shared/image';
import { InfoRow, PayTypeTag, formatLeft } from './parts';

/** What the panel's buttons do. */
export interface OrderActionsProps {
  onMarkPaid: (paymentMethodId: string, proofImageId: string | undefined) => void;
  onCancel: () => void;
  onRelease: () => void;
  onAppeal: () => void;
  onCancelAppeal: () => void;
  /** uploads a proof image; resolves with its id */
  uploadProof?: (file: File) => Promise<string>;
  busy?: boolean;
}

/** One payment method of the seller, every field with a copy button, the QR image for WeChat and Alipay. */
export function PaymentMethodCard({ m, selectable }: { m: OtcPaymentDetail; selectable?: boolean }) {
  const { t } = useTranslation('otc');
  return (
    <div className="otc-method" aria-label={t(`payType.${m.payType}`)}>
      <div className="otc-method-head">
        {selectable ? <Radio value={m.id} aria-label={t('order.paidWithMethod', { type: t(`payType.${m.payType}`) })} /> : null}
        <PayTypeTag type={m.payType} />
      </div>
      <InfoRow label={t('order.name')} value={m.realName} copy={m.realName} />
      {m.payType === 'BANK' ? (
        <>
          <InfoRow label={t('order.bank')} value={m.bankName} copy={m.bankName} />
          {m.branch && <InfoRow label={t('order.branch')} value={m.branch} copy={m.branch} />}
          <InfoRow label={t('order.cardNo')} value={m.cardNo} copy={m.cardNo} />
        </>
      ) : (
        <>
          <InfoRow label={t('order.account')} value={m.account} copy={m.account} />
          {m.qrImageUrl && (
            <div className="otc-qr">
              <AuthImage url={m.qrImageUrl} alt={t('order.qrOf', { type: t(`payType.${m.payType}`) })} />
            </div>
          )}
        </>
      )}
    </div>
  );
}

/** The state-driven order body for the caller at `now`. */
export function OrderStatePanel({ order: o, now, ...a }: { order: OtcOrderDetail; now: number } & OrderActionsProps) {
  const { t } = useTranslation('otc');
  const v = orderView(o, now);
  const [methodId, setMethodId] = useState('');
  const [proofId, setProofId] = useState<string | undefined>();
  const [proofName, setProofName] = useState('');
  const [uploading, setUploading] = useState(false);
  const coin = o.coin;

  const banner = (() => {
    switch (v.screen) {
      case 'PAY':
        return { title: t('state.pay'), sub: v.expired ? t('order.expired') : t('order.payWithin', { left: formatLeft(o.deadline, now) }) };
      case 'WAIT_PAY':
        return { title: t('state.waitPay'), sub: v.expired ? t('order.expired') : t('order.buyerPaysWithin', { left: formatLeft(o.deadline, now) }) };
      case 'WAIT_RELEASE':
        return { title: t('state.waitRelease'), sub: t('order.sellerReleases') };
      case 'RELEASE':
        return { title: t('state.release'), sub: t('order.buyerPaid') };
      case 'APPEAL':
        return { title: t('state.appeal'), sub: t('order.appealOpen') };
      case 'COMPLETED':
        return {
          title: t('state.completed'),
          sub: t(v.iAmBuyer ? 'order.receivedCoin' : 'order.soldCoin', { qty: formatCoin(o.quantity, coin, { exact: true }), coin }),
        };
      default:
        return { title: t('state.cancelled'), sub: o.endReason ? t(`endReason.${o.endReason}`) : '' };
    }
  })();

  const pickProof = async (file: File | undefined) => {
    if (!file || !a.uploadProof) return;
    setUploading(true);
    try {
      setProofId(await a.uploadProof(file));
      setProofName(file.name);
    } catch {
      setProofId(undefined);
      setProofName('');
    } finally {
      setUploading(false);
    }
  };

  return (
    <div className="otc-order" data-screen={v.screen}>
      <section className={`otc-banner otc-banner-${v.screen.toLowerCase()}`} role="status">
        <h2 className="otc-banner-title">{banner.title}</h2>
        {banner.sub && <div className="otc-banner-sub">{banner.sub}</div>}
      </section>

      <section className="otc-section">
        <h3 className="otc-h3">
          <span className={v.iAmBuyer ? 'c-up' : 'c-down'}>{t(v.iAmBuyer ? 'order.buy' : 'order.sell')}</span> {coin}
        </h3>
        <InfoRow label={t('order.amount')} value={<span data-testid="order-fiat">{formatCny(o.fiatAmount)}</span>} copy={o.fiatAmount} strong />
        <InfoRow label={t('order.price')} value={formatCny(o.price)} />
        <InfoRow label={t('order.quantity')} value={<span data-testid="order-quantity">{`${formatCoin(o.quantity, coin, { exact: true })} ${coin}`}</span>} />
        <InfoRow label={t('order.number')} value={o.orderId} copy={o.orderId} />
        <InfoRow label={t('order.created')} value={formatDateTime(o.createdAt)} />
        <InfoRow
          label={t(v.iAmBuyer ? 'order.seller' : 'order.buyer')}
          value={`${o.counterparty}${v.counterpartyRealName ? ` (${v.counterpartyRealName})` : ''}`}
        />
      </section>

      {v.screen === 'PAY' && (
        <section className="otc-section" aria-label={t('order.payTo')}>
          <h3 className="otc-h3">{t('order.payTo')}</h3>
          <p className="otc-note">{t('order.payNote', { name: o.sellerRealName })}</p>
          <Radio.Group value={methodId} onChange={(x) => setMethodId(String(x))}>
            {o.paymentMethods.map((m) => (
              <PaymentMethodCard key={m.id} m={m} selectable={v.canPay} />
            ))}
          </Radio.Group>
          {v.canPay && a.uploadProof && (
            <label className="otc-proof">
              <span>{proofName ? t('order.proofAdded', { name: proofName }) : uploading ? t('order.uploading') : t('order.addProof')}</span>
              <input type="file" accept="image/*" aria-label={t('order.addProof')} onChange={(e) => void pickProof(e.target.files?.[0])} hidden />
            </label>
          )}
        </section>
      )}

      {v.screen !== 'PAY' && o.paidWith && (
        <section className="otc-section">
          <h3 className="otc-h3">{t('order.paidWith')}</h3>
          {o.paymentMethods
            .filter((m) => m.id === o.paidWith)
            .map((m) => (
              <PaymentMethodCard key={m.id} m={m} />
            ))}
          {o.proofImageUrl && (
            <div className="otc-qr">
              <AuthImage url={o.proofImageUrl} alt={t('order.proof')} />
            </div>
          )}
        </section>
      )}

      {v.screen === 'RELEASE' && (
        <div className="otc-warning" role="note">
          {t('order.releaseWarning', { amount: formatCny(o.fiatAmount, { symbol: false }), name: o.buyerRealName })}
        </div>
      )}

      {o.appeal && (
        <section className="otc-section" aria-label={t('appeal.title')}>
          <h3 className="otc-h3">{t('appeal.title')}</h3>
          <InfoRow label={t('appeal.by')} value={t(`appeal.byRole.${o.appeal.by}`)} />
          <InfoRow label={t('appeal.reason')} value={t(`appeal.reasons.${o.appeal.reason}`, { defaultValue: o.appeal.reason })} />
          <p className="otc-remarks">{o.appeal.description}</p>
          {o.appeal.outcome && (
            <div className="otc-note" role="note">
              {t(`appeal.outcome.${o.appeal.outcome}`)}: {o.appeal.resolution}
            </div>
          )}
        </section>
      )}

      {o.remarks && (
        <section className="otc-section">
          <h3 className="otc-h3">{t('take.terms')}</h3>
          <p className="otc-remarks">{o.remarks}</p>
        </section>
      )}

      <div className="otc-actions">
        {v.canPay && (
          <Button block color="primary" disabled={!methodId || uploading} loading={a.busy} onClick={() => a.onMarkPaid(methodId, proofId)}>
            {t('order.markPaid')}
          </Button>
        )}
        {v.canRelease && (
          <Button block color="primary" loading={a.busy} onClick={a.onRelease}>
            {t('order.release')}
          </Button>
        )}
        {o.state === 'PAID' &&
          (v.canAppeal ? (
            <Button block fill="outline" onClick={a.onAppeal}>
              {t('order.appeal')}
            </Button>
          ) : (
            <div className="otc-note text-3">{t('order.appealIn', { left: formatLeft(o.appealableAt, now) })}</div>
          ))}
        {v.canCancelAppeal && (
          <Button block fill="outline" onClick={a.onCancelAppeal}>
            {t('order.cancelAppeal')}
          </Button>
        )}
        {v.canCancel && (
          <Button block fill="none" className="otc-cancel" onClick={a.onCancel}>
            {t('order.cancel')}
          </Button>
        )}
      </div>
    </div>
  );
}
