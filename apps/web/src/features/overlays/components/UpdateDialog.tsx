/**
 * New-version dialog (spec sections 2, 4, 8): mounted by the shell when the update check (or "Version" in the
 * settings) found something to install. Shows the version and its reasons in the user's language, "Later" (not for a
 * forced update) and "Update now", which runs the update through the bridge and shows its states: 1 updating,
 * 3 update complete (the app restarts 2 s later), 4 update failed (close).
 */
import { useState } from 'react';
import Dialog from 'antd-mobile/es/components/dialog';
import SpinLoading from 'antd-mobile/es/components/spin-loading';
import { useTranslation } from 'react-i18next';
import { applyUpdate, type UpdateOffer, type UpdateState } from '../../../shared/bridge';
import { useAppStore } from '../../../shared/storage';

/** Props of UpdateDialog. */
export interface UpdateDialogProps {
  offer: UpdateOffer;
  /** Called on "Later" and on closing after a failure: the shell hides the dialog for this version. */
  onClose: () => void;
  /** Runs the update (the bridge's applyUpdate; tests pass their own). */
  run?: (offer: UpdateOffer, onState: (s: UpdateState) => void) => Promise<void>;
}

/** Update dialog, open while mounted. */
export function UpdateDialog({ offer, onClose, run = applyUpdate }: UpdateDialogProps) {
  const { t } = useTranslation('common');
  const lang = useAppStore((s) => s.currentLangue);
  const [state, setState] = useState<UpdateState | null>(null);
  const reasons = lang === 'zh' ? offer.reasonsZh : offer.reasonsEn;
  const start = () => void run(offer, setState).catch(() => setState(4));

  let content;
  let actions: Array<Array<{ key: string; text: string; bold?: boolean; onClick: () => void }>> = [];
  if (state === null) {
    content = reasons.length ? (
      <div>
        <div className="text-2" style={{ marginBottom: 6 }}>
          {t('update.reasons')}
        </div>
        <ol aria-label={t('update.reasons')} style={{ margin: 0, paddingLeft: 20, lineHeight: 1.6, textAlign: 'left' }}>
          {reasons.map((r, i) => (
            <li key={i}>{r}</li>
          ))}
        </ol>
      </div>
    ) : (
      <div style={{ lineHeight: 1.6 }}>{t('update.text')}</div>
    );
    actions = [
      [
        ...(offer.force ? [] : [{ key: 'later', text: t('update.later'), onClick: onClose }]),
        { key: 'now', text: t('update.now'), bold: true, onClick: start },
      ],
    ];
  } else if (state === 1) {
    content = (
      <div role="status" style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 12, padding: '8px 0' }}>
        <SpinLoading color="primary" style={{ '--size': '32px' }} />
        <span>{t('update.updating')}</span>
      </div>
    );
  } else if (state === 3) {
    content = (
      <div role="status" style={{ textAlign: 'center', lineHeight: 1.8 }}>
        <div style={{ fontSize: 16 }}>{t('update.done')}</div>
        <div className="text-3" style={{ fontSize: 13 }}>
          {t('update.restarting')}
        </div>
      </div>
    );
  } else {
    content = (
      <div role="alert" style={{ textAlign: 'center', fontSize: 16 }}>
        {t('update.failed')}
      </div>
    );
    actions = [[{ key: 'close', text: t('update.close'), bold: true, onClick: onClose }]];
  }
  const title = offer.kind === 'release' ? t('update.titleVersion', { version: offer.version }) : t('update.title');
  return <Dialog visible title={title} content={content} actions={actions} />;
}
