// Proves the load-failure block: the section 8 text of the error in the user's
// language (re-translated when the language changes), a Retry button that calls onRetry, Reload when
// offline, and no button without onRetry.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../i18n';
import { ApiError } from '../api-client/api-error';
import { LoadFailed } from './LoadFailed';

const renderIt = (ui: React.ReactElement) => render(<I18nextProvider i18n={i18n}>{ui}</I18nextProvider>);

afterEach(async () => {
  vi.restoreAllMocks();
  await i18n.changeLanguage('en');
});

describe('LoadFailed', () => {
  it('shows the alert of the status and retries', async () => {
    await i18n.changeLanguage('en');
    const onRetry = vi.fn();
    renderIt(<LoadFailed error={new ApiError('HTTP_503', 'x', 503)} onRetry={onRetry} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Service unavailable');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('follows a language change', async () => {
    await i18n.changeLanguage('en');
    renderIt(<LoadFailed error={new ApiError('NETWORK', 'Connection to the server failed')} onRetry={() => {}} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Connection to the server failed');
    await act(() => i18n.changeLanguage('zh'));
    expect(screen.getByRole('alert')).toHaveTextContent('连接服务器失败');
    expect(screen.getByRole('button', { name: '重试' })).toBeInTheDocument();
  });

  it('says there is no network and offers Reload while offline', async () => {
    await i18n.changeLanguage('en');
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    renderIt(<LoadFailed error={new ApiError('NETWORK', 'x')} onRetry={() => {}} />);
    expect(screen.getByRole('alert')).toHaveTextContent('No network, please check network settings');
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
  });

  it('has no button without onRetry', async () => {
    await i18n.changeLanguage('en');
    renderIt(<LoadFailed error={new Error('boom')} compact />);
    expect(screen.getByRole('alert')).toHaveTextContent('Load failed, please retry');
    expect(screen.queryByRole('button')).toBeNull();
  });
});
