/**
 * The editor of one content item in a drawer: the form of its kind (titles and texts in zh and en, banner
 * images uploaded here, link, category, order; the download page's version and links) beside the live preview
 * (ContentPreview, either language). Save draft writes the draft only (the app keeps the published copy); Publish
 * saves unsaved changes first, then publishes; Unpublish and Delete ask to confirm. Buttons follow the operator's
 * permissions (content_edit, content_publish); the server checks them again and audits every change.
 */
import { useState } from 'react';
import { Alert, App, Button, Col, Drawer, Form, Input, InputNumber, Popconfirm, Row, Segmented, Select, Space, Tag, Typography, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { AdminContentItem, ContentFields, ContentKind } from '@exchange/api';
import { formatTime } from '../../shared/format';
import { useCan } from '../../shared/permissions';
import { uploadContentImage, useContentAction, useSaveContent } from './api/content';
import { ContentPreview } from './ContentPreview';
import { StatusTag } from './StatusTag';

/** The empty form of a new item. */
export const EMPTY: ContentFields = {
  titleZh: '',
  titleEn: '',
  bodyZh: '',
  bodyEn: '',
  imageZh: '',
  imageEn: '',
  link: '',
  androidUrl: '',
  iosUrl: '',
  version: '',
  sort: 0,
  parentId: '',
};

/** An image field: the URL, an upload button and the upload's error. */
function ImageField({ value, onChange, disabled, label }: { value?: string; onChange?: (v: string) => void; disabled: boolean; label: string }) {
  const { t } = useTranslation();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space.Compact style={{ width: '100%' }}>
        <Input value={value} onChange={(e) => onChange?.(e.target.value)} disabled={disabled} aria-label={label} />
        <Upload
          accept="image/png,image/jpeg,image/webp"
          showUploadList={false}
          disabled={disabled}
          customRequest={({ file }) => {
            setBusy(true);
            setError('');
            uploadContentImage(file as Blob, (file as File).name ?? 'image')
              .then(
                (r) => onChange?.(r.url),
                (e: Error) => setError(e.message),
              )
              .finally(() => setBusy(false));
          }}
        >
          <Button icon={<UploadOutlined />} loading={busy} disabled={disabled}>
            {t('content.upload')}
          </Button>
        </Upload>
      </Space.Compact>
      {error && <Typography.Text type="danger">{error}</Typography.Text>}
    </Space>
  );
}

