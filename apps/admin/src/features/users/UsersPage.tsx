/** User lookup: search by UID, e-mail or phone; the matches in a table; a row opens the user's detail. */
import { Card, Empty, Input, Space, Table, Tag, Typography } from 'antd';
import type { AdminUserRow } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useUserSearch } from './api/search';

export default function UsersPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const search = useUserSearch(q);
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Card size="small">
        <Input.Search
          aria-label={t('users.search')}
          placeholder={t('users.search')}
          defaultValue={q}
          enterButton={t('users.searchButton')}
          allowClear
          style={{ maxWidth: 520 }}
          loading={search.isFetching}
          onSearch={(v) => setParams(v.trim() ? { q: v.trim() } : {})}
        />
      </Card>
      <Card size="small">
        {q === '' ? (
          <Typography.Text type="secondary">{t('users.hint')}</Typography.Text>
        ) : (
          <Table<AdminUserRow>
            rowKey="userId"
            size="middle"
            loading={search.isFetching}
            dataSource={search.data ?? []}
            pagination={false}
            locale={{ emptyText: <Empty description={search.error ? search.error.message : t('users.none')} /> }}
            columns={[
              { title: t('users.uid'), dataIndex: 'uuid', render: (v: string, r) => <Link to={`/users/${r.userId}`}>{v}</Link> },
              { title: t('users.userId'), dataIndex: 'userId' },
              { title: t('users.mail'), dataIndex: 'mail' },
              { title: t('users.phone'), dataIndex: 'phone', render: (v: string, r) => (v ? `+${r.areaCode} ${v}` : '') },
              { title: t('users.nickName'), dataIndex: 'nickName' },
              {
                title: t('users.kyc'),
                dataIndex: 'cardState',
                render: (v: string) => (v ? <Tag color={v === 'PASS' ? 'green' : 'default'}>{t(`kyc.${v}`, { defaultValue: v })}</Tag> : '-'),
              },
              {
                title: t('users.status'),
                dataIndex: 'frozen',
                render: (v: boolean) => (v ? <Tag color="red">{t('users.frozen')}</Tag> : <Tag color="green">{t('users.active')}</Tag>),
              },
              { title: '', key: 'open', render: (_: unknown, r) => <Link to={`/users/${r.userId}`}>{t('users.open')}</Link> },
            ]}
          />
        )}
      </Card>
    </Space>
  );
}
