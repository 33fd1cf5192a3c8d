/**
 * An attacker's scripted solver of our slide puzzle, for tests that report how well a simple bot does. It reads
 * the two PNGs the API hands out (background with the gap, piece with its alpha outline) and scores every
 * position of the piece's own shape on the background, as a first script from the web would:
 * - `darkest`: lowest mean luminance inside the piece's shape (the gap is shaded);
 * - `contrast`: the biggest step from a thin ring just outside the shape to its inside (the gap's border);
 * - `edges`: the strongest gradient along the shape's outline (Sobel magnitude);
 * - `ncc`: normalised cross-correlation of the piece's pixels with the background under the shape (the piece is
 *   cut from the gap, so a darkened copy still correlates).
 * Coarse scan on a 2 px grid, then a 1 px refinement around the best coarse positions. `humanTrail` makes a
 * synthetic, human-looking drag (minimum-jerk speed profile, a curved path, sensor jitter), so the trail check
 * does not stop it: the trail check is there for naive bots only.
 */
import sharp from 'sharp';

/** A decoded image: luminance (0-255) per pixel, row-major. */
interface Gray {
  w: number;
  h: number;
  lum: Float32Array;
}

/** The piece as offsets of its pixels: inside (eroded by 2 px, away from any drawn outline), ring just outside, outline. */
interface Shape {
  size: number;
  inside: Array<[number, number]>;
  ring: Array<[number, number]>;
  outline: Array<[number, number]>;
  /** Piece luminance at each `inside` offset. */
  insideLum: Float32Array;
}

/** Scorer names. */
export const SOLVERS = ['darkest', 'contrast', 'edges', 'ncc'] as const;
/** One scorer. */
export type SolverName = (typeof SOLVERS)[number];

function lumOf(r: number, g: number, b: number): number {
  return 0.299 * r + 0.587 * g + 0.114 * b;
}

async function decode(png: Buffer): Promise<{ w: number; h: number; rgba: Buffer }> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { w: info.width, h: info.height, rgba: data };
}

function dataUrlPng(dataUrl: string): Buffer {
  return Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
}

async function grayOf(png: Buffer): Promise<Gray> {
  const { w, h, rgba } = await decode(png);
  const lum = new Float32Array(w * h);
  for (let i = 0; i < w * h; i++) lum[i] = lumOf(rgba[4 * i]!, rgba[4 * i + 1]!, rgba[4 * i + 2]!);
  return { w, h, lum };
}

async function shapeOf(png: Buffer): Promise<Shape> {
  const { w, h, rgba } = await decode(png);
  const solid = (x: number, y: number) => x >= 0 && y >= 0 && x < w && y < h && rgba[4 * (y * w + x) + 3]! > 128;
  const within = (x: number, y: number, r: number, want: boolean) => {
    for (let dy = -r; dy <= r; dy++) for (let dx = -r; dx <= r; dx++) if (solid(x + dx, y + dy) === want) return true;
    return false;
  };
  const inside: Array<[number, number]> = [];
  const ring: Array<[number, number]> = [];
  const outline: Array<[number, number]> = [];
  const insideLum: number[] = [];
  for (let y = -3; y < h + 3; y++)
    for (let x = -3; x < w + 3; x++) {
      if (solid(x, y)) {
        if (!within(x, y, 1, false)) {
          if (!within(x, y, 2, false) && (x + y) % 2 === 0) {
            inside.push([x, y]);
            const i = 4 * (y * w + x);
            insideLum.push(lumOf(rgba[i]!, rgba[i + 1]!, rgba[i + 2]!));
          }
        } else outline.push([x, y]);
      } else if (within(x, y, 2, true)) ring.push([x, y]);
    }
  return { size: Math.max(w, h), inside, ring, outline, insideLum: Float32Array.from(insideLum) };
}

function sobel(g: Gray): Float32Array {
  const { w, h, lum } = g;
  const out = new Float32Array(w * h);
  for (let y = 1; y < h - 1; y++)
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const gx = lum[i - w + 1]! + 2 * lum[i + 1]! + lum[i + w + 1]! - lum[i - w - 1]! - 2 * lum[i - 1]! - lum[i + w - 1]!;
      const gy = lum[i + w - 1]! + 2 * lum[i + w]! + lum[i + w + 1]! - lum[i - w - 1]! - 2 * lum[i - w]! - lum[i - w + 1]!;
      out[i] = Math.sqrt(gx * gx + gy * gy);
    }
  return out;
}

/** A copy of `a` (w x h) with PAD px of edge-replicated border, so that scoring needs no bounds checks. */
const PAD = 4;
function padded(w: number, h: number, a: Float32Array): { pw: number; data: Float32Array } {
  const pw = w + 2 * PAD;
  const data = new Float32Array(pw * (h + 2 * PAD));
  for (let y = -PAD; y < h + PAD; y++)
    for (let x = -PAD; x < w + PAD; x++) data[(y + PAD) * pw + x + PAD] = a[Math.min(h - 1, Math.max(0, y)) * w + Math.min(w - 1, Math.max(0, x))]!;
  return { pw, data };
}

function offsets(list: Array<[number, number]>, pw: number): Int32Array {
  return Int32Array.from(list.map(([dx, dy]) => (dy + PAD) * pw + dx + PAD));
}

