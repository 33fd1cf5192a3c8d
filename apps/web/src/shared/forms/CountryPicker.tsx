/** Area-code list with search (used by /chooseArea and inside the sign-up/sign-in forms). */
import { useMemo, useState } from 'react';
import { List, SearchBar } from 'antd-mobile';
import { CheckOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../storage';
import { COUNTRIES } from './countries';

/** Lists countries; calls onPick with the code (digits). */
export function CountryPicker({ value, onPick }: { value: string; onPick: (code: string) => void }) {
  const { t } = useTranslation('account');
  const lang = useAppStore((s) => s.currentLangue);
  const [q, setQ] = useState('');
  const items = useMemo(() => {
    const s = q.trim().toLowerCase().replace(/^\+/, '');
    if (!s) return COUNTRIES;
    return COUNTRIES.filter((c) => c.code.startsWith(s) || c.en.toLowerCase().includes(s) || c.zh.includes(s));
  }, [q]);
  return (
    <div>
      <div style={{ padding: '8px 12px' }}>
        <SearchBar placeholder={t('area.search')} value={q} onChange={setQ} aria-label={t('area.search')} />
      </div>
      <List>
        {items.map((c) => (
          <List.Item
            key={c.code + c.en}
            onClick={() => onPick(c.code)}
            extra={<span className="num">+{c.code}</span>}
            arrowIcon={value === c.code ? <CheckOutline color="var(--ex-primary)" /> : false}
          >
            {lang === 'zh' ? c.zh : c.en}
          </List.Item>
        ))}
      </List>
    </div>
  );
}
