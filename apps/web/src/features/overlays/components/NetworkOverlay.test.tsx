/**
 * Proves the no-network screen (spec section 8): hidden while online; when the browser goes offline it shows 'No
 * network, please check network settings' with Reload and removes the page's boot shell (which would otherwise lie
 * over it until the home page's banners arrive, i.e. never while offline); back online it goes.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../../../shared/i18n';
import { NetworkOverlay } from './NetworkOverlay';

afterEach(() => vi.unstubAllGlobals());

describe('NetworkOverlay', () => {
  it('shows while offline, over the boot shell, and goes back online', async () => {
    void i18n.changeLanguage('en');
    const boot = document.createElement('div');
    boot.id = 'boot';
    document.body.appendChild(boot);
    render(
      <I18nextProvider i18n={i18n}>
        <NetworkOverlay />
      </I18nextProvider>,
    );
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.getElementById('boot')).not.toBeNull();
    act(() => void window.dispatchEvent(new Event('offline')));
    const dialog = await screen.findByRole('alertdialog', { name: 'No network, please check network settings' });
    expect(dialog).toContainElement(screen.getByRole('button', { name: 'Reload' }));
    expect(document.getElementById('boot')).toBeNull();
    act(() => void window.dispatchEvent(new Event('online')));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
