/**
 * In-person invite (spec section 2): the invitation link as a large QR code full screen, with the code under it, for
 * a friend to scan from this phone. Closes with the button or the Escape key.
 */
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { QrCode } from '../../../shared/ui/QrCode';

/** The full-screen QR; rendered only while open. */
export function InPersonInvite({ link, code, onClose }: { link: string; code: string; onClose: () => void }) {
  const { t } = useTranslation('invite');
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div className="iv-inperson" role="dialog" aria-modal="true" aria-label={t('inPerson.title')}>
      <div className="iv-inperson-title">{t('inPerson.title')}</div>
      <div className="iv-inperson-hint">{t('inPerson.hint')}</div>
      <QrCode className="iv-qr" text={link} size={260} label={t('inPerson.qrAlt')} />
      <div className="iv-inperson-code-label">{t('myCode')}</div>
      <div className="iv-inperson-code" data-testid="inperson-code">
        {code}
      </div>
      <button type="button" className="iv-btn iv-btn-primary iv-inperson-close" onClick={onClose}>
        {t('inPerson.close')}
      </button>
    </div>
  );
}
