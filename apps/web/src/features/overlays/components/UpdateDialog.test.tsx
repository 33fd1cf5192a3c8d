/**
 * Proves the new-version dialog (spec sections 4 and 8): it shows the version and the reasons in the user's
 * language (en, zh), "Later" closes it, a forced update has no "Later"; "Update now" runs the update and shows its
 * states with the spec's messages: 1 "Updating...", 3 "Update complete" with the restart notice, 4 "Update failed"
 * with a Close button that closes it.
 */
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../../../shared/i18n';
import { useAppStore } from '../../../shared/storage';
import type { UpdateOffer, UpdateState } from '../../../shared/bridge';
import { UpdateDialog } from './UpdateDialog';

const offer: UpdateOffer = {
  kind: 'release',
  version: '0.2.0',
  reasonsZh: ['新增邀请海报', '修复行情刷新'],
  reasonsEn: ['New invitation poster', 'Fixed the quotes refresh'],
  force: false,
  bundle: null,
  downloadUrl: '',
};

function show(lang: 'en' | 'zh', o: UpdateOffer = offer) {
  useAppStore.setState({ currentLangue: lang });
  void i18n.changeLanguage(lang);
  let report: (s: UpdateState) => void = () => undefined;
  const run = vi.fn(async (_o: UpdateOffer, onState: (s: UpdateState) => void) => {
    report = onState;
  });
  const onClose = vi.fn();
  render(
    <I18nextProvider i18n={i18n}>
      <UpdateDialog offer={o} onClose={onClose} run={run} />
    </I18nextProvider>,
  );
  return { run, onClose, state: (s: UpdateState) => act(() => report(s)) };
}

describe('UpdateDialog', () => {
  it('shows the version and its reasons in English; Later closes', async () => {
    const { onClose, run } = show('en');
    expect(await screen.findByText('New version 0.2.0')).toBeInTheDocument();
    const list = screen.getByRole('list', { name: "What's new" });
    expect([...list.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['New invitation poster', 'Fixed the quotes refresh']);
    fireEvent.click(screen.getByText('Later'));
    expect(onClose).toHaveBeenCalledOnce();
    expect(run).not.toHaveBeenCalled();
  });

  it('shows the reasons in Chinese; a forced update has no Later', async () => {
    show('zh', { ...offer, force: true });
    expect(await screen.findByText('发现新版本 0.2.0')).toBeInTheDocument();
    expect(screen.getByText('新增邀请海报')).toBeInTheDocument();
    expect(screen.queryByText('稍后')).toBeNull();
    expect(screen.getByText('立即更新')).toBeInTheDocument();
  });

  it('walks the states: updating, then update complete with the restart notice', async () => {
    const { run, state } = show('en');
    fireEvent.click(await screen.findByText('Update now'));
    expect(run).toHaveBeenCalledOnce();
    state(1);
    expect(await screen.findByText('Updating...')).toBeInTheDocument();
    expect(screen.queryByText('Update now')).toBeNull();
    state(3);
    expect(await screen.findByText('Update complete')).toBeInTheDocument();
    expect(screen.getByText('The app restarts in 2 seconds')).toBeInTheDocument();
  });

  it('shows update failed with Close', async () => {
    const { state, onClose } = show('zh');
    fireEvent.click(await screen.findByText('立即更新'));
    state(1);
    state(4);
    expect(await screen.findByText('更新失败')).toBeInTheDocument();
    fireEvent.click(screen.getByText('关闭'));
    expect(onClose).toHaveBeenCalledOnce();
  });
});
