/**
 * The slide puzzle behind the geetest-shaped calls (spec sections 3 and 7): loads a puzzle
 * (background with a hole and the piece), the user drags the slider until the piece fills the hole,
 * the offset in image pixels goes to geetestVerify, and the resulting pass is handed to `onSuccess`.
 * Keyboard: arrow keys move the slider (Shift = 10 px), Enter submits. A wrong answer loads a new
 * puzzle.
 */
import { useCallback, useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { CenterPopup, SpinLoading } from 'antd-mobile';
import { CloseOutline, RedoOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import type { GeetestChallenge, GeetestResult } from '@exchange/api';
import { fetchGeetestCode, verifyGeetest } from '../api/captcha';
import './captcha.css';

/** Displayed puzzle width in CSS px. */
const DISPLAY_W = 288;
/** Slider handle width in CSS px. */
const HANDLE_W = 44;

/** A random client code identifying the puzzle request (spec "randomCode"). */
export function newRandomCode(): string {
  const c = globalThis.crypto;
  if (c && 'randomUUID' in c) return c.randomUUID().replace(/-/g, '');
  return Array.from({ length: 32 }, () => Math.floor(Math.random() * 16).toString(16)).join('');
}

/** Slider offset (CSS px of the handle) -> piece offset in image px. */
export function sliderToImageX(offset: number, ch: Pick<GeetestChallenge, 'width' | 'pieceSize'>): number {
  const scale = DISPLAY_W / ch.width;
  const pieceW = ch.pieceSize * scale;
  const maxHandle = DISPLAY_W - HANDLE_W;
  const pieceLeft = maxHandle > 0 ? (offset * (DISPLAY_W - pieceW)) / maxHandle : 0;
  return Math.max(0, Math.round(pieceLeft / scale));
}

/** Props of SlideCaptcha. */
export interface SlideCaptchaProps {
  visible: boolean;
  onClose: () => void;
  onSuccess: (pass: GeetestResult) => void;
}

/** The puzzle popup. */
export function SlideCaptcha({ visible, onClose, onSuccess }: SlideCaptchaProps) {
  const { t } = useTranslation('account');
  const [ch, setCh] = useState<GeetestChallenge | null>(null);
  const [randomCode, setRandomCode] = useState('');
  const [offset, setOffset] = useState(0);
  const [state, setState] = useState<'loading' | 'ready' | 'checking' | 'failed' | 'passed'>('loading');
  const drag = useRef<{ startX: number; startOffset: number } | null>(null);

  const load = useCallback(async () => {
    setState('loading');
    setOffset(0);
    const code = newRandomCode();
    setRandomCode(code);
    try {
      setCh(await fetchGeetestCode(code));
      setState('ready');
    } catch {
      setState('failed');
    }
  }, []);

  useEffect(() => {
    if (visible) void load();
    else setCh(null);
  }, [visible, load]);

  const maxHandle = DISPLAY_W - HANDLE_W;
  const clamp = (v: number) => Math.min(maxHandle, Math.max(0, v));

  const submit = async (finalOffset: number) => {
    if (!ch || state !== 'ready') return;
    setState('checking');
    try {
      const pass = await verifyGeetest(ch.challenge, sliderToImageX(finalOffset, ch), randomCode);
      setState('passed');
      setTimeout(() => onSuccess(pass), 250);
    } catch {
      // Toast already shown by the API client; a new puzzle replaces the used one.
      setTimeout(() => void load(), 600);
    }
  };

  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (state !== 'ready') return;
    (e.target as HTMLElement).setPointerCapture?.(e.pointerId);
    drag.current = { startX: e.clientX, startOffset: offset };
  };
  const onPointerMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    setOffset(clamp(drag.current.startOffset + e.clientX - drag.current.startX));
  };
  const onPointerUp = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    const final = clamp(drag.current.startOffset + e.clientX - drag.current.startX);
    drag.current = null;
    setOffset(final);
    void submit(final);
  };

  const scale = ch ? DISPLAY_W / ch.width : 1;
  const pieceW = ch ? ch.pieceSize * scale : 0;
  const pieceLeft = ch && maxHandle > 0 ? (offset * (DISPLAY_W - pieceW)) / maxHandle : 0;

  return (
    <CenterPopup visible={visible} onMaskClick={onClose} bodyClassName="ex-captcha-body" destroyOnClose>
      <div role="dialog" aria-label={t('captcha.title')} className="ex-captcha">
        <div className="ex-captcha-head">
          <span>{t('captcha.title')}</span>
          <span className="ex-captcha-tools">
            <button type="button" aria-label={t('captcha.refresh')} onClick={() => void load()}>
              <RedoOutline />
            </button>
            <button type="button" aria-label={t('common:close')} onClick={onClose}>
              <CloseOutline />
            </button>
          </span>
        </div>
        <div className="ex-captcha-img" style={{ width: DISPLAY_W, height: ch ? ch.height * scale : 160 }}>
          {ch ? (
            <>
              <img src={ch.bgImage} alt="" width={DISPLAY_W} height={ch.height * scale} draggable={false} />
              <img
                src={ch.pieceImage}
                alt=""
                draggable={false}
                className="ex-captcha-piece"
                style={{ left: pieceLeft, top: ch.pieceY * scale, width: pieceW, height: pieceW }}
              />
            </>
          ) : (
            <div className="ex-captcha-loading">{state === 'failed' ? t('captcha.loadFailed') : <SpinLoading />}</div>
          )}
          {state === 'passed' && <div className="ex-captcha-ok">{t('captcha.passed')}</div>}
        </div>
        <div className={`ex-captcha-track ${state}`} style={{ width: DISPLAY_W }}>
          <div className="ex-captcha-fill" style={{ width: offset + HANDLE_W / 2 }} />
          <span className="ex-captcha-tip">{t('captcha.drag')}</span>
          <div
            role="slider"
            tabIndex={0}
            aria-label={t('captcha.drag')}
            aria-valuemin={0}
            aria-valuemax={ch?.width ?? 0}
            aria-valuenow={ch ? sliderToImageX(offset, ch) : 0}
            className="ex-captcha-handle"
            style={{ left: offset, width: HANDLE_W }}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onPointerCancel={onPointerUp}
            onKeyDown={(e) => {
              if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
                e.preventDefault();
                const step = e.shiftKey ? 10 : 1;
                setOffset((o) => clamp(o + (e.key === 'ArrowRight' ? step : -step)));
              } else if (e.key === 'Enter') {
                e.preventDefault();
                void submit(offset);
              }
            }}
          >
            ⟩⟩
          </div>
        </div>
      </div>
    </CenterPopup>
  );
}
