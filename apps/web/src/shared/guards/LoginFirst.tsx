/**
 * Routes without a login guard in the router (spec section 2: the account centre, payment methods) show this prompt
 * (with the spec's "You are not logged in, log in?" wording and a button to /login?redirect=...) instead of the page.
 */
import type { ReactNode } from 'react';
import { Button } from 'antd-mobile';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../storage';
import { EmptyState } from '../ui';

/** `children` when logged in, else the log-in prompt. */
export function LoginFirst({ children }: { children: ReactNode }) {
  const { t } = useTranslation('common');
  const isLogin = useAppStore((s) => s.isLogin);
  const navigate = useNavigate();
  const loc = useLocation();
  if (isLogin) return <>{children}</>;
  return (
    <EmptyState
      text={t('guard.notLoggedIn')}
      action={
        <Button color="primary" onClick={() => navigate(`/login?redirect=${encodeURIComponent(loc.pathname + loc.search)}`)}>
          {t('guard.toLogin')}
        </Button>
      }
    />
  );
}
