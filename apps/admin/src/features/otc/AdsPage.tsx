/**
 * OTC advertisements: ads by status (online by default) and merchant; an operator who may moderate (OTC_MODERATE: compliance, admin) closes an
 * open ad with a reason (its escrowed remainder returns to the merchant; the server audits it).
 */
import { useState } from 'react';
import { Alert, App, Button, Card, Space, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatAmount } from '../../shared/format';
import { useCan } from '../../shared/permissions';
import { OTC_MODERATE } from './otc-permissions';
import { useAds, useCloseAd, type AdsFilter } from './api/ads';
import type { OtcAd, OtcAdStatus } from './api/types';
import { OtcFilter } from './OtcFilter';
import { AD_COLOR, partyName } from './otc-format';
import { ReasonModal } from './ReasonModal';

const STATUSES: OtcAdStatus[] = ['ONLINE', 'PAUSED', 'CLOSED'];
/** Cells kept on one line (figures and times). */
const nowrap = { onCell: () => ({ style: { whiteSpace: 'nowrap' as const } }) };

export default function AdsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const canDecide = useCan(OTC_MODERATE);
  const [filter, setFilter] = useState<AdsFilter>({ status: 'ONLINE', userId: '', page: 1 });
  const [closing, setClosing] = useState<OtcAd | null>(null);
  const q = useAds(filter);
  const close = useCloseAd();
  const send = (reason: string) =>
    closing &&
    close.mutate(
      { adId: closing.adId, reason },
      {
        onSuccess: () => {
          void message.success(t('otc.done.close'));
          setClosing(null);
        },
      },
    );
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <OtcFilter
        label={t('otc.status')}
        states={STATUSES}
        stateLabel={(s) => t(`otc.adStatus.${s}`)}
        value={filter.status}
        onChange={(v) => setFilter({ ...filter, status: v, page: 1 })}
        userId={filter.userId}
        onUserId={(v) => setFilter({ ...filter, userId: v, page: 1 })}
        onRefresh={() => void q.refetch()}
      />
      {q.error && <Alert type="warning" showIcon message={q.error.message} />}
      <Card size="small">
        <Table<OtcAd>
          rowKey="adId"
          size="middle"
          loading={q.isFetching}
          dataSource={q.data?.records ?? []}
          pagination={{
            current: filter.page,
            total: q.data?.total ?? 0,
            showTotal: (n) => t('common.total', { count: n }),
            showSizeChanger: false,
            onChange: (page) => setFilter({ ...filter, page }),
          }}
          columns={[
            { title: t('otc.adId'), dataIndex: 'adId', width: 80 },
            { title: t('otc.merchant'), key: 'merchant', render: (_: unknown, r) => partyName(r.merchant.nickName, r.merchant.userId) },
            {
              title: t('otc.adSide'),
              dataIndex: 'side',
              ...nowrap,
              render: (v: OtcAd['side']) => <Tag color={v === 'SELL' ? 'red' : 'green'}>{t(`otc.adSides.${v}`)}</Tag>,
            },
            {
              title: `${t('otc.price')} (CNY)`,
              key: 'price',
              align: 'right',
              ...nowrap,
              render: (_: unknown, r) => (r.priceType === 'FLOAT' ? `${r.price} (${r.floatPercent}%)` : r.price),
            },
            {
              title: `${t('otc.remainingTotal')} (USDT)`,
              key: 'qty',
              align: 'right',
              ...nowrap,
              render: (_: unknown, r) => `${formatAmount(r.remaining)} / ${formatAmount(r.total)}`,
            },
            {
              title: `${t('otc.limits')} (CNY)`,
              key: 'limits',
              align: 'right',
              ...nowrap,
              render: (_: unknown, r) => `${formatAmount(r.minFiat)} - ${formatAmount(r.maxFiat)}`,
            },
            { title: t('otc.payTypes'), dataIndex: 'payTypes', render: (v: OtcAd['payTypes']) => v.map((p) => <Tag key={p}>{t(`otc.payType.${p}`)}</Tag>) },
            { title: t('otc.status'), dataIndex: 'status', render: (v: OtcAdStatus) => <Tag color={AD_COLOR[v]}>{t(`otc.adStatus.${v}`)}</Tag> },
            ...(canDecide
              ? [
                  {
                    title: '',
                    key: 'actions',
                    render: (_: unknown, r: OtcAd) =>
                      r.status !== 'CLOSED' && (
                        <Button size="small" danger onClick={() => setClosing(r)}>
                          {t('otc.action.close')}
                        </Button>
                      ),
                  },
                ]
              : []),
          ]}
        />
      </Card>
      <ReasonModal
        open={closing !== null}
        title={
          closing
            ? t('otc.confirm.close', {
                id: closing.adId,
                remaining: closing.remaining,
                coin: closing.coin,
                name: partyName(closing.merchant.nickName, closing.merchant.userId),
              })
            : ''
        }
        okText={t('otc.action.close')}
        danger
        loading={close.isPending}
        error={close.error?.message}
        onOk={send}
        onCancel={() => {
          close.reset();
          setClosing(null);
        }}
      />
    </Space>
  );
}
