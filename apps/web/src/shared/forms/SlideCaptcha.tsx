/**
 * The slide puzzle behind the geetest-shaped calls (spec sections 3 and 7): loads a puzzle (background with gaps,
 * and the piece that starts at the left edge), the user drags the piece into the gap of the same outline, and the
 * piece's place in image pixels (x and y) goes to geetestVerify with the drag's trail (the server
 * checks that a hand moved it). The resulting pass is handed to `onSuccess`; a wrong answer loads a new puzzle.
 *
 * Dragging: on the slider handle (the piece follows in x as the handle does, and in y as the finger moves up or
 * down) or anywhere on the picture (the piece follows the finger). Keyboard: arrow keys move the piece (Shift = 10
 * px), Enter submits. The picture scales to the dialog's width (the dialog fits 320 px wide screens), so
 * every position on screen is converted to image pixels.
 */
import { useCallback, useEffect, useRef, useState, type CSSProperties, type KeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { CenterPopup, SpinLoading } from 'antd-mobile';
import { CloseOutline, RedoOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import type { GeetestChallenge, GeetestResult } from '@exchange/api';
import { fetchGeetestCode, verifyGeetest } from './captcha-api';
import './captcha.css';

/** Slider handle width in CSS px. */
const HANDLE_W = 44;
/** Most trail points sent (the server takes up to 600): longer drags are thinned out. */
export const TRAIL_MAX_POINTS = 500;

/** A random client code identifying the puzzle request (spec "randomCode"). */
export function newRandomCode(): string {
  const c = globalThis.crypto;
  if (c && 'randomUUID' in c) return c.randomUUID().replace(/-/g, '');
  return Array.from({ length: 32 }, () => Math.floor(Math.random() * 16).toString(16)).join('');
}

/** The piece's place: its top-left corner in image px. */
export interface PiecePos {
  x: number;
  y: number;
}

/** One trail sample: the piece's place (image px, whole) and ms since the drag began. */
export interface TrailPoint extends PiecePos {
  t: number;
}

/** The piece kept inside the picture. */
export function clampPiece(p: PiecePos, ch: Pick<GeetestChallenge, 'width' | 'height' | 'pieceSize'>): PiecePos {
  return { x: Math.min(ch.width - ch.pieceSize, Math.max(0, p.x)), y: Math.min(ch.height - ch.pieceSize, Math.max(0, p.y)) };
}

/**
 * Where a drag puts the piece: from `start` (image px), the pointer moved `dx`, `dy` CSS px; `pxPerImagePx` is the
 * picture's scale and `xGain` the image px per CSS px in x (the handle's: the piece's range over the handle's).
 */
export function dragPiece(
  start: PiecePos,
  dx: number,
  dy: number,
  scale: { pxPerImagePx: number; xGain: number },
  ch: Pick<GeetestChallenge, 'width' | 'height' | 'pieceSize'>,
): PiecePos {
  return clampPiece({ x: start.x + dx * scale.xGain, y: start.y + dy / scale.pxPerImagePx }, ch);
}

/** Appends a sample (whole px, whole ms, never earlier than the last), thinning the trail past TRAIL_MAX_POINTS. */
export function addTrailPoint(trail: TrailPoint[], p: PiecePos, t: number): TrailPoint[] {
  const last = trail[trail.length - 1];
  const point = { x: Math.round(p.x), y: Math.round(p.y), t: Math.max(last?.t ?? 0, Math.round(t)) };
  if (last && last.x === point.x && last.y === point.y && last.t === point.t) return trail;
  const next = [...trail, point];
  if (next.length <= TRAIL_MAX_POINTS) return next;
  return next.filter((_, i) => i === 0 || i === next.length - 1 || i % 2 === 0);
}

/** The wire form of a trail: "x,y,t;x,y,t;...". */
export function formatTrail(trail: readonly TrailPoint[]): string {
  return trail.map((p) => `${p.x},${p.y},${p.t}`).join(';');
}

/** Props of SlideCaptcha. */
export interface SlideCaptchaProps {
  visible: boolean;
  onClose: () => void;
  onSuccess: (pass: GeetestResult) => void;
}

interface Drag {
  pointerX: number;
  pointerY: number;
  from: PiecePos;
  scale: { pxPerImagePx: number; xGain: number };
}

/** The puzzle popup. */
export function SlideCaptcha({ visible, onClose, onSuccess }: SlideCaptchaProps) {
  const { t } = useTranslation('account');
  const [ch, setCh] = useState<GeetestChallenge | null>(null);
  const [randomCode, setRandomCode] = useState('');
  const [pos, setPos] = useState<PiecePos>({ x: 0, y: 0 });
  const [state, setState] = useState<'loading' | 'ready' | 'checking' | 'failed' | 'passed'>('loading');
  const drag = useRef<Drag | null>(null);
  const trail = useRef<TrailPoint[]>([]);
  const startedAt = useRef(0);
  const imgRef = useRef<HTMLDivElement>(null);
  const trackRef = useRef<HTMLDivElement>(null);

  const load = useCallback(async () => {
    setState('loading');
    drag.current = null;
    trail.current = [];
    const code = newRandomCode();
    setRandomCode(code);
    try {
      const next = await fetchGeetestCode(code);
      setCh(next);
      setPos({ x: 0, y: next.pieceY });
      setState('ready');
    } catch {
      setState('failed');
    }
  }, []);

  useEffect(() => {
    if (visible) void load();
    else setCh(null);
  }, [visible, load]);

  /** Starts the trail at the piece's start (the first move of a drag or the first key press). */
  const beginTrail = (from: PiecePos) => {
    if (trail.current.length === 0) {
      startedAt.current = performance.now();
      trail.current = addTrailPoint([], from, 0);
    }
  };
  const record = (p: PiecePos) => {
    trail.current = addTrailPoint(trail.current, p, performance.now() - startedAt.current);
  };

  const submit = async (final: PiecePos) => {
    if (!ch || state !== 'ready') return;
    setState('checking');
    const x = Math.round(final.x);
    const y = Math.round(final.y);
    record({ x, y });
    try {
      const pass = await verifyGeetest({ challenge: ch.challenge, x, y, trail: formatTrail(trail.current), randomCode });
      setState('passed');
      setTimeout(() => onSuccess(pass), 250);
    } catch {
      // Toast already shown by the API client; a new puzzle replaces the used one.
      setTimeout(() => void load(), 600);
    }
  };

  /** The picture's scale and the handle's gain, measured now (the dialog may have been resized). */
  const measure = (): Drag['scale'] => {
    if (!ch) return { pxPerImagePx: 1, xGain: 1 };
    const imgW = imgRef.current?.getBoundingClientRect().width || ch.width;
    const trackW = trackRef.current?.getBoundingClientRect().width || imgW;
    const pxPerImagePx = imgW / ch.width;
    const handleRange = trackW - HANDLE_W;
    return { pxPerImagePx, xGain: handleRange > 0 ? (ch.width - ch.pieceSize) / handleRange : 1 / pxPerImagePx };
  };

  const onPointerDown = (onHandle: boolean) => (e: ReactPointerEvent<HTMLDivElement>) => {
    if (state !== 'ready' || !ch || drag.current) return;
    (e.currentTarget as HTMLElement).setPointerCapture?.(e.pointerId);
    const scale = measure();
    // On the picture the piece follows the finger one to one; on the handle, x follows the handle.
    drag.current = { pointerX: e.clientX, pointerY: e.clientY, from: pos, scale: onHandle ? scale : { ...scale, xGain: 1 / scale.pxPerImagePx } };
    beginTrail(pos);
  };
  const where = (e: ReactPointerEvent<HTMLDivElement>): PiecePos | null => {
    const d = drag.current;
    if (!d || !ch) return null;
    return dragPiece(d.from, e.clientX - d.pointerX, e.clientY - d.pointerY, d.scale, ch);
  };
  const onPointerMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    const p = where(e);
    if (!p) return;
    setPos(p);
    record(p);
  };
  const onPointerUp = (e: ReactPointerEvent<HTMLDivElement>) => {
    const p = where(e);
    if (!p) return;
    drag.current = null;
    setPos(p);
    void submit(p);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!ch || state !== 'ready') return;
    const step = e.shiftKey ? 10 : 1;
    const moves: Record<string, [number, number]> = { ArrowRight: [step, 0], ArrowLeft: [-step, 0], ArrowDown: [0, step], ArrowUp: [0, -step] };
    const move = moves[e.key];
    if (move) {
      e.preventDefault();
      beginTrail(pos);
      const p = clampPiece({ x: pos.x + move[0], y: pos.y + move[1] }, ch);
      setPos(p);
      record(p);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      beginTrail(pos);
      void submit(pos);
    }
  };

  // Positions as fractions, so that the picture scales with the dialog without measuring it.
  const pct = (v: number, of: number) => `${(100 * v) / of}%`;
  const handleFraction = ch ? pos.x / Math.max(1, ch.width - ch.pieceSize) : 0;
  const handleLeft = `calc(${handleFraction} * (100% - ${HANDLE_W}px))`;
  const dragHandlers = (onHandle: boolean) => ({
    onPointerDown: onPointerDown(onHandle),
    onPointerMove,
    onPointerUp,
    onPointerCancel: onPointerUp,
  });

  return (
    <CenterPopup
      visible={visible}
      onMaskClick={onClose}
      bodyClassName="ex-captcha-body"
      style={{ '--min-width': 'min(92vw, 400px)', '--max-width': 'min(92vw, 400px)' } as CSSProperties}
      destroyOnClose
    >
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
        <p className="ex-captcha-hint">{t('captcha.hint')}</p>
        <div ref={imgRef} className="ex-captcha-img" style={{ aspectRatio: ch ? `${ch.width} / ${ch.height}` : '16 / 9' }} {...dragHandlers(false)}>
          {ch ? (
            <>
              <img src={ch.bgImage} alt="" draggable={false} className="ex-captcha-bg" />
              <img
                src={ch.pieceImage}
                alt=""
                draggable={false}
                className="ex-captcha-piece"
                style={{ left: pct(pos.x, ch.width), top: pct(pos.y, ch.height), width: pct(ch.pieceSize, ch.width) }}
              />
            </>
          ) : (
            <div className="ex-captcha-loading">{state === 'failed' ? t('captcha.loadFailed') : <SpinLoading />}</div>
          )}
          {state === 'passed' && <div className="ex-captcha-ok">{t('captcha.passed')}</div>}
        </div>
        <div ref={trackRef} className={`ex-captcha-track ${state}`}>
          <div className="ex-captcha-fill" style={{ width: `calc(${handleLeft} + ${HANDLE_W / 2}px)` }} />
          <span className="ex-captcha-tip">{t('captcha.drag')}</span>
          <div
            role="slider"
            tabIndex={0}
            aria-label={t('captcha.drag')}
            aria-valuemin={0}
            aria-valuemax={ch?.width ?? 0}
            aria-valuenow={ch ? Math.round(pos.x) : 0}
            aria-valuetext={ch ? `${Math.round(pos.x)}, ${Math.round(pos.y)}` : undefined}
            className="ex-captcha-handle"
            style={{ left: handleLeft, width: HANDLE_W }}
            {...dragHandlers(true)}
            onKeyDown={onKeyDown}
          >
            ⟩⟩
          </div>
        </div>
      </div>
    </CenterPopup>
  );
}
