/**
 * One message of /message: an unread dot, the title and time, the text (two lines; all of it once opened). Opening an
 * unread message marks it read; an opened message offers the screen it is about (its order, record, or settings).
 */
import { memo } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { InboxMessage } from '@exchange/api';
import { formatDateTime } from '../../../shared/format';
import { useAppStore } from '../../../shared/storage';
import { messageText } from '../lib/message-text';

/** Props of MessageItem. */
export interface MessageItemProps {
  message: InboxMessage;
  open: boolean;
  onToggle: (m: InboxMessage) => void;
}

/** A message card. */
export const MessageItem = memo(function MessageItem({ message: m, open, onToggle }: MessageItemProps) {
  const { t } = useTranslation('inbox');
  const lang = useAppStore((s) => s.currentLangue);
  const navigate = useNavigate();
  const text = messageText(m, t, lang);
  return (
    <li className={`ib-item${m.read ? ' ib-item-read' : ''}${open ? ' ib-item-open' : ''}`} data-kind={m.kind}>
      <button type="button" className="ib-item-button" aria-expanded={open} onClick={() => onToggle(m)}>
        <div className="ib-item-top">
          {!m.read && <span className="ib-dot" role="img" aria-label={t('unreadMark')} />}
          <span className="ib-item-title">{text.title}</span>
          <span className="ib-item-time num">{formatDateTime(m.ts)}</span>
        </div>
        <div className="ib-item-body">{text.body}</div>
      </button>
      {open && text.link && (
        <button type="button" className="ib-item-link" onClick={() => navigate(text.link!)}>
          {t('view')} ›
        </button>
      )}
    </li>
  );
});
