/**
 * The customer-service chat (/kefuWebview): the status line (an operator is with you / waiting for an
 * operator / no operator online: leave a message, the reply appears here), the history of the user's conversations
 * (their own messages on the right, operators' on the left with the name, a closed conversation as a centred note;
 * "load earlier" pages back), a "new replies" divider above the replies that were unread on arrival, and the composer:
 * text (at most 1000 characters) and a picture (compressed at 0.6, at most 5 MB, uploaded with purpose SUPPORT).
 * Operators' replies arrive live over the WebSocket (useSupportLive).
 */
import { Fragment, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Input } from 'antd-mobile';
import { PictureOutline } from 'antd-mobile-icons';
import { SUPPORT_TEXT_MAX, type SupportMessage, type SupportMessagePage } from '@exchange/api';
import { useQueryClient } from '@tanstack/react-query';
import { showToast } from '../../../shared/api-client';
import { AuthImage } from '../../../shared/image';
import { useSupportState } from '../../../shared/session';
import { useAppStore } from '../../../shared/storage';
import { InlineLoading, LoadFailed } from '../../../shared/ui';
import { getSupportMessages, useSupportMessages, withOlder } from '../api/get-messages';
import { supportKeys } from '../api/keys';
import { useSendSupportMessage } from '../api/send-message';
import { refuseFile, uploadSupportImage } from '../api/upload-image';
import { useSupportLive } from '../hooks/use-support-live';

/** hh:mm of a time in ms. */
function clock(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

function Bubble({ m }: { m: SupportMessage }) {
  const { t } = useTranslation('support');
  if (m.from === 'SYSTEM') {
    return <li className="sup-msg sup-msg-note">{t(`system.${m.text}`, { defaultValue: m.text })}</li>;
  }
  const side = m.mine ? 'mine' : 'theirs';
  return (
    <li className={`sup-msg sup-msg-${side}`} aria-label={m.mine ? t('you') : t('operator', { name: m.operatorName })}>
      {!m.mine && <span className="sup-msg-from">{m.operatorName || t('team')}</span>}
      {m.text && <span className="sup-msg-text">{m.text}</span>}
      {m.imageUrl && <AuthImage url={m.imageUrl} alt={t('image')} className="sup-msg-img" />}
      <span className="sup-msg-time">{clock(m.createdAt)}</span>
    </li>
  );
}

/** The status line above the messages. */
function Status() {
  const { t } = useTranslation('support');
  const s = useSupportState();
  if (!s) return null;
  const text = s.operatorName
    ? t('status.with', { name: s.operatorName })
    : s.operatorsOnline
      ? s.waiting
        ? t('status.waiting')
        : t('status.online')
      : t('status.offline');
  return (
    <p className={`sup-status ${s.operatorsOnline ? 'sup-status-on' : ''}`} role="status">
      <span className="sup-dot" aria-hidden />
      {text}
    </p>
  );
}

/** The chat screen's body (logged in). */
export function SupportChat() {
  const { t } = useTranslation('support');
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  const state = useSupportState();
  // The replies unread when the chat opened get a divider above them (reading the chat clears the count).
  const [unreadOnOpen] = useState(() => state?.unread ?? 0);
  const messages = useSupportMessages();
  const send = useSendSupportMessage();
  const [text, setText] = useState('');
  const [uploading, setUploading] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const end = useRef<HTMLLIElement>(null);
  const file = useRef<HTMLInputElement>(null);
  useSupportLive(() => end.current?.scrollIntoView?.({ block: 'end' }));
  const list = messages.data?.messages ?? [];
  const last = list[list.length - 1]?.id;
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [last]);

  if (messages.isPending) return <InlineLoading />;
  if (messages.isError && !messages.data) return <LoadFailed error={messages.error} onRetry={() => void messages.refetch()} />;

  // The first of the last `unreadOnOpen` operator replies.
  const replies = list.filter((m) => m.from === 'OPERATOR');
  const firstNew = unreadOnOpen > 0 ? replies[Math.max(0, replies.length - unreadOnOpen)]?.id : undefined;

  const sendText = () => {
    const v = text.trim();
    if (!v) return;
    send.mutate({ text: v }, { onSuccess: () => setText('') });
  };
  const sendImage = async (f: File | undefined) => {
    if (file.current) file.current.value = '';
    if (!f) return;
    if (refuseFile(f)) {
      showToast(t('notImage'), 2000);
      return;
    }
    setUploading(true);
    try {
      const imageId = await uploadSupportImage(f);
      send.mutate({ imageId });
    } catch (e) {
      const reason = e instanceof Error && e.message === 'tooLarge' ? t('tooLarge') : e instanceof Error ? e.message : '';
      showToast(t('uploadFailed', { reason }), 2000);
    } finally {
      setUploading(false);
    }
  };
  const loadOlder = async () => {
    const first = list[0];
    if (!first) return;
    setLoadingOlder(true);
    try {
      const older = await getSupportMessages(first.id);
      qc.setQueryData<SupportMessagePage>(supportKeys.messages(userId), (old) => withOlder(old, older));
    } catch {
      showToast(t('loadFailed'), 2000);
    } finally {
      setLoadingOlder(false);
    }
  };

  return (
    <div className="sup-chat">
      <Status />
      <ul className="sup-list" aria-label={t('messages')}>
        {messages.data?.hasMore && (
          <li className="sup-older">
            <Button size="mini" fill="none" loading={loadingOlder} onClick={() => void loadOlder()}>
              {t('older')}
            </Button>
          </li>
        )}
        {list.length === 0 && <li className="sup-msg sup-msg-note sup-welcome">{t('welcome')}</li>}
        {list.map((m) => (
          <Fragment key={m.id}>
            {m.id === firstNew && (
              <li className="sup-new" role="separator">
                {t('newReplies')}
              </li>
            )}
            <Bubble m={m} />
          </Fragment>
        ))}
        <li ref={end} aria-hidden />
      </ul>
      <div className="sup-input">
        <label className="sup-pic" aria-label={t('sendImage')}>
          <PictureOutline fontSize={20} />
          <input ref={file} type="file" accept="image/*" hidden disabled={uploading} onChange={(e) => void sendImage(e.target.files?.[0])} />
        </label>
        <Input
          aria-label={t('placeholder')}
          placeholder={t('placeholder')}
          value={text}
          onChange={setText}
          onEnterPress={sendText}
          maxLength={SUPPORT_TEXT_MAX}
        />
        <Button size="small" color="primary" loading={send.isPending || uploading} disabled={!text.trim()} onClick={sendText}>
          {t('send')}
        </Button>
      </div>
    </div>
  );
}
