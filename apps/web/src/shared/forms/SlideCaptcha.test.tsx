// Component test of the slide puzzle: the drag is recorded as a trail that starts
// where the piece starts, follows the pointer in x and y (converted to image pixels at the picture's scale), keeps
// time never going back, and ends where the piece is dropped; the answer (x, y, trail) goes to geetestVerify and the
// pass to onSuccess. Also the pure helpers: dragging maps CSS px to image px and stays inside the picture; a long
// trail is thinned under the server's limit. The API module is replaced by a fake; jsdom has no layout, so the
// picture and track report their sizes through a stubbed getBoundingClientRect.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import type { GeetestChallenge } from '@exchange/api';
import { i18n } from '../i18n';
import { addTrailPoint, dragPiece, formatTrail, SlideCaptcha, TRAIL_MAX_POINTS, type TrailPoint } from './SlideCaptcha';

const api = vi.hoisted(() => ({ fetchGeetestCode: vi.fn(), verifyGeetest: vi.fn() }));
vi.mock('./captcha-api', () => api);

const challenge: GeetestChallenge = {
  gt: 'g'.repeat(32),
  challenge: 'c'.repeat(32),
  success: 1,
  new_captcha: true,
  status: 1,
  bgImage: 'data:image/png;base64,AA==',
  pieceImage: 'data:image/png;base64,AA==',
  pieceY: 40,
  width: 320,
  height: 180,
  pieceSize: 50,
};

/** The picture is 256 px wide (scale 0.8), the track too. */
function stubLayout() {
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    const w = this.classList.contains('ex-captcha-img') || this.classList.contains('ex-captcha-track') ? 256 : 0;
    return { x: 0, y: 0, left: 0, top: 0, right: w, bottom: 0, width: w, height: 0, toJSON: () => ({}) } as DOMRect;
  });
}

/** jsdom has no PointerEvent: without one, fireEvent.pointer* would drop clientX/clientY. */
class TestPointerEvent extends MouseEvent {
  readonly pointerId: number;
  constructor(type: string, init: PointerEventInit = {}) {
    super(type, init);
    this.pointerId = init.pointerId ?? 0;
  }
}