function mean(data: Float32Array, base: number, offs: Int32Array): number {
  let sum = 0;
  for (let i = 0; i < offs.length; i++) sum += data[base + offs[i]!]!;
  return sum / offs.length;
}

/** Builds the scorer of `kind` over a background: (x, y) -> higher is more likely the gap. */
function scorer(kind: SolverName, g: Gray, edges: Float32Array, s: Shape): (x: number, y: number) => number {
  const lum = padded(g.w, g.h, g.lum);
  const grad = padded(g.w, g.h, edges);
  const pw = lum.pw;
  const inside = offsets(s.inside, pw);
  const ring = offsets(s.ring, pw);
  const outline = offsets(s.outline, pw);
  const a = s.insideLum;
  const n = a.length;
  let sa = 0;
  let saa = 0;
  for (let i = 0; i < n; i++) {
    sa += a[i]!;
    saa += a[i]! * a[i]!;
  }
  const va = saa - (sa * sa) / n;
  return (x, y) => {
    const base = y * pw + x;
    if (kind === 'darkest') return -mean(lum.data, base, inside);
    if (kind === 'contrast') return mean(lum.data, base, ring) - mean(lum.data, base, inside);
    if (kind === 'edges') return mean(grad.data, base, outline);
    let sb = 0;
    let sbb = 0;
    let sab = 0;
    for (let i = 0; i < n; i++) {
      const b = lum.data[base + inside[i]!]!;
      sb += b;
      sbb += b * b;
      sab += a[i]! * b;
    }
    const vb = sbb - (sb * sb) / n;
    return va <= 0 || vb <= 0 ? -1 : (sab - (sa * sb) / n) / Math.sqrt(va * vb);
  };
}

/** What the solver gets: the challenge's images, and the row when the puzzle is horizontal only. */
export interface SolverInput {
  bgImage: string;
  pieceImage: string;
  /** When set, only this row is searched (a horizontal-only slider); otherwise every row. */
  row?: number;
}

/** The solver's answers, one per scorer: the piece's top-left corner in image px. */
export type SolverAnswers = Record<SolverName, { x: number; y: number }>;

/** Runs every scorer on one challenge and returns each one's best position. */
export async function solvePuzzle(input: SolverInput): Promise<SolverAnswers> {
  const g = await grayOf(dataUrlPng(input.bgImage));
  const shape = await shapeOf(dataUrlPng(input.pieceImage));
  const edges = sobel(g);
  const maxX = g.w - shape.size;
  const maxY = g.h - shape.size;
  const rows = input.row === undefined ? { from: 0, to: maxY } : { from: input.row, to: input.row };
  const out = {} as SolverAnswers;
  for (const kind of SOLVERS) {
    const score = scorer(kind, g, edges, shape);
    const coarse: Array<{ x: number; y: number; v: number }> = [];
    for (let y = rows.from; y <= rows.to; y += 2) for (let x = 0; x <= maxX; x += 2) coarse.push({ x, y, v: score(x, y) });
    coarse.sort((a, b) => b.v - a.v);
    let best = coarse[0]!;
    for (const c of coarse.slice(0, 6))
      for (let y = Math.max(rows.from, c.y - 2); y <= Math.min(rows.to, c.y + 2); y++)
        for (let x = Math.max(0, c.x - 2); x <= Math.min(maxX, c.x + 2); x++) {
          const v = score(x, y);
          if (v > best.v) best = { x, y, v };
        }
    out[kind] = { x: best.x, y: best.y };
  }
  return out;
}

/** A trail point: piece position in image px and ms since the drag began. */
export interface TrailPoint {
  x: number;
  y: number;
  t: number;
}

/**
 * A synthetic human-like drag from (x0, y0) to (x1, y1): 600-1400 ms, minimum-jerk speed profile, samples every
 * 12-20 ms, a sideways bulge of 3-8 px and ±1 px jitter, ending exactly on the target. `rand` gives numbers in [0, 1).
 */
export function humanTrail(from: { x: number; y: number }, to: { x: number; y: number }, rand: () => number = Math.random): TrailPoint[] {
  const duration = 600 + rand() * 800;
  // A sideways bulge of 3-8 px to either side: a hand's drag is never ruler-straight, and a bulge near 0 px would
  // make this trail fail the trail check's straight-line rule now and then (the attacker modelled here avoids that).
  const bulge = (rand() < 0.5 ? -1 : 1) * (3 + rand() * 5);
  const len = Math.hypot(to.x - from.x, to.y - from.y) || 1;
  const nx = -(to.y - from.y) / len;
  const ny = (to.x - from.x) / len;
  const pts: TrailPoint[] = [];
  for (let t = 0; t < duration; t += 12 + rand() * 8) {
    const u = t / duration;
    const s = 10 * u ** 3 - 15 * u ** 4 + 6 * u ** 5;
    const side = bulge * Math.sin(Math.PI * u);
    pts.push({
      x: Math.round(from.x + (to.x - from.x) * s + nx * side + (rand() - 0.5) * 2),
      y: Math.round(from.y + (to.y - from.y) * s + ny * side + (rand() - 0.5) * 2),
      t: Math.round(t),
    });
  }
  pts[0] = { x: from.x, y: from.y, t: 0 };
  pts.push({ x: to.x, y: to.y, t: Math.round(duration) });
  return pts;
}
