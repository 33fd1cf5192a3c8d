/**
 * The adjust-margin sheet of an isolated position (Binance's "Adjust margin"): Add / Remove tabs, the amount with a
 * Max button, the most that may be added (the contract account's available balance) or removed (the engine's rule,
 * perp/math maxRemovableMargin at the live mark price), the margin and the estimated liquidation price before and after
 * the change (perp/math liquidationPrice, the server's formula). An amount the rules refuse is explained under the
 * field before sending; a refusal of the server is shown there too, in the user's language.
 */
import { useState } from 'react';
import { Button, Popup } from 'antd-mobile';
import type { ContractPosition } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { isApiError, showToast } from '../../../shared/api-client';
import { formatCoin, trimZeros } from '../../../shared/format';
import { SegTabs } from '../../../shared/ui/SegTabs';
import { useAdjustMargin } from '../api/adjust-margin';
import { useContractAccount } from '../api/get-account';
import { adjustMarginBody, previewAdjustMargin, validateAdjustMargin, type AdjustMarginError, type AdjustMarginMode } from '../lib/adjust-margin';
import type { ContractRules } from '../lib/contract-form';
import { priceText } from './CardParts';
import { NumberField } from './NumberField';

/** Props of AdjustMarginSheet. */
export interface AdjustMarginSheetProps {
  /** the position as shown (at the live mark price) */
  position: ContractPosition;
  /** the market's rules (brackets for the liquidation price estimate), when known */
  rules?: ContractRules;
  onClose: () => void;
}

/** A USDT amount as read: exact, grouped, trailing zeros dropped down to 2 decimals ("1,234.5" -> "1,234.50"). */
const usdtText = (v: string) => (v ? formatCoin(v, 'USDT', { exact: true }) : '--');

/** The sheet (rendered open; the card unmounts it to close). */
export function AdjustMarginSheet({ position: p, rules, onClose }: AdjustMarginSheetProps) {
  const { t } = useTranslation('contract');
  const account = useContractAccount();
  const adjust = useAdjustMargin();
  const [mode, setMode] = useState<AdjustMarginMode>('ADD');
  const [amount, setAmount] = useState('');
  // A rule's code (its message follows the live maximum) or the server's own words.
  const [err, setErr] = useState<{ code: AdjustMarginError } | { text: string } | null>(null);
  const available = account.data?.available ?? '0';
  const preview = previewAdjustMargin(mode, amount, p, available, rules);
  const max = mode === 'ADD' ? preview.maxAdd : preview.maxRemove;
  const title = t('adjustMarginTitle', { symbol: p.symbol });
  const errText = err === null ? null : 'code' in err ? t(`err.${err.code}`, { max: usdtText(max) }) : err.text;

  const submit = () => {
    const e = validateAdjustMargin(mode, amount, p, available);
    if (e) {
      setErr({ code: e });
      return;
    }
    adjust
      .mutateAsync(adjustMarginBody(p.symbol, mode, amount))
      .then(() => {
        showToast(t(mode === 'ADD' ? 'marginAdded' : 'marginRemoved'));
        onClose();
      })
      .catch((x: unknown) => {
        // The engine refuses a removal beyond its limit as a balance shortfall: say what may be removed instead.
        if (mode === 'REMOVE' && (isApiError(x, 'margin_remove_exceeded') || isApiError(x, 'contract_insufficient_balance')))
          setErr({ code: 'remove_too_much' });
        else setErr({ text: x instanceof Error ? x.message : String(x) });
      });
  };

  return (
    <Popup visible onMaskClick={onClose} onClose={onClose} bodyStyle={{ background: 'var(--ex-card)', borderRadius: '12px 12px 0 0' }}>
      <div className="ct-sheet" role="dialog" aria-label={title}>
        <h2>{title}</h2>
        <SegTabs
          classPrefix="ct"
          label={t('adjustMargin')}
          variant="pill"
          className="ct-margin-tabs"
          items={[
            { key: 'ADD' as const, label: t('addMargin') },
            { key: 'REMOVE' as const, label: t('removeMargin') },
          ]}
          active={mode}
          onChange={(k) => {
            setMode(k);
            setAmount('');
            setErr(null);
          }}
        />
        <div className="ct-form">
          <NumberField
            caption
            id="ct-margin-amount"
            label={t('marginAmount')}
            unit={p.quote}
            value={amount}
            onChange={(v) => {
              setAmount(v);
              setErr(null);
            }}
            error={errText}
          />
        </div>
        <div className="ct-margin-max">
          <span className="text-3">{t(mode === 'ADD' ? 'maxAddable' : 'maxRemovable')}</span>
          <span className="num" data-testid="margin-max">
            {usdtText(max)} {p.quote}
          </span>
          <button
            type="button"
            className="ct-link-btn"
            onClick={() => {
              setAmount(trimZeros(max));
              setErr(null);
            }}
          >
            {t('max')}
          </button>
        </div>
        <dl className="ct-margin-rows num">
          <div>
            <dt>{t('currentMargin')}</dt>
            <dd data-testid="margin-now">
              {usdtText(p.margin)} {p.quote}
            </dd>
          </div>
          <div>
            <dt>{t('marginAfter')}</dt>
            <dd data-testid="margin-after">{preview.newMargin ? `${usdtText(preview.newMargin)} ${p.quote}` : '--'}</dd>
          </div>
          <div>
            <dt>{t('liqPrice')}</dt>
            <dd data-testid="liq-now">{priceText(p.liquidationPrice, p.priceDecimals)}</dd>
          </div>
          <div>
            <dt>{t('liqAfter')}</dt>
            <dd data-testid="liq-after">{priceText(preview.liquidationPrice === '--' ? '' : preview.liquidationPrice, p.priceDecimals)}</dd>
          </div>
        </dl>
        <p className="ct-sheet-hint">{t('adjustMarginHint')}</p>
        <div className="ct-sheet-actions">
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button color="primary" loading={adjust.isPending} onClick={submit}>
            {t('confirm')}
          </Button>
        </div>
      </div>
    </Popup>
  );
}
