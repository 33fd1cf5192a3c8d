/**
 * The invitation poster (spec sections 2 "share poster popup", 9 "poster canvas 375x667 design units"): a canvas of
 * 375 x 667 design units, drawn at `scale` pixels per unit (2 by default: a 750 x 1334 PNG), with the app's name, the
 * rebate offer, a QR code of the invitation link (the `qrcode` package, drawn in the browser) and the invitation
 * code. Colours are fixed (a poster looks the same in the day and night themes). Rejects when the browser cannot
 * draw (no 2D canvas context, or the QR cannot be made): the caller shows 'poster generation failed'.
 */
import QRCode from 'qrcode';

/** Poster size in design units (spec section 9). */
export const POSTER_W = 375;
export const POSTER_H = 667;
/** QR code side and top in design units. */
export const POSTER_QR = 176;
const QR_TOP = 214;

/** The texts on the poster, in the user's language. */
export interface PosterTexts {
  appName: string;
  headline: string;
  subline: string;
  codeLabel: string;
  code: string;
  scanHint: string;
  link: string;
  footer: string;
}

function roundRect(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, r: number): void {
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}

/** `text` shortened with an ellipsis to fit `maxW` design units in the current font. */
function fit(ctx: CanvasRenderingContext2D, text: string, maxW: number): string {
  if (ctx.measureText(text).width <= maxW) return text;
  let s = text;
  while (s.length > 1 && ctx.measureText(`${s}…`).width > maxW) s = s.slice(0, -1);
  return `${s}…`;
}

/** Draws the poster and returns it as a PNG data: URL (see the file comment). */
export async function renderPoster(texts: PosterTexts, scale = 2): Promise<string> {
  const canvas = document.createElement('canvas');
  canvas.width = POSTER_W * scale;
  canvas.height = POSTER_H * scale;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('poster: no 2D canvas');
  const qr = document.createElement('canvas');
  await QRCode.toCanvas(qr, texts.link, { width: POSTER_QR * scale, margin: 1, errorCorrectionLevel: 'M', color: { dark: '#111827', light: '#ffffff' } });
  ctx.scale(scale, scale);
  // Background.
  const bg = ctx.createLinearGradient(0, 0, 0, POSTER_H);
  bg.addColorStop(0, '#14215c');
  bg.addColorStop(1, '#3b5bdb');
  ctx.fillStyle = bg;
  ctx.fillRect(0, 0, POSTER_W, POSTER_H);
  ctx.textAlign = 'center';
  ctx.textBaseline = 'alphabetic';
  const font = (px: number, weight = 400) => `${weight} ${px}px -apple-system, "PingFang SC", "Noto Sans CJK SC", "Microsoft YaHei", sans-serif`;
  ctx.fillStyle = 'rgba(255,255,255,0.85)';
  ctx.font = font(18, 600);
  ctx.fillText(fit(ctx, texts.appName, 320), POSTER_W / 2, 56);
  ctx.fillStyle = '#ffffff';
  // The headline shrinks (28 down to 18 units) until it fits the width, then is cut with an ellipsis.
  let size = 28;
  ctx.font = font(size, 700);
  while (size > 18 && ctx.measureText(texts.headline).width > 335) ctx.font = font(--size, 700);
  ctx.fillText(fit(ctx, texts.headline, 335), POSTER_W / 2, 112);
  ctx.fillStyle = '#ffd66b';
  ctx.font = font(14, 500);
  ctx.fillText(fit(ctx, texts.subline, 335), POSTER_W / 2, 146);
  // The card with the QR code and the code.
  ctx.fillStyle = '#ffffff';
  roundRect(ctx, 36, 186, POSTER_W - 72, 392, 18);
  ctx.fill();
  ctx.drawImage(qr, (POSTER_W - POSTER_QR) / 2, QR_TOP, POSTER_QR, POSTER_QR);
  ctx.fillStyle = '#6b7280';
  ctx.font = font(13);
  ctx.fillText(fit(ctx, texts.codeLabel, 280), POSTER_W / 2, 432);
  ctx.fillStyle = '#111827';
  ctx.font = font(30, 700);
  ctx.fillText(texts.code.split('').join(' '), POSTER_W / 2, 472);
  ctx.fillStyle = '#374151';
  ctx.font = font(13);
  ctx.fillText(fit(ctx, texts.scanHint, 280), POSTER_W / 2, 512);
  ctx.fillStyle = '#9ca3af';
  ctx.font = font(10);
  ctx.fillText(fit(ctx, texts.link, 280), POSTER_W / 2, 548);
  ctx.fillStyle = 'rgba(255,255,255,0.7)';
  ctx.font = font(11);
  ctx.fillText(fit(ctx, texts.footer, 335), POSTER_W / 2, 630);
  return canvas.toDataURL('image/png');
}