/** The editor of `item` (null = a new item of `kind`); `categories` for the article's category select. */
export function ContentEditor({
  kind,
  item,
  categories,
  onClose,
  onSaved,
}: {
  kind: ContentKind;
  item: AdminContentItem | null;
  categories: AdminContentItem[];
  onClose: () => void;
  onSaved: (item: AdminContentItem) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const canEdit = useCan('content_edit');
  const canPublish = useCan('content_publish');
  const [form] = Form.useForm<ContentFields>();
  const values = Form.useWatch([], form) as ContentFields | undefined;
  const [lang, setLang] = useState<'zh' | 'en'>('zh');
  const save = useSaveContent();
  const action = useContentAction();
  const slug = item?.slug ?? '';
  const fields = { ...EMPTY, ...(item?.draft ?? {}), ...(values ?? {}) };
  const categoryTitle = categories.find((c) => c.id === fields.parentId)?.draft[lang === 'zh' ? 'titleZh' : 'titleEn'] ?? '';
  const hasBody = kind !== 'banner';
  const error = save.error ?? action.error;

  /** Saves the form (create or update); the saved item. */
  async function saveDraft(): Promise<AdminContentItem> {
    const v = { ...EMPTY, ...form.getFieldsValue(true) } as ContentFields;
    const body = { ...v, sort: Number(v.sort ?? 0) };
    const saved = await save.mutateAsync(item === null ? { id: null, body: { ...body, kind: kind as Exclude<ContentKind, 'page'> } } : { id: item.id, body });
    form.resetFields();
    form.setFieldsValue(saved.draft);
    onSaved(saved);
    return saved;
  }
  const onSave = async () => {
    await form.validateFields();
    await saveDraft();
    void message.success(t('content.saved'));
  };
  const onPublish = async () => {
    await form.validateFields();
    const current = item === null || form.isFieldsTouched() ? await saveDraft() : item;
    const published = (await action.mutateAsync({ action: 'publish', id: current.id })) as AdminContentItem;
    onSaved(published);
    void message.success(t('content.publishedDone'));
  };
  const onUnpublish = async () => {
    const r = (await action.mutateAsync({ action: 'unpublish', id: item!.id })) as AdminContentItem;
    onSaved(r);
    void message.success(t('content.unpublishedDone'));
  };
  const onDelete = async () => {
    await action.mutateAsync({ action: 'remove', id: item!.id });
    void message.success(t('content.deletedDone'));
    onClose();
  };
  const busy = save.isPending || action.isPending;
  const req = [{ required: true, whitespace: true, message: t('errors.required') }];

  return (
    <Drawer
      open
      width={1140}
      onClose={onClose}
      destroyOnClose
      title={
        <Space>
          {item ? t('content.editTitle', { kind: t(`content.kinds.${kind}`) }) : t('content.newTitle', { kind: t(`content.kinds.${kind}`) })}
          {item && <StatusTag status={item.status} />}
          {slug && <Tag>{slug}</Tag>}
        </Space>
      }
      footer={
        <Space wrap>
          {canEdit && (
            <Button onClick={() => void onSave().catch(() => undefined)} loading={save.isPending} disabled={busy}>
              {t('content.saveDraft')}
            </Button>
          )}
          {canPublish && (
            <Button type="primary" onClick={() => void onPublish().catch(() => undefined)} loading={action.isPending} disabled={busy}>
              {t('content.publish')}
            </Button>
          )}
          {canPublish && item && item.published && kind !== 'page' && (
            <Popconfirm title={t('content.confirmUnpublish')} onConfirm={() => void onUnpublish().catch(() => undefined)}>
              <Button disabled={busy}>{t('content.unpublish')}</Button>
            </Popconfirm>
          )}
          {canPublish && item && kind !== 'page' && (
            <Popconfirm title={t('content.confirmDelete')} onConfirm={() => void onDelete().catch(() => undefined)}>
              <Button danger disabled={busy}>
                {t('content.delete')}
              </Button>
            </Popconfirm>
          )}
          {item && (
            <Typography.Text type="secondary">
              {t('content.lastChange', { time: formatTime(item.updatedAt), by: item.updatedBy })}
              {item.publishedAt > 0 && ` · ${t('content.lastPublish', { time: formatTime(item.publishedAt) })}`}
            </Typography.Text>
          )}
        </Space>
      }
    >
      <Row gutter={24}>
        <Col span={14}>
          {error && <Alert type="error" showIcon message={error.message} style={{ marginBottom: 12 }} />}
          {item?.status === 'CHANGED' && <Alert type="info" showIcon message={t('content.changedHint')} style={{ marginBottom: 12 }} />}
          <Form<ContentFields> form={form} layout="vertical" initialValues={item?.draft ?? EMPTY} disabled={!canEdit}>
            <Row gutter={12}>
              <Col span={12}>
                <Form.Item name="titleZh" label={t(kind === 'help_category' ? 'content.fields.nameZh' : 'content.fields.titleZh')} rules={req}>
                  <Input maxLength={200} />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item name="titleEn" label={t(kind === 'help_category' ? 'content.fields.nameEn' : 'content.fields.titleEn')} rules={req}>
                  <Input maxLength={200} />
                </Form.Item>
              </Col>
            </Row>
            {kind === 'help_article' && (
              <Form.Item name="parentId" label={t('content.fields.category')} rules={[{ required: true, message: t('errors.required') }]}>
                <Select options={categories.map((c) => ({ value: c.id, label: `${c.draft.titleZh} / ${c.draft.titleEn}` }))} />
              </Form.Item>
            )}
            {kind === 'banner' && (
              <>
                <Form.Item name="imageZh" label={t('content.fields.imageZh')} rules={req} extra={t('content.imageHelp')}>
                  <ImageField disabled={!canEdit} label={t('content.fields.imageZh')} />
                </Form.Item>
                <Form.Item name="imageEn" label={t('content.fields.imageEn')} rules={req}>
                  <ImageField disabled={!canEdit} label={t('content.fields.imageEn')} />
                </Form.Item>
                <Form.Item name="link" label={t('content.fields.link')} extra={t('content.linkHelp')}>
                  <Input maxLength={500} placeholder="/quotes" />
                </Form.Item>
              </>
            )}
            {hasBody && (
              <Row gutter={12}>
                <Col span={12}>
                  <Form.Item
                    name="bodyZh"
                    label={t(kind === 'help_category' ? 'content.fields.descriptionZh' : 'content.fields.bodyZh')}
                    rules={kind === 'help_category' ? [] : req}
                    extra={kind === 'help_category' ? undefined : t('content.bodyHelp')}
                  >
                    <Input.TextArea rows={kind === 'help_category' ? 2 : 16} maxLength={30000} />
                  </Form.Item>
                </Col>
                <Col span={12}>
                  <Form.Item
                    name="bodyEn"
                    label={t(kind === 'help_category' ? 'content.fields.descriptionEn' : 'content.fields.bodyEn')}
                    rules={kind === 'help_category' ? [] : req}
                  >
                    <Input.TextArea rows={kind === 'help_category' ? 2 : 16} maxLength={30000} />
                  </Form.Item>
                </Col>
              </Row>
            )}
            {slug === 'download' && (
              <Row gutter={12}>
                <Col span={6}>
                  <Form.Item name="version" label={t('content.fields.version')}>
                    <Input maxLength={40} />
                  </Form.Item>
                </Col>
                <Col span={9}>
                  <Form.Item name="androidUrl" label={t('content.fields.androidUrl')} extra={t('content.linkHelp')}>
                    <Input maxLength={500} />
                  </Form.Item>
                </Col>
                <Col span={9}>
                  <Form.Item name="iosUrl" label={t('content.fields.iosUrl')}>
                    <Input maxLength={500} />
                  </Form.Item>
                </Col>
              </Row>
            )}
            {(kind === 'banner' || kind === 'help_category' || kind === 'help_article') && (
              <Form.Item name="sort" label={t('content.fields.sort')} extra={t('content.sortHelp')}>
                <InputNumber min={-1_000_000} max={1_000_000} precision={0} />
              </Form.Item>
            )}
          </Form>
        </Col>
        <Col span={10}>
          <Space direction="vertical" style={{ width: '100%' }} align="center">
            <Space>
              <Typography.Text strong>{t('content.preview')}</Typography.Text>
              <Segmented<'zh' | 'en'>
                value={lang}
                onChange={setLang}
                options={[
                  { value: 'zh', label: '中文' },
                  { value: 'en', label: 'English' },
                ]}
              />
            </Space>
            <Typography.Text type="secondary">{t('content.previewHint')}</Typography.Text>
            <ContentPreview kind={kind} slug={slug} fields={fields} lang={lang} categoryTitle={categoryTitle} />
          </Space>
        </Col>
      </Row>
    </Drawer>
  );
}
