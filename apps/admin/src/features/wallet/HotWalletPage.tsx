/**
 * The hot wallet per network and coin: the network (name and code), the hot wallet's address and balance on chain,
 * what sits on users' deposit addresses (not swept) and the two together. A coin on one network is one line with the
 * users' liabilities and the coverage (on chain / liabilities), red below 100%. A coin on several networks (USDT on
 * Ethereum, BNB Smart Chain, Arbitrum One, Polygon) has a line per network, then its total over the networks against
 * its liabilities, taken once (hot-wallet-lines.ts: exact decimal sums); a network whose balance is unknown is named
 * on the total, which then counts without it.
 */
import { formatAmount } from '../../shared/format';
import { Alert, Button, Card, Space, Table, Tag, Tooltip, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useHotWallet } from './api/hot-wallet';
import { useNetworkNames } from './api/coins';
import { isShort } from './coverage';
import { hotWalletLines, type HotWalletLine } from './hot-wallet-lines';

export default function HotWalletPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const q = useHotWallet();
  const names = useNetworkNames();
  const lines = hotWalletLines(q.data ?? []);
  const amount = (v: string) => formatAmount(v) || '-';
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      {q.error && <Alert type="warning" showIcon message={q.error.message} />}
      <Card size="small" extra={<Button onClick={() => void q.refetch()}>{t('common.refresh')}</Button>}>
        <Table<HotWalletLine>
          rowKey="key"
          loading={q.isFetching}
          dataSource={lines}
          pagination={false}
          scroll={{ x: 'max-content' }}
          onRow={(r) => ({ style: r.kind === 'total' ? { fontWeight: 600, background: token.colorFillAlter } : undefined })}
          columns={[
            { title: t('wallet.coin'), dataIndex: 'coin', width: 80 },
            {
              title: t('wallet.networkAndAddress'),
              key: 'network',
              // the network and, under it, the hot wallet's address (the same on every network: shortened, the whole
              // address in the tooltip and the copy), so the balances, liabilities and coverage fit a 1280 px screen
              render: (_: unknown, r) =>
                r.kind === 'total' ? (
                  <Space size={4} wrap>
                    <span>{t('wallet.totalOver', { count: r.networks })}</span>
                    {r.unknown.length > 0 && (
                      <Tooltip title={t('wallet.unknownHelp')}>
                        <Tag color="orange">{t('wallet.unknownNetworks', { networks: r.unknown.join(', ') })}</Tag>
                      </Tooltip>
                    )}
                  </Space>
                ) : (
                  <Space direction="vertical" size={0}>
                    <Space size={4}>
                      <span>{names.get(r.chain) ?? r.chain}</span>
                      <Tag>{r.chain}</Tag>
                    </Space>
                    {r.hotWalletAddress && (
                      <Tooltip title={r.hotWalletAddress}>
                        <Typography.Text type="secondary" copyable={{ text: r.hotWalletAddress }} aria-label={t('wallet.hotWalletAddress')}>
                          {`${r.hotWalletAddress.slice(0, 8)}…${r.hotWalletAddress.slice(-6)}`}
                        </Typography.Text>
                      </Tooltip>
                    )}
                  </Space>
                ),
            },
            { title: t('wallet.hotWallet'), dataIndex: 'hotWallet', align: 'right', render: amount },
            { title: t('wallet.depositAddresses'), dataIndex: 'depositAddresses', align: 'right', render: amount },
            { title: t('wallet.onChain'), dataIndex: 'onChain', align: 'right', render: amount },
            {
              title: t('wallet.liabilities'),
              dataIndex: 'liabilities',
              align: 'right',
              render: (v: string, r) => (r.kind === 'network' ? <Typography.Text type="secondary">{t('wallet.inTotal')}</Typography.Text> : formatAmount(v)),
            },
            {
              title: t('wallet.coverage'),
              dataIndex: 'coverage',
              align: 'right',
              render: (c: string, r) =>
                r.kind === 'network' ? (
                  <Typography.Text type="secondary">{t('wallet.inTotal')}</Typography.Text>
                ) : c ? (
                  <Tag color={isShort(c) ? 'red' : 'green'}>{c}</Tag>
                ) : (
                  '-'
                ),
            },
          ]}
        />
      </Card>
    </Space>
  );
}
