/**
 * New-version dialog (spec sections 2, 4, 8): mounted by the shell only when `useNewBuild` found another build
 * deployed; offers "Update now" (reload: update state 1 updating, then 3 done) or "Later".
 */
import { Dialog, Toast } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { applyUpdate } from '../../../shared/bridge';

/** Props of UpdateDialog. */
export interface UpdateDialogProps {
  /** Called on "Later" (and after "Update now"): the shell hides the dialog for this build. */
  onClose: () => void;
}

/** Update dialog, open while mounted. */
export function UpdateDialog({ onClose }: UpdateDialogProps) {
  const { t } = useTranslation('common');
  return (
    <Dialog
      visible
      title={t('update.title')}
      content={<div style={{ lineHeight: 1.6 }}>{t('update.text')}</div>}
      closeOnAction
      onClose={onClose}
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
