/**
 * One position (spec section 3): side, market, margin mode and leverage; unrealized P&L and yield rate at the live mark
 * price; average open price, mark price, estimated liquidation price, hands (lots), position value, occupied margin,
 * take profit and stop loss prices, quantity. Actions: edit TP/SL, partial close with close lots, one-click close of
 * the whole position at the market price (after a confirmation); an isolated position's margin has a pencil that opens
 * the adjust-margin sheet (add or remove margin).
 */
import { useState } from 'react';
import { Button, Popup } from 'antd-mobile';
import { EditSOutline } from 'antd-mobile-icons';
import type { ContractPosition } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../../shared/api-client';
import { formatCoin, formatQty } from '../../../shared/format';
import { loadFeedback } from '../../../shared/ui/feedback';
import { useClosePosition } from '../api/close-position';
import { useSetTpSl } from '../api/set-tpsl';
import { checkTpSl, contractFormMessage, validateCloseLots, type ContractRules } from '../lib/contract-form';
import { AdjustMarginSheet } from './AdjustMarginSheet';
import { CardGrid, priceText, Signed } from './CardParts';
import { NumberField } from './NumberField';

/** Props of PositionCard. */
export interface PositionCardProps {
  position: ContractPosition;
  /** the market's rules (tick for TP/SL checks), when known */
  rules?: ContractRules;
}

function CloseSheet({ position, onClose }: { position: ContractPosition; onClose: () => void }) {
  const { t } = useTranslation('contract');
  const close = useClosePosition();
  const [lots, setLots] = useState(String(position.lots));
  const [err, setErr] = useState<string | null>(null);
  const sideText = position.side === 'LONG' ? t('long') : t('short');
  const submit = () => {
    const e = validateCloseLots(lots, String(position.lots));
    if (e) {
      setErr(t(`err.${e}`, { n: String(position.lots) }));
      return;
    }
    const n = Number.parseInt(lots, 10);
    // mutateAsync: the toast still shows when the position's push removed this card before the answer came.
    close
      .mutateAsync(n >= position.lots ? { symbol: position.symbol } : { symbol: position.symbol, lots: n })
      .then(() => {
        showToast(t('positionClosed'));
        onClose();
      })
      .catch(() => undefined);
  };
  return (
    <Popup visible onMaskClick={onClose} onClose={onClose} bodyStyle={{ background: 'var(--ex-card)', borderRadius: '12px 12px 0 0' }}>
      <div className="ct-sheet" role="dialog" aria-label={t('closeTitle', { side: sideText, symbol: position.symbol })}>
        <h2>{t('closeTitle', { side: sideText, symbol: position.symbol })}</h2>
        <p className="ct-sheet-hint">
          {t('closeAtMarket')} · {t('closeLotsHint', { n: position.lots })}
        </p>
        <NumberField
          caption
          id="ct-close-lots"
          label={t('closeLots')}
          unit=""
          inputMode="numeric"
          value={lots}
          onChange={(v) => {
            setLots(v);
            setErr(null);
          }}
          onStep={(d) => setLots(String(Math.min(position.lots, Math.max(1, (Number.parseInt(lots, 10) || 0) + d))))}
          error={err}
        />
        <div className="ct-sheet-actions">
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button color="primary" loading={close.isPending} onClick={submit}>
            {t('confirm')}
          </Button>
        </div>
      </div>
    </Popup>
  );
}

function TpSlSheet({ position, rules, onClose }: { position: ContractPosition; rules?: ContractRules; onClose: () => void }) {
  const { t } = useTranslation('contract');
  const save = useSetTpSl();
  const [tp, setTp] = useState(position.takeProfit);
  const [sl, setSl] = useState(position.stopLoss);
  const [err, setErr] = useState<{ field: 'tp' | 'sl'; text: string } | null>(null);
  const submit = () => {
    if (rules) {
      const e = checkTpSl(position.side, tp, sl, position.markPrice, rules);
      if (e) {
        const m = contractFormMessage(e, position.side, rules);
        setErr({ field: e.startsWith('take_profit') ? 'tp' : 'sl', text: t(m.key, m.values) });
        return;
      }
    }
    save
      .mutateAsync({ symbol: position.symbol, takeProfit: tp, stopLoss: sl })
      .then(() => {
        showToast(t('tpslSaved'));
        onClose();
      })
      .catch(() => undefined);
  };
  return (
    <Popup visible onMaskClick={onClose} onClose={onClose} bodyStyle={{ background: 'var(--ex-card)', borderRadius: '12px 12px 0 0' }}>
      <div className="ct-sheet" role="dialog" aria-label={t('tpslTitle', { symbol: position.symbol })}>
        <h2>{t('tpslTitle', { symbol: position.symbol })}</h2>
        <p className="ct-sheet-hint">
          {t('markPrice')} {priceText(position.markPrice, position.priceDecimals)} · {t('tpslHint')}
        </p>
        <div className="ct-form">
          <NumberField
            caption
            id="ct-edit-tp"
            label={t('takeProfit')}
            unit={position.quote}
            value={tp}
            onChange={(v) => {
              setTp(v);
              setErr(null);
            }}
            error={err?.field === 'tp' ? err.text : null}
          />
          <NumberField
            caption
            id="ct-edit-sl"
            label={t('stopLoss')}
            unit={position.quote}
            value={sl}
            onChange={(v) => {
              setSl(v);
              setErr(null);
            }}
            error={err?.field === 'sl' ? err.text : null}
          />
        </div>
        <div className="ct-sheet-actions">
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button color="primary" loading={save.isPending} onClick={submit}>
            {t('save')}
          </Button>
        </div>
      </div>
    </Popup>
  );
}

