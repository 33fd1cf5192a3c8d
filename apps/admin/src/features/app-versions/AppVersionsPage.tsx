/**
 * App versions (spec section 4 "Native update flow"): every version published per platform with its
 * reasons in zh and en; an admin (permission `operators`) publishes a version (a shell version may carry the web
 * bundle the server serves, for the live update) and withdraws one. Every role views; the server audits each
 * action (app_version_publish, app_version_withdraw).
 */
import { useState } from 'react';
import { Alert, App, Button, Card, Form, Input, Popconfirm, Select, Space, Switch, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AppPlatform, AppRelease, PublishVersionBody } from '@exchange/api';
import { formatTime } from '../../shared/format';
import { useCan } from '../../shared/permissions';
import { usePublishVersion, useVersions, useWithdrawVersion } from './api/versions';

const PLATFORMS: AppPlatform[] = ['android', 'ios', 'web'];

/** The publish form's values. */
interface FormValues {
  platform: AppPlatform;
  version: string;
  reasonsZh: string;
  reasonsEn: string;
  force: boolean;
  bundle: boolean;
  downloadUrl: string;
}

export default function AppVersionsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const canManage = useCan('operators');
  const q = useVersions();
  const publish = usePublishVersion();
  const withdraw = useWithdrawVersion();
  const [form] = Form.useForm<FormValues>();
  const [platform, setPlatform] = useState<AppPlatform>('android');
  const submit = (v: FormValues) => {
    const body: PublishVersionBody = { platform: v.platform, version: v.version.trim(), reasonsZh: v.reasonsZh, reasonsEn: v.reasonsEn, force: v.force };
    if (v.platform !== 'web') body.bundle = v.bundle;
    if (v.downloadUrl?.trim()) body.downloadUrl = v.downloadUrl.trim();
    publish.mutate(body, {
      onSuccess: (r) => {
        void message.success(t('versions.published', { platform: t(`versions.platforms.${r.platform}`), version: r.version }));
        form.resetFields(['version', 'reasonsZh', 'reasonsEn', 'downloadUrl']);
      },
    });
  };
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      {canManage && (
        <Card size="small" title={t('versions.publish')}>
          <Form<FormValues>
            form={form}
            layout="vertical"
            initialValues={{ platform: 'android', force: false, bundle: false, downloadUrl: '' }}
            onFinish={submit}
            onValuesChange={(c: Partial<FormValues>) => c.platform && setPlatform(c.platform)}
            style={{ maxWidth: 720 }}
          >
            <Space align="start" size="large" wrap>
              <Form.Item name="platform" label={t('versions.platform')}>
                <Select style={{ width: 140 }} options={PLATFORMS.map((p) => ({ value: p, label: t(`versions.platforms.${p}`) }))} />
              </Form.Item>
              <Form.Item
                name="version"
                label={t('versions.version')}
                rules={[{ required: true, pattern: /^(0|[1-9]\d{0,3})\.(0|[1-9]\d{0,3})\.(0|[1-9]\d{0,3})$/, message: t('versions.versionHelp') }]}
              >
                <Input placeholder="1.2.0" style={{ width: 140 }} />
              </Form.Item>
              <Form.Item name="force" label={t('versions.force')} valuePropName="checked">
                <Switch />
              </Form.Item>
              {platform !== 'web' && (
                <Form.Item name="bundle" label={t('versions.bundle')} valuePropName="checked" tooltip={t('versions.bundleHelp')}>
                  <Switch />
                </Form.Item>
              )}
            </Space>
            <Form.Item
              name="reasonsZh"
              label={t('versions.reasonsZh')}
              extra={t('versions.reasonsHelp')}
              rules={[{ required: true, whitespace: true, message: t('errors.required') }]}
            >
              <Input.TextArea rows={3} maxLength={2000} />
            </Form.Item>
            <Form.Item name="reasonsEn" label={t('versions.reasonsEn')} rules={[{ required: true, whitespace: true, message: t('errors.required') }]}>
              <Input.TextArea rows={3} maxLength={2000} />
            </Form.Item>
            {platform !== 'web' && (
              <Form.Item name="downloadUrl" label={t('versions.downloadUrl')} rules={[{ pattern: /^(https?:\/\/\S+)?$/, message: t('versions.urlHelp') }]}>
                <Input placeholder="https://" />
              </Form.Item>
            )}
            {publish.error && <Alert type="error" showIcon message={publish.error.message} style={{ marginBottom: 12 }} />}
            <Button type="primary" htmlType="submit" loading={publish.isPending}>
              {t('versions.publishAction')}
            </Button>
          </Form>
        </Card>
      )}
      {q.error && <Alert type="warning" showIcon message={q.error.message} />}
      {withdraw.error && <Alert type="error" showIcon message={withdraw.error.message} />}
      <Card size="small">
        <Table<AppRelease>
          rowKey="id"
          size="middle"
          loading={q.isFetching}
          dataSource={q.data?.records ?? []}
          pagination={false}
          columns={[
            { title: t('versions.platform'), dataIndex: 'platform', render: (p: AppPlatform) => t(`versions.platforms.${p}`) },
            { title: t('versions.version'), dataIndex: 'version' },
            {
              title: t('versions.reasons'),
              key: 'reasons',
              render: (_: unknown, r) => (
                <div>
                  {r.reasonsZh.map((l, i) => (
                    <div key={`zh${i}`}>{l}</div>
                  ))}
                  {r.reasonsEn.map((l, i) => (
                    <Typography.Text key={`en${i}`} type="secondary" style={{ display: 'block' }}>
                      {l}
                    </Typography.Text>
                  ))}
                </div>
              ),
            },
            {
              title: t('versions.kind'),
              key: 'kind',
              render: (_: unknown, r) => (
                <Space size={4} wrap>
                  {r.force && <Tag color="red">{t('versions.force')}</Tag>}
                  {r.bundle && <Tag color="blue">{t('versions.bundleSize', { kb: Math.ceil(r.bundle.sizeBytes / 1024) })}</Tag>}
                  {r.downloadUrl && <Tag>{t('versions.binary')}</Tag>}
                </Space>
              ),
            },
            { title: t('versions.publishedAt'), dataIndex: 'publishedAt', render: (v: number) => formatTime(v) },
            {
              title: t('versions.status'),
              dataIndex: 'withdrawnAt',
              render: (v: number) => (v ? <Tag>{t('versions.withdrawn')}</Tag> : <Tag color="green">{t('versions.live')}</Tag>),
            },
            ...(canManage
              ? [
                  {
                    title: '',
                    key: 'actions',
                    render: (_: unknown, r: AppRelease) =>
                      !r.withdrawnAt && (
                        <Popconfirm
                          title={t('versions.confirmWithdraw', { version: r.version })}
                          onConfirm={() => withdraw.mutate(r.id, { onSuccess: () => void message.success(t('versions.withdrawnDone')) })}
                        >
                          <Button size="small" danger>
                            {t('versions.withdraw')}
                          </Button>
                        </Popconfirm>
                      ),
                  },
                ]
              : []),
          ]}
        />
      </Card>
    </Space>
  );
}
