/** The audit log as an antd Table with server-side paging, for a filter given by the caller. */
import { useState } from 'react';
import { Descriptions, Table, Typography } from 'antd';
import type { AdminAuditRow } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { formatJson, formatTime } from '../format';
import { useAuditList, type AuditFilter } from './audit-list';

/** The table; `filter` without paging (the table pages). */
export function AuditTable({ filter }: { filter: Omit<AuditFilter, 'page' | 'pageSize'> }) {
  const { t } = useTranslation();
  const [page, setPage] = useState({ page: 1, pageSize: 20 });
  const q = useAuditList({ ...filter, ...page });
  return (
    <Table<AdminAuditRow>
      rowKey="id"
      size="small"
      loading={q.isFetching}
      dataSource={q.data?.rows ?? []}
      expandable={{
        // The whole before and after of a row, formatted (the columns show them cut to one line).
        rowExpandable: (r) => r.before !== null || r.after !== null || r.userAgent !== '',
        expandedRowRender: (r) => (
          <Descriptions size="small" column={1} bordered>
            <Descriptions.Item label={t('audit.before')}>
              <pre className="audit-json">{JSON.stringify(r.before, null, 2)}</pre>
            </Descriptions.Item>
            <Descriptions.Item label={t('audit.after')}>
              <pre className="audit-json">{JSON.stringify(r.after, null, 2)}</pre>
            </Descriptions.Item>
            <Descriptions.Item label={t('audit.userAgent')}>{r.userAgent}</Descriptions.Item>
          </Descriptions>
        ),
      }}
      pagination={{
        current: page.page,
        pageSize: page.pageSize,
        total: q.data?.total ?? 0,
        showTotal: (n) => t('common.total', { count: n }),
        onChange: (p, s) => setPage({ page: p, pageSize: s }),
      }}
      columns={[
        { title: t('audit.time'), dataIndex: 'at', width: 170, render: (v: number) => formatTime(v) },
        { title: t('audit.operator'), dataIndex: 'operatorEmail', width: 200 },
        { title: t('audit.action'), dataIndex: 'action', width: 150, render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
        { title: t('audit.user'), dataIndex: 'targetUserId', width: 90 },
        {
          title: t('audit.before'),
          dataIndex: 'before',
          ellipsis: true,
          render: (v: unknown) => <Typography.Text type="secondary">{formatJson(v)}</Typography.Text>,
        },
        { title: t('audit.after'), dataIndex: 'after', ellipsis: true, render: (v: unknown) => formatJson(v) },
        { title: t('audit.ip'), dataIndex: 'ip', width: 120 },
      ]}
    />
  );
}
