/**
 * Set-nickname dialog (spec sections 2, 4, 5): opened by useRequireNickname() or the side menu;
 * the nickname may be set only once; empty input shows 'Please enter a nickname'; success shows
 * 'Nickname set successfully'.
 */
import { useEffect, useId, useState } from 'react';
import { Button, Input, Popup } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useUiStore } from '../../../shared/storage';
import { useMember } from '../../../shared/session';
import { TOAST_MS } from '../../../shared/api-client';
import { showTimedToast } from '../../../shared/ui/feedback';
import { useSetNickName } from '../api/set-nickname';
import './account.css';

/** The dialog; mounted once in the app shell. */
export default function NicknameDialog() {
  const { t } = useTranslation('account');
  const open = useUiStore((s) => s.nicknameDialogOpen);
  const close = useUiStore((s) => s.closeNicknameDialog);
  const { member } = useMember();
  const [value, setValue] = useState('');
  const inputId = useId();
  const mutation = useSetNickName();

  useEffect(() => {
    if (open) setValue('');
  }, [open]);

  const alreadySet = !!member?.nickName;
  const submit = () => {
    const nick = value.trim();
    if (!nick) {
      showTimedToast({ content: t('nickname.required') }, TOAST_MS);
      return;
    }
    mutation.mutate(nick, {
      onSuccess: () => {
        showTimedToast({ icon: 'success', content: t('nickname.success') }, TOAST_MS);
        close();
      },
    });
  };

  return (
    <Popup visible={open} onMaskClick={close} bodyClassName="ex-nick-popup" destroyOnClose>
      <div role="dialog" aria-label={t('nickname.title')} className="ex-nick">
        <h2 className="ex-nick-title">{t('nickname.title')}</h2>
        {alreadySet ? (
          <p className="ex-nick-hint">{t('nickname.onlyOnce', { name: member?.nickName })}</p>
        ) : (
          <>
            <p className="ex-nick-hint">{t('nickname.hint')}</p>
            <div className="ex-field">
              <label className="ex-field-label" htmlFor={inputId}>
                {t('nickname.label')}
              </label>
              <Input id={inputId} placeholder={t('nickname.required')} value={value} onChange={setValue} maxLength={20} clearable onEnterPress={submit} />
            </div>
          </>
        )}
        <div className="ex-nick-actions">
          <Button block onClick={close}>
            {t('common:cancel')}
          </Button>
          {!alreadySet && (
            <Button block color="primary" loading={mutation.isPending} onClick={submit}>
              {t('common:confirm')}
            </Button>
          )}
        </div>
      </div>
    </Popup>
  );
}
