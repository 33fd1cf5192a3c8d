/** Eye toggle hiding or showing amounts; labelled "Hide amounts" / "Show amounts". */
import { EyeInvisibleOutline, EyeOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';

/** Props of EyeButton. */
export interface EyeButtonProps {
  hidden: boolean;
  onToggle: () => void;
}

/** The eye toggle. */
export function EyeButton({ hidden, onToggle }: EyeButtonProps) {
  const { t } = useTranslation('assets');
  return (
    <button type="button" className="as-eye" aria-label={hidden ? t('showAmounts') : t('hideAmounts')} aria-pressed={hidden} onClick={onToggle}>
      {hidden ? <EyeInvisibleOutline fontSize={16} /> : <EyeOutline fontSize={16} />}
    </button>
  );
}