/** The position card. */
export function PositionCard({ position: p, rules }: PositionCardProps) {
  const { t } = useTranslation('contract');
  const close = useClosePosition();
  const [sheet, setSheet] = useState<'close' | 'tpsl' | 'margin' | null>(null);
  const long = p.side === 'LONG';
  const sideText = long ? t('long') : t('short');
  const d = p.priceDecimals;
  const closeAll = () => {
    void loadFeedback()
      .then(({ Dialog }) =>
        Dialog.confirm({ content: t('closeConfirm', { side: sideText, symbol: p.symbol, lots: p.lots }), confirmText: t('confirm'), cancelText: t('cancel') }),
      )
      .then((ok) => {
        if (ok) return close.mutateAsync({ symbol: p.symbol }).then(() => showToast(t('positionClosed')));
      })
      .catch(() => undefined);
  };
  return (
    <li className="ct-card" aria-label={`${p.symbol} ${sideText}`} data-testid="position">
      <div className="ct-card-top">
        <span className={`ct-card-side ${long ? 'c-up' : 'c-down'}`}>{sideText}</span>
        <b className="ct-card-pair">{p.symbol}</b>
        <span className="ct-chip">{t(p.marginMode)}</span>
        <span className="ct-chip num">{t('leverageX', { n: p.leverage })}</span>
        <span className="ct-card-end num">
          {t('riskLevel')} {p.riskLevel}%
        </span>
      </div>
      <CardGrid
        cells={[
          [
            `${t('unrealizedPnl')} (${p.quote})`,
            <span key="pnl" className="ct-pnl-big" data-testid="upnl">
              <Signed value={p.unrealizedPnl} decimals={2} />
            </span>,
          ],
          [
            t('yieldRate'),
            <span key="y" className="ct-pnl-big" data-testid="yield">
              <Signed value={p.yieldRate} decimals={2} suffix="%" />
            </span>,
          ],
          [
            t('hands'),
            <span key="h" data-testid="hands">
              {p.lots}
            </span>,
          ],
          [`${t('avgPrice')}`, priceText(p.avgPrice, d)],
          [`${t('markPrice')}`, priceText(p.markPrice, d)],
          [
            `${t('liqPrice')}`,
            <span key="lp" data-testid="liq-price">
              {priceText(p.liquidationPrice, d)}
            </span>,
          ],
          [`${t('positionValue')} (${p.quote})`, formatCoin(p.positionValue, p.quote)],
          [
            `${t('occupiedMargin')} (${p.quote})`,
            <span key="m">
              <span data-testid="margin">{formatCoin(p.margin, p.quote)}</span>
              {p.marginMode === 'ISOLATED' && (
                <button type="button" className="ct-edit-btn" aria-label={t('adjustMargin')} onClick={() => setSheet('margin')}>
                  <EditSOutline />
                </button>
              )}
            </span>,
          ],
          [`${t('quantity')} (${p.base})`, formatQty(p.quantity, p.qtyDecimals)],
          [
            t('takeProfit'),
            <span key="tp" data-testid="tp">
              {priceText(p.takeProfit, d)}
            </span>,
          ],
          [
            t('stopLoss'),
            <span key="sl" data-testid="sl">
              {priceText(p.stopLoss, d)}
            </span>,
          ],
          [t('leverage'), t('leverageX', { n: p.leverage })],
        ]}
      />
      <div className="ct-card-actions">
        <Button size="small" onClick={() => setSheet('tpsl')}>
          {t('editTpSl')}
        </Button>
        <Button size="small" onClick={() => setSheet('close')}>
          {t('closePart')}
        </Button>
        <Button size="small" loading={close.isPending} onClick={closeAll}>
          {t('closeAll')}
        </Button>
      </div>
      {sheet === 'close' && <CloseSheet position={p} onClose={() => setSheet(null)} />}
      {sheet === 'tpsl' && <TpSlSheet position={p} rules={rules} onClose={() => setSheet(null)} />}
      {sheet === 'margin' && <AdjustMarginSheet position={p} rules={rules} onClose={() => setSheet(null)} />}
    </li>
  );
}
