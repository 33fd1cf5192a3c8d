/** The status of a content item as a coloured tag (draft, published, changed since published, unpublished). */
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ContentStatus } from '@exchange/api';

const COLORS: Record<ContentStatus, string> = { DRAFT: 'default', PUBLISHED: 'green', CHANGED: 'gold', UNPUBLISHED: 'red' };

/** The tag. */
export function StatusTag({ status }: { status: ContentStatus }) {
  const { t } = useTranslation();
  return <Tag color={COLORS[status]}>{t(`content.status.${status}`)}</Tag>;
}
