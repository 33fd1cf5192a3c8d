/** The deposit monitor: every deposit the chain watcher saw, by status, with confirmations n/N and the explorer link. */
import { StatusFilter } from './StatusFilter';
import { useState } from 'react';
import { Alert, Card, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatAmount, formatTime } from '../../shared/format';
import { useDeposits, type DepositsFilter } from './api/deposits';
import type { AdminDeposit, DepositStatus } from './api/types';

const STATUSES: DepositStatus[] = ['CONFIRMING', 'CREDITED', 'BELOW_MINIMUM', 'ORPHANED'];
const COLOR: Record<DepositStatus, string> = { CONFIRMING: 'processing', CREDITED: 'green', BELOW_MINIMUM: 'orange', ORPHANED: 'red' };

export default function DepositsPage() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<DepositsFilter>({ status: 'ALL', page: 1 });
  const q = useDeposits(filter);
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <StatusFilter
        statuses={STATUSES}
        label={(s) => t(`wallet.depositStatus.${s}`)}
        value={filter.status}
        onChange={(v) => setFilter({ status: v, page: 1 })}
        onRefresh={() => void q.refetch()}
        width={180}
      />
      {q.error && <Alert type="warning" showIcon message={q.error.message} />}
      <Card size="small">
        <Table<AdminDeposit>
          rowKey="id"
          loading={q.isFetching}
          dataSource={q.data?.list ?? []}
          pagination={{
            current: filter.page,
            total: q.data?.total ?? 0,
            showTotal: (n) => t('common.total', { count: n }),
            showSizeChanger: false,
            onChange: (page) => setFilter({ ...filter, page }),
          }}
          columns={[
            { title: t('wallet.id'), dataIndex: 'id', width: 80 },
            { title: t('wallet.user'), dataIndex: 'userId', width: 100 },
            { title: t('wallet.coin'), key: 'coin', render: (_: unknown, r) => `${r.coin} / ${r.chain}` },
            { title: t('wallet.amount'), dataIndex: 'amount', align: 'right', render: (v: string) => formatAmount(v) },
            { title: t('wallet.status'), dataIndex: 'status', render: (v: DepositStatus) => <Tag color={COLOR[v]}>{t(`wallet.depositStatus.${v}`)}</Tag> },
            { title: t('wallet.confirmations'), key: 'conf', render: (_: unknown, r) => `${r.confirmations}/${r.confirmationsRequired}` },
            {
              title: t('wallet.txHash'),
              dataIndex: 'txHash',
              ellipsis: true,
              render: (v: string, r) =>
                r.explorerUrl ? (
                  <Typography.Link href={r.explorerUrl} target="_blank" rel="noreferrer">
                    {v}
                  </Typography.Link>
                ) : (
                  <Typography.Text copyable={{ text: v }}>{v}</Typography.Text>
                ),
            },
            { title: t('wallet.block'), dataIndex: 'blockNumber', width: 90 },
            { title: t('wallet.created'), dataIndex: 'createdAt', render: (v: number) => formatTime(v) },
          ]}
        />
      </Card>
    </Space>
  );
}
