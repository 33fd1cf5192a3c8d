/** The selected coin as a row that opens the coin chooser (/assets/chooseCoin?type=...) to pick another. */
import { RightOutline } from 'antd-mobile-icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CoinIcon } from '../../../shared/ui/CoinIcon';

/** The coin row; `type` is the screen the chooser returns to. */
export function CoinPickerRow({ coin, name, type }: { coin: string; name?: string; type: 'coinCharging' | 'withdrawCoin' }) {
  const { t } = useTranslation('wallet');
  const navigate = useNavigate();
  return (
    <div className="wl-section">
      <div className="wl-label">{t('coin')}</div>
      <button type="button" className="wl-coin-row" aria-label={t('changeCoin', { coin })} onClick={() => navigate(`/assets/chooseCoin?type=${type}`)}>
        <CoinIcon coin={coin} size={24} />
        <span className="wl-coin-code">{coin}</span>
        {name && <span className="wl-coin-name">{name}</span>}
        <RightOutline className="wl-chevron" />
      </button>
    </div>
  );
}
