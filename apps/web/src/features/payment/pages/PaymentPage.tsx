/**
 * /payment (spec sections 2 and 3): the user's payment methods (bank card, WeChat, Alipay) with the holder
 * name, bank and masked card number or account; a switch to enable or disable each, delete (transaction password),
 * tap to edit, and "add" choosing the kind. Needs basic verification (RealNameGate); going back reopens the side
 * menu (the menu's useReopenOnReturn).
 */
import { useState } from 'react';
import { ActionSheet, Button, Switch, Tag } from 'antd-mobile';
import { AddOutline, DeleteOutline } from 'antd-mobile-icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { loadFeedback } from '../../../shared/ui/feedback';
import { showToast } from '../../../shared/api-client';
import { EmptyState, isAwaiting, ListSkeleton, LoadFailed, PageHeader } from '../../../shared/ui';
import { PinPopup } from '../../../shared/ui/PinInput';
import { MAX_PAYMENT_METHODS, PAY_TYPE_ROUTE, type PayType, type PaymentMethod } from '../api/contract';
import { usePayments } from '../api/get-payments';
import { useSetPaymentEnabled } from '../api/set-payment-enabled';
import { useDeletePayment } from '../api/delete-payment';
import { RealNameGate } from '../components/RealNameGate';
import { useTransPasswordCheck } from '../hooks/use-trans-password-check';
import '../payment.css';

/** Payment methods page. */
export default function PaymentPage() {
  const { t } = useTranslation('payment');
  return (
    <div className="pay-page">
      <PageHeader title={t('title')} />
      <RealNameGate>{() => <Methods />}</RealNameGate>
    </div>
  );
}

function Methods() {
  const { t } = useTranslation('payment');
  const navigate = useNavigate();
  const q = usePayments();
  const toggle = useSetPaymentEnabled();
  const del = useDeletePayment();
  const { check: hasPin } = useTransPasswordCheck();
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<PaymentMethod | null>(null);
  if (isAwaiting(q)) return <ListSkeleton />;
  if (q.isError || !q.data) return <LoadFailed error={q.error} onRetry={() => void q.refetch()} />;
  const list = q.data;
  const full = list.length >= MAX_PAYMENT_METHODS;

  return (
    <>
      {list.length === 0 ? (
        <EmptyState text={t('empty')} />
      ) : (
        <ul className="pay-list">
          {list.map((m) => (
            <li key={m.id} className={`pay-card pay-${m.payType.toLowerCase()}${m.enabled ? '' : ' off'}`}>
              <button
                type="button"
                className="pay-card-main"
                onClick={() => navigate(`${PAY_TYPE_ROUTE[m.payType]}?id=${encodeURIComponent(m.id)}`)}
                aria-label={t('editOf', { name: t(`type.${m.payType}`) })}
              >
                <div className="pay-card-top">
                  <Tag className="pay-type">{t(`type.${m.payType}`)}</Tag>
                  <span className="pay-holder">{m.realName}</span>
                </div>
                <div className="pay-card-no num">{m.payType === 'BANK' ? m.cardNo : m.account}</div>
                {m.payType === 'BANK' && <div className="pay-card-bank">{[m.bankName, m.branch].filter(Boolean).join(' · ')}</div>}
              </button>
              <div className="pay-card-actions">
                <label className="pay-switch">
                  <Switch
                    checked={m.enabled}
                    loading={toggle.isPending && toggle.variables?.id === m.id}
                    onChange={(v) => toggle.mutate({ id: m.id, enabled: v })}
                    aria-label={t('enabled')}
                  />
                  <span>{m.enabled ? t('enabled') : t('disabled')}</span>
                </label>
                <button
                  type="button"
                  className="pay-delete"
                  aria-label={t('delete')}
                  onClick={() =>
                    void loadFeedback()
                      .then(({ Dialog }) => Dialog.confirm({ content: t('deleteConfirm'), confirmText: t('delete'), cancelText: t('common:cancel') }))
                      .then((ok) => ok && hasPin() && setDeleting(m))
                  }
                >
                  <DeleteOutline /> {t('delete')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <div className="pay-add">
        <Button block color="primary" disabled={full} onClick={() => setAdding(true)}>
          <AddOutline /> {t('add')}
        </Button>
        {full && <p className="pay-hint">{t('full', { n: MAX_PAYMENT_METHODS })}</p>}
      </div>
      <ActionSheet
        visible={adding}
        onClose={() => setAdding(false)}
        cancelText={t('common:cancel')}
        actions={(['BANK', 'WECHAT', 'ALIPAY'] as PayType[]).map((k) => ({ key: k, text: t(`type.${k}`), onClick: () => navigate(PAY_TYPE_ROUTE[k]) }))}
      />
      <PinPopup
        visible={!!deleting}
        onClose={() => setDeleting(null)}
        onSubmit={async (transPassword) => {
          await del.mutateAsync({ id: deleting!.id, transPassword });
          showToast(t('deleted'));
        }}
      />
    </>
  );
}
