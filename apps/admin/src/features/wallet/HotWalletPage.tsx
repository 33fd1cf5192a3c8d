/**
 * The hot wallet per chain and coin: its address and balance on chain, what sits on users' deposit addresses (not
 * swept), the users' liabilities in the engine, and the coverage (on chain / liabilities), red below 100%.
 */
import { formatAmount } from '../../shared/format';
import { Alert, Button, Card, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useHotWallet } from './api/hot-wallet';
import type { HotWalletRow } from './api/types';
import { coveragePercent, isShort } from './coverage';

export default function HotWalletPage() {
  const { t } = useTranslation();
  const q = useHotWallet();
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      {q.error && <Alert type="warning" showIcon message={q.error.message} />}
      <Card size="small" extra={<Button onClick={() => void q.refetch()}>{t('common.refresh')}</Button>}>
        <Table<HotWalletRow>
          rowKey={(r) => `${r.chain}:${r.coin}`}
          loading={q.isFetching}
          dataSource={q.data ?? []}
          pagination={false}
          columns={[
            { title: t('wallet.chain'), dataIndex: 'chain', width: 80 },
            { title: t('wallet.coin'), dataIndex: 'coin', width: 80 },
            {
              title: t('wallet.hotWalletAddress'),
              dataIndex: 'hotWalletAddress',
              ellipsis: true,
              render: (v: string) => (v ? <Typography.Text copyable={{ text: v }}>{v}</Typography.Text> : '-'),
            },
            { title: t('wallet.hotWallet'), dataIndex: 'hotWallet', align: 'right', render: (v: string) => formatAmount(v) || '-' },
            { title: t('wallet.depositAddresses'), dataIndex: 'depositAddresses', align: 'right', render: (v: string) => formatAmount(v) || '-' },
            { title: t('wallet.liabilities'), dataIndex: 'liabilities', align: 'right', render: (v: string) => formatAmount(v) },
            {
              title: t('wallet.coverage'),
              key: 'coverage',
              align: 'right',
              render: (_: unknown, r) => {
                const c = coveragePercent(r.hotWallet, r.depositAddresses, r.liabilities);
                return c ? <Tag color={isShort(c) ? 'red' : 'green'}>{c}</Tag> : '-';
              },
            },
          ]}
        />
      </Card>
    </Space>
  );
}
