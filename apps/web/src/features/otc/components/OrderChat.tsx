/**
 * The order chat (text and images between the two sides, kept with the order, live over the WebSocket):
 * a full-height sheet with the messages (mine on the right, the other side's on the left, system and operator
 * notes centred), a text field and an image button.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Input, Popup } from 'antd-mobile';
import type { OtcChatMessage } from '@exchange/api';
import { showToast } from '../../../shared/api-client';
import { useOtcMessages } from '../api/get-messages';
import { useSendOtcMessage } from '../api/send-message';
import { uploadOtcImage } from '../api/upload-image';
import { AuthImage } from '../../../shared/image';
import { isAwaiting, ListSkeleton } from '../../../shared/ui';

function Bubble({ m }: { m: OtcChatMessage }) {
  const { t } = useTranslation('otc');
  const side = m.from === 'SYSTEM' || m.from === 'OPERATOR' ? 'note' : m.mine ? 'mine' : 'theirs';
  const time = new Date(m.createdAt);
  return (
    <li className={`otc-msg otc-msg-${side}`}>
      {side === 'note' && <span className="otc-msg-from">{t(`chat.from.${m.from}`)}</span>}
      {m.text && <span className="otc-msg-text">{m.from === 'SYSTEM' ? t(`chat.system.${m.text}`, { defaultValue: m.text }) : m.text}</span>}
      {m.imageUrl && <AuthImage url={m.imageUrl} alt={t('chat.image')} className="otc-msg-img" />}
      <span className="otc-msg-time">{`${String(time.getHours()).padStart(2, '0')}:${String(time.getMinutes()).padStart(2, '0')}`}</span>
    </li>
  );
}

/** The chat of `orderId` as a sheet (`open`); `counterparty` names the other side in the title. */
export function OrderChat({ orderId, open, onClose, counterparty }: { orderId: string; open: boolean; onClose: () => void; counterparty: string }) {
  const { t } = useTranslation('otc');
  const messages = useOtcMessages(open ? orderId : '');
  const send = useSendOtcMessage(orderId);
  const [text, setText] = useState('');
  const end = useRef<HTMLLIElement>(null);
  const list = messages.data ?? [];
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [list.length, open]);

  const sendText = () => {
    const v = text.trim();
    if (!v) return;
    send.mutate({ text: v }, { onSuccess: () => setText('') });
  };
  const sendImage = async (file: File | undefined) => {
    if (!file) return;
    try {
      const imageId = await uploadOtcImage(file);
      send.mutate({ imageId });
    } catch (e) {
      showToast(t('chat.uploadFailed', { reason: e instanceof Error ? e.message : '' }), 2000);
    }
  };

  return (
    <Popup visible={open} onMaskClick={onClose} position="bottom" bodyClassName="otc-chat-popup" destroyOnClose>
      <div className="otc-chat" role="dialog" aria-label={t('chat.title')}>
        <header className="otc-chat-head">
          <span>{t('chat.with', { name: counterparty })}</span>
          <button type="button" className="otc-link" onClick={onClose}>
            {t('common:close')}
          </button>
        </header>
        <ul className="otc-chat-list" aria-label={t('chat.messages')}>
          {isAwaiting(messages) ? (
            <li>
              <ListSkeleton rows={2} />
            </li>
          ) : (
            list.length === 0 && <li className="otc-msg otc-msg-note text-3">{t('chat.empty')}</li>
          )}
          {list.map((m) => (
            <Bubble key={m.id} m={m} />
          ))}
          <li ref={end} aria-hidden />
        </ul>
        <div className="otc-chat-input">
          <label className="otc-chat-pic" aria-label={t('chat.sendImage')}>
            +
            <input type="file" accept="image/*" hidden onChange={(e) => void sendImage(e.target.files?.[0])} />
          </label>
          <Input
            aria-label={t('chat.placeholder')}
            placeholder={t('chat.placeholder')}
            value={text}
            onChange={setText}
            onEnterPress={sendText}
            maxLength={1000}
          />
          <Button size="small" color="primary" loading={send.isPending} disabled={!text.trim()} onClick={sendText}>
            {t('chat.send')}
          </Button>
        </div>
      </div>
    </Popup>
  );
}
