/** The filter card of the OTC lists: a state select (with "All"), optionally a user id, and Refresh. */
import { Button, Card, Input, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';

/** `states` with their labels; `value` 'ALL' or one of them; `userId` shown when `onUserId` is given. */
export function OtcFilter<S extends string>(props: {
  label: string;
  states: readonly S[];
  stateLabel: (s: S) => string;
  value: S | 'ALL';
  onChange: (v: S | 'ALL') => void;
  userId?: string;
  onUserId?: (v: string) => void;
  onRefresh: () => void;
  children?: React.ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Card size="small">
      <Space wrap>
        <span>{props.label}</span>
        <Select<S | 'ALL'>
          aria-label={props.label}
          style={{ width: 170 }}
          value={props.value}
          onChange={props.onChange}
          options={[{ value: 'ALL' as const, label: t('otc.all') }, ...props.states.map((s) => ({ value: s, label: props.stateLabel(s) }))]}
        />
        {props.onUserId && (
          <Input.Search
            aria-label={t('otc.userId')}
            placeholder={t('otc.userId')}
            allowClear
            style={{ width: 200 }}
            defaultValue={props.userId}
            onSearch={(v) => props.onUserId?.(v.trim())}
          />
        )}
        {props.children}
        <Button onClick={props.onRefresh}>{t('common.refresh')}</Button>
      </Space>
    </Card>
  );
}
