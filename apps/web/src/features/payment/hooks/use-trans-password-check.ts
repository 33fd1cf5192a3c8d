/**
 * Before asking for the transaction password: when none is set, a prompt leading to /accountCenter/postPasswordSet
 * (issue 10) instead of a PIN the server could only refuse (trans_password_not_set).
 */
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { loadFeedback } from '../../../shared/ui/feedback';
import { useSecurity } from '../../../shared/session';

/** Returns `() => boolean`: true when a transaction password is set (or not known yet: the server still checks). */
export function useTransPasswordCheck(): () => boolean {
  const { t } = useTranslation('payment');
  const navigate = useNavigate();
  const security = useSecurity();
  return useCallback(() => {
    if (!security.data || security.data.transPasswordSet) return true;
    void loadFeedback().then(({ Dialog }) => Dialog.confirm({ content: t('needTransPassword'), confirmText: t('toSetTransPassword'), cancelText: t('common:cancel') })).then((ok) => ok && navigate('/accountCenter/postPasswordSet'));
    return false;
  }, [security.data, t, navigate]);
}
