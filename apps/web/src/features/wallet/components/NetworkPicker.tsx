/**
 * The network chooser of a coin (deposit and withdraw), as Binance's: a row naming the selected network (its name and
 * code) that opens a bottom sheet listing every network of the coin. Each network is a radio with its name and code
 * and, for a deposit, the minimum deposit and the confirmations before crediting; for a withdrawal, the fee, the
 * minimum withdrawal and the confirmations. A network this deployment has no node for, or whose deposits (withdrawals)
 * are suspended, is listed but cannot be chosen. Long names ("BNB Smart Chain (BEP20)") wrap in the sheet instead of
 * overflowing a 390 px screen, whatever the number of networks.
 */
import { useState } from 'react';
import { Popup } from 'antd-mobile';
import { CheckOutline, RightOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import type { CoinChain } from '@exchange/api';
import { formatCoin } from '../../../shared/format';

/** Why a network cannot be chosen for `mode` (locale keys `networkPicker.*`), or null when it can. */
export function networkBlock(c: CoinChain, mode: 'deposit' | 'withdraw'): 'unavailable' | 'suspended' | null {
  if (!c.available) return 'unavailable';
  if (mode === 'deposit' ? !c.depositEnabled : !c.withdrawEnabled) return 'suspended';
  return null;
}

/** The row and its sheet; `value` is the selected network code, `onChange(code)` fires on a choice. */
export function NetworkPicker({
  coin,
  chains,
  value,
  onChange,
  mode,
}: {
  coin: string;
  chains: readonly CoinChain[];
  value: string;
  onChange: (chain: string) => void;
  mode: 'deposit' | 'withdraw';
}) {
  const { t } = useTranslation('wallet');
  const [open, setOpen] = useState(false);
  if (chains.length === 0) return null;
  const selected = chains.find((c) => c.chain === value);
  return (
    <div className="wl-section">
      <div className="wl-label">{t('network')}</div>
      <button
        type="button"
        className="wl-coin-row wl-net-row"
        aria-haspopup="dialog"
        aria-label={t('networkPicker.current', { name: selected?.chainName ?? t('networkPicker.choose') })}
        onClick={() => setOpen(true)}
      >
        <span className="wl-net-name" data-testid="network-name">
          {selected?.chainName ?? t('networkPicker.choose')}
        </span>
        {selected && <span className="wl-tag wl-net-code">{selected.chain}</span>}
        <RightOutline className="wl-chevron" />
      </button>
      <Popup visible={open} onMaskClick={() => setOpen(false)} onClose={() => setOpen(false)} bodyClassName="wl-sheet" destroyOnClose>
        <div role="dialog" aria-label={t('networkPicker.choose')}>
          <h2 className="wl-sheet-title">{t('networkPicker.choose')}</h2>
          <p className="wl-net-hint">{t(mode === 'deposit' ? 'networkPicker.depositHint' : 'networkPicker.withdrawHint', { coin })}</p>
          <div role="radiogroup" aria-label={t('network')} className="wl-net-list">
            {chains.map((c) => {
              const block = networkBlock(c, mode);
              const on = c.chain === value;
              return (
                <button
                  key={c.chain}
                  type="button"
                  role="radio"
                  aria-checked={on}
                  disabled={block !== null}
                  className={`wl-net-item${on ? ' wl-net-item-on' : ''}`}
                  onClick={() => {
                    onChange(c.chain);
                    setOpen(false);
                  }}
                >
                  <span className="wl-net-item-top">
                    <span className="wl-net-item-code">{c.chain}</span>
                    {block && <span className="wl-tag">{t(`networkPicker.${block}`)}</span>}
                    {on && <CheckOutline className="wl-net-check" aria-hidden="true" />}
                  </span>
                  <span className="wl-net-item-name">{c.chainName}</span>
                  <span className="wl-net-item-facts">
                    {mode === 'withdraw' ? (
                      <>
                        <span>{t('networkPicker.fee', { fee: formatCoin(c.withdrawFee, coin, { exact: true }), coin })}</span>
                        <span>{t('networkPicker.minWithdraw', { min: formatCoin(c.minWithdraw, coin, { exact: true }), coin })}</span>
                      </>
                    ) : (
                      <span>{t('networkPicker.minDeposit', { min: formatCoin(c.minDeposit, coin, { exact: true }), coin })}</span>
                    )}
                    <span>{t('networkPicker.confirmations', { count: c.confirmations })}</span>
                  </span>
                </button>
              );
            })}
          </div>
        </div>
      </Popup>
    </div>
  );
}
