// Component test of the "Send code" field: by default the slide puzzle opens first and no code is asked for until it
// is passed; with `puzzle={false}` (a code to the signed-in user's own address) the code is asked for at once, with no
// pass, and the 60 s countdown starts. The captcha API is a fake: the puzzle's challenge never resolves here.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../i18n';
import { SendCodeField } from './fields';

const api = vi.hoisted(() => ({ fetchGeetestCode: vi.fn(() => new Promise(() => {})), verifyGeetest: vi.fn() }));
vi.mock('./captcha-api', () => api);

function field(send: (pass: unknown) => Promise<unknown>, puzzle?: boolean) {
  return render(
    <I18nextProvider i18n={i18n}>
      <SendCodeField label="Code" value="" onChange={() => {}} send={send} puzzle={puzzle} />
    </I18nextProvider>,
  );
}

afterEach(() => {
  vi.clearAllMocks();
});

describe('SendCodeField', () => {
  it('opens the slide puzzle first and sends nothing until it is passed', async () => {
    await i18n.changeLanguage('en');
    const send = vi.fn(() => Promise.resolve(null));
    field(send);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    });
    expect(send).not.toHaveBeenCalled();
    expect(api.fetchGeetestCode).toHaveBeenCalledTimes(1);
  });

  it('with puzzle={false} sends at once without a pass, opens no puzzle and counts down', async () => {
    await i18n.changeLanguage('en');
    const send = vi.fn(() => Promise.resolve(null));
    field(send, false);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    });
    expect(send).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenCalledWith(undefined);
    expect(api.fetchGeetestCode).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: /Resend in 60/ })).toBeDisabled();
  });
});
