/** The KYC review queue: applications (pending first) with state and level filters; a row opens the review drawer. */
import { useState } from 'react';
import { Alert, Button, Card, Select, Space, Table, Tag } from 'antd';
import type { AdminKycRow } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../shared/format';
import { useKycList, type KycFilter } from './api/list';
import { ReviewDrawer } from './ReviewDrawer';

export default function KycQueuePage() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<KycFilter>({ state: 'PENDING', page: 1, pageSize: 20 });
  const [open, setOpen] = useState<string | null>(null);
  const q = useKycList(filter);
  const states = ['PENDING', 'PASS', 'REJECTED'] as const;
  const levels = ['BASIC', 'ADVANCED'] as const;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Card size="small">
        <Space wrap>
          <span>{t('kyc.state')}</span>
          <Select
            aria-label={t('kyc.state')}
            style={{ width: 140 }}
            value={filter.state ?? ''}
            onChange={(v) => setFilter({ ...filter, state: (v || undefined) as KycFilter['state'], page: 1 })}
            options={[{ value: '', label: t('kyc.all') }, ...states.map((s) => ({ value: s, label: t(`kyc.${s}`) }))]}
          />
          <span>{t('kyc.level')}</span>
          <Select
            aria-label={t('kyc.level')}
            style={{ width: 140 }}
            value={filter.level ?? ''}
            onChange={(v) => setFilter({ ...filter, level: (v || undefined) as KycFilter['level'], page: 1 })}
            options={[{ value: '', label: t('kyc.all') }, ...levels.map((s) => ({ value: s, label: t(`kyc.${s}`) }))]}
          />
          <Button onClick={() => void q.refetch()}>{t('common.refresh')}</Button>
        </Space>
      </Card>
      {q.error && <Alert type="warning" showIcon message={q.error.message} />}
      <Card size="small">
        <Table<AdminKycRow>
          rowKey="id"
          loading={q.isFetching}
          dataSource={q.data?.rows ?? []}
          onRow={(r) => ({ onClick: () => setOpen(r.id), style: { cursor: 'pointer' } })}
          pagination={{
            current: filter.page,
            pageSize: filter.pageSize,
            total: q.data?.total ?? 0,
            showTotal: (n) => t('common.total', { count: n }),
            onChange: (page, pageSize) => setFilter({ ...filter, page, pageSize }),
          }}
          columns={[
            { title: t('kyc.id'), dataIndex: 'id', width: 110 },
            { title: t('kyc.user'), dataIndex: 'userId', width: 110 },
            { title: t('kyc.realName'), dataIndex: 'realName' },
            { title: t('kyc.level'), dataIndex: 'level', render: (v: string) => t(`kyc.${v}`, { defaultValue: v }) },
            {
              title: t('kyc.state'),
              dataIndex: 'state',
              render: (v: string) => <Tag color={v === 'PENDING' ? 'gold' : v === 'PASS' ? 'green' : 'red'}>{t(`kyc.${v}`, { defaultValue: v })}</Tag>,
            },
            { title: t('kyc.submitted'), dataIndex: 'createdAt', render: (v: number) => formatTime(v) },
            {
              title: '',
              key: 'review',
              render: (_: unknown, r) => (
                <Button size="small" type={r.state === 'PENDING' ? 'primary' : 'default'} onClick={() => setOpen(r.id)}>
                  {r.state === 'PENDING' ? t('kyc.review') : t('kyc.view')}
                </Button>
              ),
            },
          ]}
        />
      </Card>
      <ReviewDrawer id={open} onClose={() => setOpen(null)} />
    </Space>
  );
}
