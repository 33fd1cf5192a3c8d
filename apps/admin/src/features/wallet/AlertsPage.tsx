/** Chain alerts for operators: reorgs deeper than the confirmations, failed broadcasts ..., newest first. */
import { Alert, Button, Card, Empty, Space, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../shared/format';
import { useChainAlerts } from './api/alerts';
import type { ChainAlert } from './api/types';

export default function AlertsPage() {
  const { t } = useTranslation();
  const q = useChainAlerts();
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      {q.error && <Alert type="warning" showIcon message={q.error.message} />}
      <Card size="small" extra={<Button onClick={() => void q.refetch()}>{t('common.refresh')}</Button>}>
        <Table<ChainAlert>
          rowKey="id"
          loading={q.isFetching}
          dataSource={q.data ?? []}
          locale={{ emptyText: <Empty description={t('wallet.noAlerts')} /> }}
          columns={[
            { title: t('wallet.created'), dataIndex: 'createdAt', width: 180, render: (v: number) => formatTime(v) },
            { title: t('wallet.chain'), dataIndex: 'chain', width: 90 },
            {
              title: t('wallet.kind'),
              dataIndex: 'kind',
              width: 160,
              render: (v: string) => <Tag color="red">{t(`wallet.alertKinds.${v}`, { defaultValue: v })}</Tag>,
            },
            { title: t('wallet.message'), dataIndex: 'message' },
          ]}
        />
      </Card>
    </Space>
  );
}
