/**
 * /transaction/orderDetail?orderId=: one OTC order, state-driven (OrderStatePanel), live: 'otcOrder' pushes refresh
 * it, 'otcChat' pushes land in the chat and count as unread on the Chat button while the chat is closed. The page
 * runs the actions: "I have paid" and cancel after a confirmation, release with the transaction password (and the
 * Google code when bound), the appeal on its own page (/transaction/appeal?orderId=).
 */
import { useEffect, useEffectEvent, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Badge, Input } from 'antd-mobile';
import type { OtcChatMessage } from '@exchange/api';
import { EmptyState, InlineLoading, LoadFailed, PageHeader } from '../../../shared/ui';
import { PinPopup } from '../../../shared/ui/PinInput';
import { loadFeedback } from '../../../shared/ui/feedback';
import { showToast } from '../../../shared/api-client';
import { useSecurity } from '../../../shared/session';
import { useOtcOrderDetail } from '../api/get-order-detail';
import { useOrderActions } from '../api/order-actions';
import { uploadOtcImage } from '../api/upload-image';
import { OrderChat } from '../components/OrderChat';
import { OrderStatePanel } from '../components/OrderStatePanel';
import { useNow } from '../components/parts';
import { useOtcLive } from '../hooks/use-otc-live';
import { countsAsUnread } from '../lib/order-view';
import '../otc.css';

async function confirm(content: string, confirmText: string, cancelText: string): Promise<boolean> {
  const { Dialog } = await loadFeedback();
  return Dialog.confirm({ content, confirmText, cancelText });
}

/** The order detail page. */
export default function OrderDetailPage() {
  const { t } = useTranslation('otc');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const orderId = params.get('orderId') ?? '';
  const q = useOtcOrderDetail(orderId);
  const security = useSecurity();
  const actions = useOrderActions();
  const now = useNow();
  const [chatOpen, setChatOpen] = useState(false);
  const [unread, setUnread] = useState(0);
  const [pinOpen, setPinOpen] = useState(false);
  const [googleCode, setGoogleCode] = useState('');
  const order = q.data;

  // Only the first answer's count of an order: later ones are counted from the pushes, so a refetch or the chat
  // closing must not take it again (the effect event reads the order and the chat state at the time).
  const takeUnread = useEffectEvent(() => {
    if (order && !chatOpen) setUnread(order.unread);
  });
  useEffect(() => {
    takeUnread();
  }, [order?.orderId]);

  useOtcLive((m: OtcChatMessage) => {
    if (m.orderId === orderId && countsAsUnread(m) && !chatOpen) setUnread((n) => n + 1);
  });

  const busy = actions.markPaid.isPending || actions.release.isPending || actions.cancel.isPending || actions.cancelAppeal.isPending;
  const chatButton = order ? (
    <Badge content={unread > 0 ? unread : null}>
      <button
        type="button"
        className="otc-link"
        aria-label={unread > 0 ? t('chat.openUnread', { n: unread }) : t('chat.open')}
        onClick={() => {
          setChatOpen(true);
          setUnread(0);
        }}
      >
        {t('chat.open')}
      </button>
    </Badge>
  ) : null;

  return (
    <div className="otc-page">
      <PageHeader title={t('order.title')} right={chatButton} fallback="/transaction/otcOrder" />
      {!orderId ? (
        <EmptyState text={t('order.none')} />
      ) : q.isLoading ? (
        <InlineLoading />
      ) : q.isError || !order ? (
        <LoadFailed error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        <>
          <OrderStatePanel
            order={order}
            now={now}
            busy={busy}
            uploadProof={(file) => uploadOtcImage(file)}
            onMarkPaid={(paymentMethodId, proofImageId) =>
              void confirm(t('order.markPaidConfirm', { amount: order.fiatAmount, name: order.sellerRealName }), t('order.markPaid'), t('common:cancel')).then(
                (ok) =>
                  ok &&
                  actions.markPaid.mutate(
                    { orderId, paymentMethodId, ...(proofImageId ? { proofImageId } : {}) },
                    { onSuccess: () => showToast(t('order.markedPaid')) },
                  ),
              )
            }
            onCancel={() =>
              void confirm(t('order.cancelConfirm'), t('order.cancel'), t('order.keep')).then(
                (ok) => ok && actions.cancel.mutate({ orderId }, { onSuccess: () => showToast(t('order.cancelled')) }),
              )
            }
            onRelease={() => setPinOpen(true)}
            onAppeal={() => navigate(`/transaction/appeal?orderId=${encodeURIComponent(orderId)}`)}
            onCancelAppeal={() =>
              void confirm(t('order.cancelAppealConfirm'), t('order.cancelAppeal'), t('common:cancel')).then((ok) => ok && actions.cancelAppeal.mutate(orderId))
            }
          />
          <OrderChat orderId={orderId} open={chatOpen} onClose={() => setChatOpen(false)} counterparty={order.counterparty} />
          <PinPopup
            visible={pinOpen}
            title={t('order.releaseTitle')}
            onClose={() => {
              setPinOpen(false);
              setGoogleCode('');
            }}
            onSubmit={(transPassword) =>
              actions.release
                .mutateAsync({ orderId, transPassword, ...(security.data?.googleBound ? { googleCode } : {}) })
                .then(() => showToast(t('order.released')))
            }
            extra={
              security.data?.googleBound ? (
                <div className="otc-google">
                  <Input
                    aria-label={t('order.googleCode')}
                    placeholder={t('order.googleCode')}
                    value={googleCode}
                    onChange={(v) => setGoogleCode(v.replace(/\D/g, '').slice(0, 6))}
                    inputMode="numeric"
                  />
                </div>
              ) : null
            }
          />
        </>
      )}
    </div>
  );
}
