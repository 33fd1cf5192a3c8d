/**
 * The preview of a draft as the app shows it: a phone-width frame in the chosen language with the banner
 * image and title, or the notice, article or page with its title and text (headings and paragraphs as the app draws
 * them). It shows the form's current values, saved or not; nothing here is published.
 */
import { useEffect, useState } from 'react';
import { Empty, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ContentFields, ContentKind } from '@exchange/api';
import { apiBlobUrl } from '../../shared/api';
import { contentBlocks } from './content-text';

const UPLOADED = /^\/api\/static\/content\/([0-9a-f]{32}\.(png|jpg|webp))$/;

/** A URL the console can show for an image field: an uploaded image through the operator route (it may be unpublished). */
function useImageSrc(url: string): string {
  const [src, setSrc] = useState('');
  useEffect(() => {
    const m = UPLOADED.exec(url);
    if (!m) {
      setSrc(url.startsWith('/') ? url : '');
      return;
    }
    let live = true;
    let made = '';
    apiBlobUrl('admin/content/image', { file: m[1]! }).then(
      (u) => {
        made = u;
        if (live) setSrc(u);
        else URL.revokeObjectURL(u);
      },
      () => live && setSrc(''),
    );
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [url]);
  return src;
}

/** The text blocks. */
function Body({ text }: { text: string }) {
  return (
    <div style={{ fontSize: 14, lineHeight: 1.75, color: '#474d57' }}>
      {contentBlocks(text).map((b, i) =>
        b.kind === 'heading' ? (
          <h3 key={i} style={{ fontSize: 15, margin: '16px 0 6px', color: '#1e2329' }}>
            {b.text}
          </h3>
        ) : (
          <p key={i} style={{ margin: '0 0 12px', whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
            {b.text}
          </p>
        ),
      )}
    </div>
  );
}

/** The preview of `fields` of a `kind` item in `lang`; `slug` tells the download page apart; `categoryTitle` for articles. */
export function ContentPreview({
  kind,
  slug,
  fields,
  lang,
  categoryTitle,
}: {
  kind: ContentKind;
  slug: string;
  fields: ContentFields;
  lang: 'zh' | 'en';
  categoryTitle: string;
}) {
  const { t } = useTranslation();
  const title = lang === 'zh' ? fields.titleZh : fields.titleEn;
  const body = lang === 'zh' ? fields.bodyZh : fields.bodyEn;
  const image = useImageSrc(lang === 'zh' ? fields.imageZh : fields.imageEn);
  return (
    <div
      data-testid="content-preview"
      aria-label={t('content.preview')}
      style={{
        width: 360,
        minHeight: 480,
        maxHeight: 620,
        overflowY: 'auto',
        margin: '0 auto',
        border: '8px solid #1e2329',
        borderRadius: 24,
        background: '#fff',
        color: '#1e2329',
      }}
    >
      <div style={{ padding: '10px 14px', borderBottom: '1px solid #eaecef', textAlign: 'center', fontWeight: 600 }}>{t(`content.appHeader.${kind}`)}</div>
      <div style={{ padding: '12px 16px 24px' }}>
        {kind === 'banner' ? (
          <>
            {image ? (
              <img src={image} alt={title} style={{ width: '100%', borderRadius: 8, display: 'block' }} />
            ) : (
              <Empty description={t('content.noImage')} />
            )}
            <Typography.Paragraph style={{ marginTop: 8, color: '#707a8a' }}>
              {title}
              {fields.link && ` → ${fields.link}`}
            </Typography.Paragraph>
          </>
        ) : kind === 'help_category' ? (
          <div style={{ borderRadius: 10, padding: '14px 12px', background: '#f5f5f5' }}>
            <strong style={{ display: 'block', fontSize: 15, marginBottom: 6 }}>{title}</strong>
            <span style={{ fontSize: 12, color: '#707a8a' }}>{body}</span>
          </div>
        ) : (
          <>
            <h2 style={{ fontSize: 19, lineHeight: 1.4, margin: '4px 0 6px' }}>{title}</h2>
            {kind === 'help_article' && categoryTitle && <div style={{ fontSize: 12, color: '#c99400', marginBottom: 14 }}>{categoryTitle}</div>}
            {slug === 'download' && (
              <div style={{ fontSize: 12, color: '#707a8a', marginBottom: 12 }}>
                {fields.version && (
                  <div>
                    {t('content.fields.version')}: {fields.version}
                  </div>
                )}
                {fields.androidUrl && <div>Android: {fields.androidUrl}</div>}
                {fields.iosUrl && <div>iOS: {fields.iosUrl}</div>}
              </div>
            )}
            <Body text={body} />
          </>
        )}
      </div>
    </div>
  );
}