beforeEach(() => {
  if (!('PointerEvent' in window)) vi.stubGlobal('PointerEvent', TestPointerEvent);
  api.fetchGeetestCode.mockReset();
  api.verifyGeetest.mockReset();
  api.fetchGeetestCode.mockResolvedValue(challenge);
  api.verifyGeetest.mockResolvedValue({ geetest_challenge: challenge.challenge, geetest_validate: 'v', geetest_seccode: 'v|jordan' });
  stubLayout();
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

function parse(trail: string): TrailPoint[] {
  return trail.split(';').map((p) => {
    const [x, y, t] = p.split(',').map(Number);
    return { x: x!, y: y!, t: t! };
  });
}

describe('SlideCaptcha', () => {
  it.each(['en', 'zh'] as const)('records the drag on the picture as a trail and sends it with x and y (%s)', async (lang) => {
    await i18n.changeLanguage(lang);
    const onSuccess = vi.fn();
    render(
      <I18nextProvider i18n={i18n}>
        <SlideCaptcha visible onClose={() => {}} onSuccess={onSuccess} />
      </I18nextProvider>,
    );
    const slider = await screen.findByRole('slider', { name: i18n.t('account:captcha.drag') });
    await vi.waitFor(() => expect(slider).toHaveAttribute('aria-valuemax', '320'));
    expect(screen.getByText(i18n.t('account:captcha.hint'))).toBeInTheDocument();
    const picture = document.querySelector('.ex-captcha-img')!;
    let now = 1000;
    vi.spyOn(performance, 'now').mockImplementation(() => now);

    fireEvent.pointerDown(picture, { pointerId: 1, clientX: 10, clientY: 100 });
    // 40 CSS px right and 16 down at scale 0.8 = 50 and 20 image px; then on to 160 right, 48 down.
    const moves = [
      [50, 116, 16],
      [90, 130, 40],
      [130, 140, 90],
      [170, 148, 200],
    ] as const;
    for (const [x, y, dt] of moves) {
      now = 1000 + dt;
      fireEvent.pointerMove(picture, { pointerId: 1, clientX: x, clientY: y });
    }
    expect(slider).toHaveAttribute('aria-valuenow', '200');
    expect(slider).toHaveAttribute('aria-valuetext', '200, 100');
    now = 1000 + 420;
    await act(async () => {
      fireEvent.pointerUp(picture, { pointerId: 1, clientX: 170, clientY: 148 });
    });

    expect(api.verifyGeetest).toHaveBeenCalledTimes(1);
    const answer = api.verifyGeetest.mock.calls[0]![0] as { challenge: string; x: number; y: number; trail: string; randomCode: string };
    expect(answer).toMatchObject({ challenge: challenge.challenge, x: 200, y: 100 });
    expect(answer.randomCode).toMatch(/^[0-9a-f]{32}$/);
    const points = parse(answer.trail);
    expect(points[0]).toEqual({ x: 0, y: 40, t: 0 });
    expect(points.slice(1, 5)).toEqual([
      { x: 50, y: 60, t: 16 },
      { x: 100, y: 78, t: 40 },
      { x: 150, y: 90, t: 90 },
      { x: 200, y: 100, t: 200 },
    ]);
    expect(points[points.length - 1]).toEqual({ x: 200, y: 100, t: 420 });
    for (let i = 1; i < points.length; i++) expect(points[i]!.t).toBeGreaterThanOrEqual(points[i - 1]!.t);
    await vi.waitFor(() =>
      expect(onSuccess).toHaveBeenCalledWith({ geetest_challenge: challenge.challenge, geetest_validate: 'v', geetest_seccode: 'v|jordan' }),
    );
  });

  it('moves x with the handle at the track gain, and y with the finger', async () => {
    render(
      <I18nextProvider i18n={i18n}>
        <SlideCaptcha visible onClose={() => {}} onSuccess={() => {}} />
      </I18nextProvider>,
    );
    const slider = await screen.findByRole('slider');
    await vi.waitFor(() => expect(slider).toHaveAttribute('aria-valuemax', '320'));
    fireEvent.pointerDown(slider, { pointerId: 2, clientX: 22, clientY: 300 });
    // The handle's range (256 - 44 = 212 px) is the piece's (320 - 50 = 270 image px): 106 px = 135 image px.
    fireEvent.pointerMove(slider, { pointerId: 2, clientX: 128, clientY: 292 });
    expect(slider).toHaveAttribute('aria-valuetext', '135, 30');
    // Past the end: the piece stops at the picture's edge.
    fireEvent.pointerMove(slider, { pointerId: 2, clientX: 900, clientY: -500 });
    expect(slider).toHaveAttribute('aria-valuetext', '270, 0');
  });

  it('sends a keyboard answer with one trail point per key press', async () => {
    render(
      <I18nextProvider i18n={i18n}>
        <SlideCaptcha visible onClose={() => {}} onSuccess={() => {}} />
      </I18nextProvider>,
    );
    const slider = await screen.findByRole('slider');
    await vi.waitFor(() => expect(slider).toHaveAttribute('aria-valuemax', '320'));
    fireEvent.keyDown(slider, { key: 'ArrowRight', shiftKey: true });
    fireEvent.keyDown(slider, { key: 'ArrowRight' });
    fireEvent.keyDown(slider, { key: 'ArrowDown', shiftKey: true });
    await act(async () => {
      fireEvent.keyDown(slider, { key: 'Enter' });
    });
    const answer = api.verifyGeetest.mock.calls[0]![0] as { x: number; y: number; trail: string };
    expect(answer).toMatchObject({ x: 11, y: 50 });
    const points = parse(answer.trail).map((p) => [p.x, p.y]);
    expect(points.slice(0, 4)).toEqual([
      [0, 40],
      [10, 40],
      [11, 40],
      [11, 50],
    ]);
    expect(points[points.length - 1]).toEqual([11, 50]);
  });
});

describe('SlideCaptcha helpers', () => {
  const ch = { width: 320, height: 180, pieceSize: 50 };

  it('maps a drag in CSS px to image px and keeps the piece inside the picture', () => {
    expect(dragPiece({ x: 0, y: 40 }, 80, 40, { pxPerImagePx: 0.8, xGain: 1.25 }, ch)).toEqual({ x: 100, y: 90 });
    expect(dragPiece({ x: 0, y: 40 }, -30, -100, { pxPerImagePx: 0.8, xGain: 1.25 }, ch)).toEqual({ x: 0, y: 0 });
    expect(dragPiece({ x: 0, y: 40 }, 1000, 1000, { pxPerImagePx: 0.8, xGain: 1.25 }, ch)).toEqual({ x: 270, y: 130 });
  });

  it('rounds samples, never lets time go back, skips repeats and thins long trails', () => {
    let trail = addTrailPoint([], { x: 0.4, y: 40.6 }, 0);
    trail = addTrailPoint(trail, { x: 3.6, y: 41 }, 15.7);
    trail = addTrailPoint(trail, { x: 3.6, y: 41 }, 15.7);
    trail = addTrailPoint(trail, { x: 5, y: 41 }, 10);
    expect(formatTrail(trail)).toBe('0,41,0;4,41,16;5,41,16');
    for (let i = 0; i < 2000; i++) trail = addTrailPoint(trail, { x: i % 300, y: 41 }, 20 + i);
    expect(trail.length).toBeLessThanOrEqual(TRAIL_MAX_POINTS);
    expect(trail[0]).toEqual({ x: 0, y: 41, t: 0 });
    expect(trail[trail.length - 1]).toEqual({ x: 1999 % 300, y: 41, t: 2019 });
  });
});
