/**
 * Add or edit a payment method (spec section 2 routes /payment/bankCard, /payment/weixin,
 * /payment/zhifubao; `?id=` edits). The holder is the verified real name, shown read-only. A bank card takes the
 * bank, branch and card number (12-19 digits with a Luhn check here too); WeChat and Alipay take the account and a
 * receiving QR image (compressed at 0.6 and uploaded). Saving asks for the transaction password in the PIN popup;
 * without one, a prompt leads to /accountCenter/postPasswordSet. When editing, the card number must be typed again
 * (the list only knows it masked) and a new QR image is optional.
 */
import { useState } from 'react';
import { Button } from 'antd-mobile';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isApiError, showToast } from '../../../shared/api-client';
import { PageHeader } from '../../../shared/ui';
import { PinPopup } from '../../../shared/ui/PinInput';
import { Field } from '../../../shared/forms/fields';
import type { PayType, PaymentInput, PaymentMethod } from '../api/contract';
import { usePayments } from '../api/get-payments';
import { useSavePayment } from '../api/save-payment';
import { uploadQr } from '../api/upload-qr';
import { RealNameGate } from '../components/RealNameGate';
import { QrSlot } from '../components/QrSlot';
import { useTransPasswordCheck } from '../hooks/use-trans-password-check';
import { checkCardNo, groupCardNo, normaliseCardNo } from '../lib/card-number';
import '../payment.css';

/** The page of one kind. */
export function PaymentFormPage({ payType }: { payType: PayType }) {
  const { t } = useTranslation('payment');
  const [params] = useSearchParams();
  const id = params.get('id') ?? undefined;
  return (
    <div className="pay-page">
      <PageHeader title={t(`formTitle.${id ? 'edit' : 'add'}.${payType}`)} fallback="/payment" />
      <RealNameGate>{(realName) => <Loaded payType={payType} id={id} realName={realName} />}</RealNameGate>
    </div>
  );
}

function Loaded({ payType, id, realName }: { payType: PayType; id?: string; realName: string }) {
  const q = usePayments(!!id);
  const existing = id ? q.data?.find((m) => m.id === id) : undefined;
  if (id && q.isLoading) return null;
  return <PaymentForm payType={payType} id={existing?.id} existing={existing} realName={realName} />;
}

function PaymentForm({ payType, id, existing, realName }: { payType: PayType; id?: string; existing?: PaymentMethod; realName: string }) {
  const { t } = useTranslation('payment');
  const navigate = useNavigate();
  const [bankName, setBankName] = useState(existing?.bankName ?? '');
  const [branch, setBranch] = useState(existing?.branch ?? '');
  const [cardNo, setCardNo] = useState('');
  const [account, setAccount] = useState(existing?.account ?? '');
  const [qrImageId, setQrImageId] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const [asking, setAsking] = useState(false);
  const save = useSavePayment();
  const { check: hasPin, prompt: promptSetPin } = useTransPasswordCheck();
  const bank = payType === 'BANK';

  const input = (): PaymentInput =>
    bank
      ? { payType, bankName: bankName.trim(), branch: branch.trim(), cardNo: normaliseCardNo(cardNo) }
      : { payType, account: account.trim(), qrImageId: qrImageId ?? existing?.qrImageId };

  const onSave = () => {
    const next: Record<string, string | null> = bank
      ? {
          bankName: bankName.trim() ? null : t('v.bankRequired'),
          branch: branch.trim() ? null : t('v.branchRequired'),
          cardNo: checkCardNo(cardNo) ? t(checkCardNo(cardNo)!) : null,
        }
      : {
          account: account.trim() ? null : t('v.accountRequired'),
          qr: qrImageId || existing?.qrImageId ? null : t('v.qrRequired'),
        };
    setErrors(next);
    if (Object.values(next).some(Boolean)) return;
    if (hasPin()) setAsking(true);
  };

  return (
    <form
      className="pay-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onSave();
      }}
    >
      <div className="ex-field">
        <span className="ex-field-label">{t('holder')}</span>
        <div className="pay-readonly" aria-label={t('holder')}>
          {realName}
        </div>
        <p className="pay-hint">{t('holderHint')}</p>
      </div>
      {bank ? (
        <>
          <Field label={t('bankName')} value={bankName} onChange={setBankName} placeholder={t('bankNamePlaceholder')} maxLength={64} error={errors.bankName} />
          <Field label={t('branch')} value={branch} onChange={setBranch} placeholder={t('branchPlaceholder')} maxLength={64} error={errors.branch} />
          <Field
            label={t('cardNo')}
            value={groupCardNo(cardNo)}
            onChange={(v) => setCardNo(v.replace(/\D/g, '').slice(0, 19))}
            placeholder={existing?.cardNo ? t('cardNoAgain', { masked: existing.cardNo }) : t('cardNoPlaceholder')}
            inputMode="numeric"
            maxLength={23}
            autoComplete="cc-number"
            error={errors.cardNo}
          />
        </>
      ) : (
        <>
          <Field
            label={t(`accountOf.${payType}`)}
            value={account}
            onChange={setAccount}
            placeholder={t('accountPlaceholder')}
            maxLength={64}
            error={errors.account}
          />
          <QrSlot label={t('qr')} hint={existing?.qrImageId ? t('qrKeep') : t('qrHint')} upload={uploadQr} onUploaded={setQrImageId} error={errors.qr} />
        </>
      )}
      <Button block color="primary" type="submit" loading={save.isPending}>
        {t('save')}
      </Button>
      <PinPopup
        visible={asking}
        onClose={() => setAsking(false)}
        onSubmit={async (transPassword) => {
          try {
            await save.mutateAsync({ ...input(), id, transPassword });
          } catch (e) {
            if (isApiError(e, 'trans_password_not_set')) {
              setAsking(false);
              promptSetPin();
            }
            throw e;
          }
          showToast(t('saved'));
          navigate('/payment', { replace: true });
        }}
        extra={
          <Link className="pay-forgot" to="/accountCenter/postPasswordForget">
            {t('forgotPin')}
          </Link>
        }
      />
    </form>
  );
}
