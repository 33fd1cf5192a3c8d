/**
 * New-version dialog (spec sections 2, 4, 8). The web build checks /version.json at start and when
 * the app comes back to the foreground; if another build is deployed it offers "Update now"
 * (reload: update state 1 updating, then 3 done) or "Later".
 */
import { useEffect, useState } from 'react';
import { Dialog, Toast } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { applyUpdate, checkForUpdate } from '../../../shared/bridge';

/** Update dialog; mounted once in the app shell. */
export function UpdateDialog() {
  const { t } = useTranslation('common');
  const [newBuild, setNewBuild] = useState<string | null>(null);
  const [dismissed, setDismissed] = useState<string | null>(null);

  useEffect(() => {
    let alive = true;
    const check = () => void checkForUpdate().then((id) => alive && setNewBuild(id));
    check();
    const onVisible = () => document.visibilityState === 'visible' && check();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      alive = false;
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, []);

  const visible = !!newBuild && newBuild !== dismissed;
  return (
    <Dialog
      visible={visible}
      title={t('update.title')}
      content={<div style={{ lineHeight: 1.6 }}>{t('update.text')}</div>}
      closeOnAction
      onClose={() => setDismissed(newBuild)}
      actions={[
        [
          { key: 'later', text: t('update.later') },
          {
            key: 'now',
            text: t('update.now'),
            bold: true,
            onClick: () => {
              Toast.show({ icon: 'loading', content: t('update.updating'), duration: 1000 });
              setTimeout(applyUpdate, 300);
            },
          },
        ],
      ]}
    />
  );
}
