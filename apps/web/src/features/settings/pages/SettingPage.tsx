/**
 * /setting (spec section 2): language (-> /langue), valuation currency CNY, colour scheme (red up /
 * green down, or green up / red down), day/night theme (also switching the status bar), about, and
 * log out when signed in.
 */
import { ActionSheet, Button, Dialog, List, Switch } from 'antd-mobile';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../shared/ui';
import { useAppStore, type UpDownColor } from '../../../shared/storage';
import { logout } from '../../../shared/session';
import { APP_VERSION, checkForUpdate, useUpdateOffer } from '../../../shared/bridge';
import { showToast } from '../../../shared/api-client';
import '../settings.css';

/** Settings page. */
export default function SettingPage() {
  const { t } = useTranslation('settings');
  const navigate = useNavigate();
  const lang = useAppStore((s) => s.currentLangue);
  const theme = useAppStore((s) => s.theme);
  const setTheme = useAppStore((s) => s.setTheme);
  const upDown = useAppStore((s) => s.upDownColor);
  const setUpDown = useAppStore((s) => s.setUpDownColor);
  const isLogin = useAppStore((s) => s.isLogin);
  const [colourOpen, setColourOpen] = useState(false);
  const [checking, setChecking] = useState(false);

  return (
    <div className="settings">
      <PageHeader title={t('title')} />
      <List className="settings-list">
        <List.Item onClick={() => navigate('/langue')} extra={t(`common:lang.${lang}`)}>
          {t('language')}
        </List.Item>
        <List.Item extra="CNY" arrowIcon={false} description={t('currencyHint')}>
          {t('currency')}
        </List.Item>
        <List.Item
          onClick={() => setColourOpen(true)}
          extra={
            <span className="settings-colour">
              <ColourSample upDown={upDown} />
              {t(`colour.${upDown}`)}
            </span>
          }
        >
          {t('colourScheme')}
        </List.Item>
        <List.Item
          arrowIcon={false}
          extra={<Switch aria-label={t('nightMode')} checked={theme === 'night'} onChange={(v) => setTheme(v ? 'night' : 'default')} />}
        >
          {t('nightMode')}
        </List.Item>
      </List>
      <List className="settings-list">
        <List.Item onClick={() => navigate('/about')}>{t('about')}</List.Item>
        <List.Item
          onClick={() => {
            if (checking) return;
            setChecking(true);
            // Spec sections 4 and 8: a newer version opens the new-version dialog; none says 'Already the latest version'.
            void checkForUpdate()
              .then((offer) => (offer ? useUpdateOffer.getState().setOffer(offer, true) : showToast(t('common:update.latest'))))
              .finally(() => setChecking(false));
          }}
          extra={<span className="num text-3">{APP_VERSION}</span>}
        >
          {t('version')}
        </List.Item>
      </List>
      {isLogin && (
        <div className="settings-logout">
          <Button
            block
            onClick={() =>
              void Dialog.confirm({ content: t('menu:logoutConfirm'), confirmText: t('menu:logout'), cancelText: t('common:cancel') }).then(async (ok) => {
                if (!ok) return;
                await logout();
                navigate('/', { replace: true });
              })
            }
          >
            {t('menu:logout')}
          </Button>
        </div>
      )}
      <ActionSheet
        visible={colourOpen}
        onClose={() => setColourOpen(false)}
        cancelText={t('common:cancel')}
        actions={(['green-up', 'red-up'] as UpDownColor[]).map((c) => ({
          key: c,
          text: (
            <span className="settings-colour">
              <ColourSample upDown={c} />
              {t(`colour.${c}`)}
              {c === upDown ? ' ✓' : ''}
            </span>
          ),
          onClick: () => {
            setUpDown(c);
            setColourOpen(false);
          },
        }))}
      />
    </div>
  );
}

/** Two small arrows in the colours of a convention. */
function ColourSample({ upDown }: { upDown: UpDownColor }) {
  const up = upDown === 'green-up' ? 'var(--ex-green)' : 'var(--ex-red)';
  const down = upDown === 'green-up' ? 'var(--ex-red)' : 'var(--ex-green)';
  return (
    <svg width="26" height="14" viewBox="0 0 26 14" aria-hidden="true">
      <path d="M1 12L6 2l5 10z" fill={up} />
      <path d="M15 2l5 10 5-10z" fill={down} />
    </svg>
  );
}
