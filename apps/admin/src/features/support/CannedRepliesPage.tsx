/**
 * Canned replies of customer service: a title and the text in Chinese and English (the reply box offers the
 * text in the user's language). Create, edit and delete; each change is in the audit log (server side).
 */
import { useState } from 'react';
import { Alert, App, Button, Card, Form, Input, Modal, Popconfirm, Space, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CannedReply } from '@exchange/api';
import { formatTime } from '../../shared/format';
import { useCannedReplies, useDeleteCanned, useSaveCanned, type CannedDraft } from './api/canned';

export default function CannedRepliesPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const q = useCannedReplies();
  const save = useSaveCanned();
  const del = useDeleteCanned();
  const [editing, setEditing] = useState<CannedDraft | null>(null);
  const [form] = Form.useForm<CannedDraft>();
  const open = (d: CannedDraft) => {
    setEditing(d);
    form.setFieldsValue(d);
  };
  const submit = async () => {
    const v = await form.validateFields();
    save.mutate(
      { ...(editing?.id ? { id: editing.id } : {}), title: v.title, textZh: v.textZh, textEn: v.textEn },
      { onSuccess: () => (void message.success(t('support.cannedSaved')), setEditing(null)), onError: (e) => void message.error(e.message) },
    );
  };
  const required = [{ required: true, whitespace: true, message: t('errors.required') }];
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Button type="primary" onClick={() => open({ title: '', textZh: '', textEn: '' })}>
        {t('support.cannedNew')}
      </Button>
      {q.error && <Alert type="warning" showIcon message={q.error.message} />}
      <Card size="small">
        <Table<CannedReply>
          rowKey="id"
          loading={q.isFetching}
          dataSource={q.data ?? []}
          pagination={false}
          columns={[
            { title: t('support.cannedTitle'), dataIndex: 'title', width: 180 },
            { title: t('support.textZh'), dataIndex: 'textZh' },
            { title: t('support.textEn'), dataIndex: 'textEn' },
            { title: t('support.updatedAt'), dataIndex: 'updatedAt', width: 170, render: (v: number) => formatTime(v) },
            {
              title: '',
              key: 'actions',
              width: 150,
              render: (_: unknown, r) => (
                <Space>
                  <Button size="small" onClick={() => open(r)}>
                    {t('support.edit')}
                  </Button>
                  <Popconfirm
                    title={t('support.deleteConfirm', { title: r.title })}
                    onConfirm={() => del.mutate(r.id, { onError: (e) => void message.error(e.message) })}
                    okText={t('common.yes')}
                    cancelText={t('common.no')}
                  >
                    <Button size="small" danger>
                      {t('support.delete')}
                    </Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <Modal
        open={editing !== null}
        title={editing?.id ? t('support.cannedEdit') : t('support.cannedNew')}
        onCancel={() => setEditing(null)}
        onOk={() => void submit()}
        confirmLoading={save.isPending}
        okText={t('common.ok')}
        cancelText={t('common.cancel')}
        destroyOnClose
      >
        <Form form={form} layout="vertical" preserve={false}>
          <Form.Item name="title" label={t('support.cannedTitle')} rules={required}>
            <Input maxLength={60} />
          </Form.Item>
          <Form.Item name="textZh" label={t('support.textZh')} rules={required}>
            <Input.TextArea rows={3} maxLength={1000} />
          </Form.Item>
          <Form.Item name="textEn" label={t('support.textEn')} rules={required}>
            <Input.TextArea rows={3} maxLength={1000} />
          </Form.Item>
        </Form>
      </Modal>
    </Space>
  );
}
