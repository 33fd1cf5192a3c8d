// Component test of ListSkeleton: it is a busy status labelled "Loading" (加载中 in zh) with the number of
// rows asked, and no text of its own (it never reads as an empty list).
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../i18n';
import { ListSkeleton } from './Skeleton';
import { isAwaiting } from './awaiting';

describe('ListSkeleton', () => {
  it.each([
    ['en', 'Loading'],
    ['zh', '加载中'],
  ] as const)('is a busy status labelled in the language, with its rows (%s)', async (lang, label) => {
    await i18n.changeLanguage(lang);
    render(
      <I18nextProvider i18n={i18n}>
        <ListSkeleton rows={3} />
      </I18nextProvider>,
    );
    const s = screen.getByRole('status', { name: label });
    expect(s).toHaveAttribute('aria-busy', 'true');
    expect(s.querySelectorAll('.ex-skeleton-row')).toHaveLength(3);
    expect(s.textContent).toBe('');
  });
});

describe('isAwaiting', () => {
  it('awaits a pending query that fetches or waits for the network, not a disabled or answered one', () => {
    expect(isAwaiting({ isPending: true, fetchStatus: 'fetching' })).toBe(true);
    expect(isAwaiting({ isPending: true, fetchStatus: 'paused' })).toBe(true);
    expect(isAwaiting({ isPending: true, fetchStatus: 'idle' })).toBe(false);
    expect(isAwaiting({ isPending: false, fetchStatus: 'fetching' })).toBe(false);
  });
});
