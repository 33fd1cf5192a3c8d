/**
 * The publish/edit form of an ad (/advertisement): the merchant's side (publishing only), fixed or floating price
 * (the resulting price shown live from the index), quantity, per-order min and max in CNY, the payment window
 * (getConfig's choices), the merchant's own enabled payment methods, remarks. Checked before sending (lib/ad-form).
 */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Checkbox, Input, TextArea } from 'antd-mobile';
import type { OtcAd, OtcConfigView, PaymentMethod } from '@exchange/api';
import { SegTabs } from '../../../shared/ui/SegTabs';
import { adFormErrors, type AdFormValues } from '../lib/ad-form';
import { floatPrice } from '../lib/amount';
import { PayTypeTag } from './parts';

/** Props of AdForm: the ad to edit (none: publish), the settings, the merchant's methods, submit and cancel. */
export interface AdFormProps {
  ad?: OtcAd;
  config: OtcConfigView;
  methods: readonly PaymentMethod[];
  /** the method ids of the edited ad, when the server tells them */
  adMethodIds?: string[];
  busy?: boolean;
  onSubmit: (v: AdFormValues) => void;
  onCancel: () => void;
}

function Field({ label, error, children, htmlFor }: { label: string; error?: string; children: React.ReactNode; htmlFor?: string }) {
  return (
    <div className="otc-field">
      {htmlFor ? (
        <label className="otc-field-label" htmlFor={htmlFor}>
          {label}
        </label>
      ) : (
        <div className="otc-field-label">{label}</div>
      )}
      {children}
      {error && (
        <div className="otc-error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}

/** The ad form. */
export function AdForm({ ad, config, methods, adMethodIds, busy, onSubmit, onCancel }: AdFormProps) {
  const { t } = useTranslation('otc');
  const enabled = methods.filter((m) => m.enabled);
  const [v, setV] = useState<AdFormValues>(() => ({
    side: ad?.side ?? 'SELL',
    priceType: ad?.priceType ?? 'FIXED',
    price: ad?.priceType === 'FIXED' ? ad.price : '',
    floatPercent: ad?.floatPercent || '100.00',
    quantity: ad?.remaining ?? '',
    minFiat: ad?.minFiat ?? '',
    maxFiat: ad?.maxFiat ?? '',
    paymentWindowMinutes: ad?.paymentWindowMinutes ?? (config.paymentWindows.includes(15) ? 15 : (config.paymentWindows[0] ?? 15)),
    paymentMethodIds: adMethodIds ?? (ad ? enabled.filter((m) => ad.payTypes.includes(m.payType)).map((m) => m.id) : []),
    remarks: ad?.remarks ?? '',
  }));
  const [touched, setTouched] = useState(false);
  const remarksId = useId();
  const set = <K extends keyof AdFormValues>(k: K, x: AdFormValues[K]) => setV((o) => ({ ...o, [k]: x }));
  const errors = adFormErrors(v);
  const err = (k: keyof AdFormValues) => (touched && errors[k] ? t(`adForm.error.${errors[k]}`) : undefined);
  const livePrice = v.priceType === 'FLOAT' ? floatPrice(config.indexPrice, v.floatPercent) : null;

  return (
    <form
      className="otc-ad-form"
      aria-label={t(ad ? 'adForm.editTitle' : 'adForm.title')}
      onSubmit={(e) => {
        e.preventDefault();
        setTouched(true);
        if (Object.keys(errors).length === 0) onSubmit(v);
      }}
    >
      {!ad && (
        <Field label={t('adForm.side')}>
          <SegTabs
            classPrefix="otc"
            variant="pill"
            label={t('adForm.side')}
            items={(['SELL', 'BUY'] as const).map((k) => ({ key: k, label: t(`adForm.sides.${k}`, { coin: config.coin }) }))}
            active={v.side}
            onChange={(k) => set('side', k)}
          />
        </Field>
      )}
      <Field label={t('adForm.priceType')}>
        <SegTabs
          classPrefix="otc"
          variant="pill"
          label={t('adForm.priceType')}
          items={(['FIXED', 'FLOAT'] as const).map((k) => ({ key: k, label: t(`adForm.priceTypes.${k}`) }))}
          active={v.priceType}
          onChange={(k) => set('priceType', k)}
        />
      </Field>
      {v.priceType === 'FIXED' ? (
        <Field label={t('adForm.price', { fiat: config.fiat })} error={err('price')}>
          <Input
            aria-label={t('adForm.price', { fiat: config.fiat })}
            value={v.price}
            inputMode="decimal"
            onChange={(x) => set('price', x)}
            placeholder={config.indexPrice}
          />
        </Field>
      ) : (
        <Field label={t('adForm.floatPercent')} error={err('floatPercent')}>
          <Input aria-label={t('adForm.floatPercent')} value={v.floatPercent} inputMode="decimal" onChange={(x) => set('floatPercent', x)} />
        </Field>
      )}
      <div className="otc-note text-2" data-testid="ad-live-price">
        {t('adForm.index', { price: config.indexPrice })}
        {v.priceType === 'FLOAT' && ` · ${t('adForm.resulting', { price: livePrice ?? '--' })}`}
      </div>
      <Field label={t('adForm.quantity', { coin: config.coin })} error={err('quantity')}>
        <Input aria-label={t('adForm.quantity', { coin: config.coin })} value={v.quantity} inputMode="decimal" onChange={(x) => set('quantity', x)} />
      </Field>
      <div className="otc-field-pair">
        <Field label={t('adForm.minFiat', { fiat: config.fiat })} error={err('minFiat')}>
          <Input aria-label={t('adForm.minFiat', { fiat: config.fiat })} value={v.minFiat} inputMode="decimal" onChange={(x) => set('minFiat', x)} />
        </Field>
        <Field label={t('adForm.maxFiat', { fiat: config.fiat })} error={err('maxFiat')}>
          <Input aria-label={t('adForm.maxFiat', { fiat: config.fiat })} value={v.maxFiat} inputMode="decimal" onChange={(x) => set('maxFiat', x)} />
        </Field>
      </div>
      <Field label={t('adForm.window')} error={err('paymentWindowMinutes')}>
        <SegTabs
          classPrefix="otc"
          variant="pill"
          label={t('adForm.window')}
          items={config.paymentWindows.map((n) => ({ key: String(n), label: t('adForm.minutes', { n }) }))}
          active={String(v.paymentWindowMinutes)}
          onChange={(k) => set('paymentWindowMinutes', Number.parseInt(k, 10))}
        />
      </Field>
      <Field label={t('adForm.methods')} error={err('paymentMethodIds')}>
        {enabled.length === 0 ? (
          <div className="otc-note">{t('take.needMethod')}</div>
        ) : (
          <Checkbox.Group value={v.paymentMethodIds} onChange={(ids) => set('paymentMethodIds', ids.map(String))}>
            {enabled.map((m) => (
              <Checkbox key={m.id} value={m.id} className="otc-method-check">
                <PayTypeTag type={m.payType} /> <span className="text-2">{m.payType === 'BANK' ? `${m.bankName} ${m.cardNo.slice(-4)}` : m.account}</span>
              </Checkbox>
            ))}
          </Checkbox.Group>
        )}
      </Field>
      <Field label={t('adForm.remarks')} error={err('remarks')} htmlFor={remarksId}>
        <TextArea
          id={remarksId}
          value={v.remarks}
          onChange={(x) => set('remarks', x)}
          maxLength={500}
          showCount
          rows={3}
          placeholder={t('adForm.remarksHint')}
        />
      </Field>
      <div className="otc-actions">
        <Button block color="primary" type="submit" loading={busy}>
          {t(ad ? 'adForm.save' : 'adForm.publish')}
        </Button>
        <Button block fill="none" onClick={onCancel}>
          {t('common:cancel')}
        </Button>
      </div>
    </form>
  );
}
