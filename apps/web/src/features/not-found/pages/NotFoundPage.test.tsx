// Proves the not-found page: title, sentence and "Back to home" in the user's
// language, and the button takes the visitor home.
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../../../shared/i18n';
import NotFoundPage from './NotFoundPage';

function renderAt(url: string) {
  return render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path="/" element={<div>home screen</div>} />
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </MemoryRouter>
    </I18nextProvider>,
  );
}

describe('NotFoundPage', () => {
  it('says the page does not exist and goes home (en)', async () => {
    await i18n.changeLanguage('en');
    renderAt('/no/such/page');
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('Page not found');
    expect(screen.getByText('The page you are looking for does not exist or has moved.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Back to home' }));
    expect(await screen.findByText('home screen')).toBeInTheDocument();
  });

  it('speaks Chinese (zh)', async () => {
    await i18n.changeLanguage('zh');
    renderAt('/nope');
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('页面不存在');
    expect(screen.getByRole('button', { name: '返回首页' })).toBeInTheDocument();
  });
});
