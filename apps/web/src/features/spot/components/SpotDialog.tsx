/**
 * The trading screen's centred dialog (antd-mobile CenterPopup): a titled role="dialog" card with a body and a row
 * of actions, used for the fill result and the price impact warning. Shown while mounted: the caller mounts it
 * when there is something to say and unmounts it to close it.
 */
import type { CSSProperties, ReactNode } from 'react';
import { Button, CenterPopup } from 'antd-mobile';
import { useTranslation } from 'react-i18next';

/** Props of SpotDialog. */
export interface SpotDialogProps {
  /** Heading and accessible name. */
  title: string;
  /** A mark before the title (an icon), optional. */
  icon?: ReactNode;
  children: ReactNode;
  /** Buttons under the body. */
  actions: ReactNode;
  /** Called on a tap outside the card. */
  onClose: () => void;
}

const DIALOG_WIDTH = { '--min-width': 'min(86vw, 360px)', '--max-width': 'min(86vw, 360px)' } as CSSProperties;

/** The dialog. */
export function SpotDialog({ title, icon, children, actions, onClose }: SpotDialogProps) {
  return (
    // The popup's wrap is what is centred: its width bounds (75vw by default) must be the card's, or a wider card
    // overflows the wrap to the right.
    <CenterPopup visible onMaskClick={onClose} bodyClassName="sp-dialog-body" style={DIALOG_WIDTH} destroyOnClose>
      <div role="dialog" aria-modal="true" aria-label={title} className="sp-dialog">
        <h2 className="sp-dialog-title">
          {icon}
          <span>{title}</span>
        </h2>
        <div className="sp-dialog-content">{children}</div>
        <div className="sp-dialog-actions">{actions}</div>
      </div>
    </CenterPopup>
  );
}

/** The actions of a confirmation: Cancel, then the primary "Confirm" (spot `confirm.ok`). */
export function ConfirmActions({ onCancel, onConfirm }: { onCancel: () => void; onConfirm: () => void }) {
  const { t } = useTranslation('spot');
  return (
    <>
      <Button block onClick={onCancel}>
        {t('common:cancel')}
      </Button>
      <Button block color="primary" onClick={onConfirm}>
        {t('confirm.ok')}
      </Button>
    </>
  );
}
