/** The help centre's search box: submitting opens the results (/helpCenterDetail3?q=). */
import { useState } from 'react';
import { SearchBar } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { HELP_SEARCH_MAX } from '../api/search-help';

/** Search box, prefilled with `initial`; `replace` replaces the history entry (on the results page itself). */
export function HelpSearchBar({ initial = '', replace = false }: { initial?: string; replace?: boolean }) {
  const { t } = useTranslation('help');
  const navigate = useNavigate();
  const [q, setQ] = useState(initial);
  return (
    <form
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        if (q.trim()) navigate(`/helpCenterDetail3?q=${encodeURIComponent(q.trim())}`, { replace });
      }}
    >
      <SearchBar
        value={q}
        onChange={setQ}
        maxLength={HELP_SEARCH_MAX}
        placeholder={t('searchPlaceholder')}
        aria-label={t('search')}
        onSearch={(v) => v.trim() && navigate(`/helpCenterDetail3?q=${encodeURIComponent(v.trim())}`, { replace })}
      />
    </form>
  );
}
