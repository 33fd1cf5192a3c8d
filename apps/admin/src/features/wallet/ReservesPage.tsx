/**
 * Proof of reserves in the console: the latest published snapshot (root hash, time, leaves, per-asset liabilities,
 * on-chain reserves and ratio, with each network's reserves under a coin carried on several: the rows unfold) and, for wallet_decide (finance, admin), "Take snapshot", which publishes a new one
 * (audited). Users verify their inclusion on the app's /reserves page (docs/proof-of-reserves.md).
 */
import { Alert, App, Button, Card, Descriptions, Empty, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import type { ReservesRoot } from '@exchange/api';
import { pow10 } from '@exchange/money';
import { useTranslation } from 'react-i18next';
import { formatAmount, formatRatio, formatTime } from '../../shared/format';
import { useCan } from '../../shared/permissions';
import { useReservesRoot, useTakeReservesSnapshot } from './api/reserves';
import { useNetworkNames } from './api/coins';
import { decimalUnits, UNITS_SCALE } from './coverage';

type Total = ReservesRoot['totals'][number];
/** A line of the table: a coin's total, or (in `children`) its reserves on one network. */
type Line = { key: string; coin: string; liabilities: string; reserves: string; ratio: string; children?: Line[] };
/** A ratio of 1 at the 18 places of decimalUnits. */
const ONE = pow10(UNITS_SCALE);

export default function ReservesPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const q = useReservesRoot();
  const take = useTakeReservesSnapshot();
  const canTake = useCan('wallet_decide');
  const root = q.data;
  const names = useNetworkNames();
  const lines = (root?.totals ?? [])
    .filter((x) => decimalUnits(x.liabilities) !== 0n || x.reserves !== '')
    .map((x: Total): Line => ({
      key: x.coin,
      coin: x.coin,
      liabilities: x.liabilities,
      reserves: x.reserves,
      ratio: x.ratio,
      children:
        (x.networks ?? []).length > 1
          ? x.networks.map((n) => ({
              key: `${x.coin}:${n.chain}`,
              coin: `${names.get(n.chain) ?? n.chain} (${n.chain})`,
              liabilities: '',
              reserves: n.reserves,
              ratio: '',
            }))
          : undefined,
    }));
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Card size="small">
        <Space wrap>
          {canTake ? (
            <Popconfirm
              title={t('wallet.takeSnapshotConfirm')}
              okText={t('common.ok')}
              cancelText={t('common.cancel')}
              onConfirm={() =>
                take.mutate(undefined, { onSuccess: (r) => void message.success(t('wallet.snapshotTaken', { id: r.snapshotId, count: r.leafCount })) })
              }
            >
              <Button type="primary" loading={take.isPending}>
                {t('wallet.takeSnapshot')}
              </Button>
            </Popconfirm>
          ) : (
            <Typography.Text type="secondary">{t('wallet.noPermission')}</Typography.Text>
          )}
          <Button onClick={() => void q.refetch()}>{t('common.refresh')}</Button>
        </Space>
      </Card>
      {take.error && <Alert type="error" showIcon message={take.error.message} />}
      {q.error && <Alert type="warning" showIcon message={q.error.message} />}
      {root === null && <Empty description={t('wallet.noSnapshot')} />}
      {root && (
        <>
          <Descriptions bordered size="small" column={2}>
            <Descriptions.Item label={t('wallet.snapshot')}>{root.snapshotId}</Descriptions.Item>
            <Descriptions.Item label={t('wallet.snapshotTime')}>{formatTime(root.createdAt)}</Descriptions.Item>
            <Descriptions.Item label={t('wallet.rootHash')} span={2}>
              <Typography.Text code copyable>
                {root.rootHash}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('wallet.leafCount')}>{root.leafCount}</Descriptions.Item>
          </Descriptions>
          <Card size="small">
            <Table<Line>
              rowKey="key"
              pagination={false}
              dataSource={lines}
              expandable={{ expandedRowKeys: lines.filter((l) => l.children).map((l) => l.key), showExpandColumn: false }}
              columns={[
                { title: t('wallet.coin'), dataIndex: 'coin' },
                { title: t('wallet.liabilities'), dataIndex: 'liabilities', align: 'right', render: (v: string) => formatAmount(v) },
                {
                  title: t('wallet.reserves'),
                  dataIndex: 'reserves',
                  align: 'right',
                  render: (v: string, l) => formatAmount(v) || (l.key.includes(':') ? '-' : t('wallet.noChain')),
                },
                {
                  title: t('wallet.ratio'),
                  dataIndex: 'ratio',
                  align: 'right',
                  render: (v: string) => (v ? <Tag color={(decimalUnits(v) ?? 0n) >= ONE ? 'green' : 'red'}>{formatRatio(v)}</Tag> : '-'),
                },
              ]}
            />
          </Card>
        </>
      )}
    </Space>
  );
}
