/** The filter card of the wallet's lists (deposits, withdrawals): a status select (with "All") and Refresh. */
import { Button, Card, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';

/** `statuses` with their labels; `value` 'ALL' or one of them; `onRefresh` refetches the list. */
export function StatusFilter<S extends string>(props: {
  statuses: readonly S[];
  label: (s: S) => string;
  value: S | 'ALL';
  onChange: (v: S | 'ALL') => void;
  onRefresh: () => void;
  width: number;
}) {
  const { t } = useTranslation();
  return (
    <Card size="small">
      <Space wrap>
        <span>{t('wallet.status')}</span>
        <Select<S | 'ALL'>
          aria-label={t('wallet.status')}
          style={{ width: props.width }}
          value={props.value}
          onChange={props.onChange}
          options={[{ value: 'ALL' as const, label: t('wallet.all') }, ...props.statuses.map((s) => ({ value: s, label: props.label(s) }))]}
        />
        <Button onClick={props.onRefresh}>{t('common.refresh')}</Button>
      </Space>
    </Card>
  );
}
