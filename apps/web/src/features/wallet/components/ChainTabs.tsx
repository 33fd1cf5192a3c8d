/** The network chooser of a coin (deposit and withdraw): one chip per CoinChain, by its display name. */
import { useTranslation } from 'react-i18next';
import type { CoinChain } from '@exchange/api';
import { SegTabs } from '../../../shared/ui/SegTabs';

/** Chips of the coin's networks; `value` is the selected network code. */
export function ChainTabs({ chains, value, onChange }: { chains: readonly CoinChain[]; value: string; onChange: (chain: string) => void }) {
  const { t } = useTranslation('wallet');
  if (chains.length === 0) return null;
  return (
    <div className="wl-section">
      <div className="wl-label">{t('network')}</div>
      <SegTabs
        items={chains.map((c) => ({ key: c.chain, label: c.chainName }))}
        active={value}
        onChange={onChange}
        label={t('network')}
        classPrefix="wl"
        variant="pill"
      />
    </div>
  );
}
