/**
 * Before asking for the transaction password: when none is set, a prompt leading to /accountCenter/postPasswordSet
 * instead of a PIN the server could only refuse (trans_password_not_set).
 */
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { loadFeedback } from '../../../shared/ui/feedback';
import { useSecurity } from '../../../shared/session';

/**
 * Returns `{ check, prompt }`: `check()` is true when a transaction password is set (or not known yet: the server
 * still checks and answers trans_password_not_set), else it prompts; `prompt()` shows the prompt (for that answer).
 */
export function useTransPasswordCheck(): { check: () => boolean; prompt: () => void } {
  const { t } = useTranslation('payment');
  const navigate = useNavigate();
  const security = useSecurity();
  const prompt = useCallback(() => {
    void loadFeedback()
      .then(({ Dialog }) => Dialog.confirm({ content: t('needTransPassword'), confirmText: t('toSetTransPassword'), cancelText: t('common:cancel') }))
      .then((ok) => ok && navigate('/accountCenter/postPasswordSet'));
  }, [t, navigate]);
  const check = useCallback(() => {
    if (!security.data || security.data.transPasswordSet) return true;
    prompt();
    return false;
  }, [security.data, prompt]);
  return { check, prompt };
}
