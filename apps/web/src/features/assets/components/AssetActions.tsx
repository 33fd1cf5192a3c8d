/**
 * Entry buttons of the assets screens: deposit (/assets/coinCharging), withdraw (/assets/withdrawCoin),
 * transfer (/assets/transfer) and records (/assets/capitalRecords?type=coinCharging|withdrawCoin|transfer,
 * chosen in an action sheet). Those screens are the wallet feature's (features/wallet/pages).
 */
import { useState } from 'react';
import { ActionSheet } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';

const ICONS: Record<string, string> = {
  deposit: 'M12 4v12m0 0l-5-5m5 5l5-5M5 20h14',
  withdraw: 'M12 20V8m0 0l-5 5m5-5l5 5M5 4h14',
  transfer: 'M5 8h13l-4-4M19 16H6l4 4',
  records: 'M6 4h12v16H6zM9 9h6M9 13h6M9 17h4',
};

/** The four entry buttons; `coin` is passed on to deposit/withdraw when given. */
export function AssetActions({ coin }: { coin?: string }) {
  const { t } = useTranslation('assets');
  const navigate = useNavigate();
  const [sheet, setSheet] = useState(false);
  const q = coin ? `?coin=${encodeURIComponent(coin)}` : '';
  const items: [string, () => void][] = [
    ['deposit', () => navigate(`/assets/coinCharging${q}`)],
    ['withdraw', () => navigate(`/assets/withdrawCoin${q}`)],
    ['transfer', () => navigate(`/assets/transfer${q}`)],
    ['records', () => setSheet(true)],
  ];
  return (
    <>
      <div className="as-actions">
        {items.map(([key, go]) => (
          <button key={key} type="button" className="as-action" onClick={go}>
            <span className="as-action-icon" aria-hidden="true">
              <svg width="20" height="20" viewBox="0 0 24 24">
                <path d={ICONS[key]} stroke="currentColor" strokeWidth="1.8" fill="none" strokeLinecap="round" strokeLinejoin="round" />
              </svg>
            </span>
            <span>{t(key)}</span>
          </button>
        ))}
      </div>
      <ActionSheet
        visible={sheet}
        onClose={() => setSheet(false)}
        cancelText={t('common:cancel')}
        actions={(['coinCharging', 'withdrawCoin', 'transfer'] as const).map((type) => ({
          key: type,
          text: t(`recordsOf.${type}`),
          onClick: () => {
            setSheet(false);
            navigate(`/assets/capitalRecords?type=${type}`);
          },
        }))}
      />
    </>
  );
}
