/** A small "Copy" button: copies `text` (navigator.clipboard, textarea fallback) and toasts 'Copied' or 'Copy failed, please retry' (spec section 5). */
import { useTranslation } from 'react-i18next';
import { showToast } from '../../../shared/api-client';
import { copyText } from '../../../shared/clipboard';

/** Copies `text`; `label` is the accessible name (default "Copy"). */
export function CopyButton({ text, label, className }: { text: string; label?: string; className?: string }) {
  const { t } = useTranslation('common');
  return (
    <button
      type="button"
      className={className ?? 'wl-copy'}
      aria-label={label ?? t('copy')}
      onClick={() => void copyText(text).then((ok) => showToast(ok ? t('copied') : t('copyFailed')))}
    >
      {t('copy')}
    </button>
  );
}
