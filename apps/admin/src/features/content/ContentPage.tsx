/**
 * Content: banners, notices, help centre categories and articles, and the fixed pages (agreements,
 * privacy policy, download page), one tab each: every item with its title in both languages, its status (draft,
 * published, changed since published, unpublished), the last change and publication. New (content_edit) and a row's
 * Edit open the editor with its preview (ContentEditor). The app shows published copies only.
 */
import { useState } from 'react';
import { Alert, Button, Card, Space, Table, Tabs, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { AdminContentItem, ContentKind } from '@exchange/api';
import { formatTime } from '../../shared/format';
import { useCan } from '../../shared/permissions';
import { useContentList } from './api/content';
import { ContentEditor } from './ContentEditor';
import { StatusTag } from './StatusTag';

const KINDS: ContentKind[] = ['banner', 'notice', 'help_category', 'help_article', 'page'];

/** The list of one kind and its editor. */
function KindPanel({ kind }: { kind: ContentKind }) {
  const { t } = useTranslation();
  const canEdit = useCan('content_edit');
  const q = useContentList(kind);
  const cats = useContentList('help_category');
  const [editing, setEditing] = useState<AdminContentItem | null | undefined>(undefined);
  const categories = cats.data?.records ?? [];
  const catTitle = (id: string) => categories.find((c) => c.id === id)?.draft.titleZh ?? '';
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      {q.error && <Alert type="warning" showIcon message={q.error.message} />}
      <Space>
        {canEdit && kind !== 'page' && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)}>
            {t('content.new', { kind: t(`content.kinds.${kind}`) })}
          </Button>
        )}
        <Typography.Text type="secondary">{t(`content.hints.${kind}`)}</Typography.Text>
      </Space>
      <Table<AdminContentItem>
        rowKey="id"
        size="middle"
        loading={q.isFetching}
        dataSource={q.data?.records ?? []}
        pagination={false}
        onRow={(r) => ({ onDoubleClick: () => setEditing(r) })}
        columns={[
          {
            title: t('content.columns.title'),
            key: 'title',
            render: (_: unknown, r) => (
              <div>
                <div>{r.draft.titleZh}</div>
                <Typography.Text type="secondary">{r.draft.titleEn}</Typography.Text>
              </div>
            ),
          },
          ...(kind === 'help_article'
            ? [{ title: t('content.fields.category'), key: 'cat', render: (_: unknown, r: AdminContentItem) => catTitle(r.draft.parentId) }]
            : []),
          { title: t('content.columns.status'), dataIndex: 'status', render: (_: unknown, r) => <StatusTag status={r.status} /> },
          { title: t('content.columns.updated'), key: 'updated', render: (_: unknown, r) => `${formatTime(r.updatedAt)} · ${r.updatedBy}` },
          { title: t('content.columns.published'), dataIndex: 'publishedAt', render: (v: number) => (v ? formatTime(v) : '—') },
          {
            title: '',
            key: 'edit',
            render: (_: unknown, r) => (
              <Button size="small" onClick={() => setEditing(r)} aria-label={t('content.editRow', { title: r.draft.titleEn })}>
                {canEdit ? t('content.edit') : t('content.view')}
              </Button>
            ),
          },
        ]}
      />
      {editing !== undefined && (
        <ContentEditor kind={kind} item={editing} categories={categories} onClose={() => setEditing(undefined)} onSaved={(saved) => setEditing(saved)} />
      )}
    </Space>
  );
}

export default function ContentPage() {
  const { t } = useTranslation();
  const [kind, setKind] = useState<ContentKind>('banner');
  return (
    <Card size="small">
      <Tabs
        activeKey={kind}
        onChange={(k) => setKind(k as ContentKind)}
        destroyInactiveTabPane
        items={KINDS.map((k) => ({ key: k, label: t(`content.tabs.${k}`), children: <KindPanel kind={k} /> }))}
      />
    </Card>
  );
}
