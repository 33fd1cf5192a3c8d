/**
 * Renders the slide puzzle with sharp (libvips). A pixel-matching script solved every puzzle of
 * the former renderer (one fixed piece outline, a flat dark overlay showing the background under it, the gap on the
 * piece's own row), so what an attacker's first script keys on is now randomised (CSPRNG):
 * - the piece's outline: one of three families (jigsaw sides with tabs and blanks, a rounded body with tabs, a
 *   lobed blob), random knob sizes and places, a random size in [minPieceSize, maxPieceSize], and the piece drawn
 *   up to 3 px bigger or smaller than its gap (its outline lies beside the gap's, not on it);
 * - the gap's place: anywhere right of the piece in x, on any row; the piece starts at the left edge on another
 *   row, so the answer has two coordinates (x and y): a blind guess has far less chance than on one row;
 * - two decoy gaps, mostly near twins of the piece (one side different), shaded from the same distribution as the
 *   real one, and two near twins drawn as coloured lines only, so the darkest, most contrasted or best-outlined place
 *   is often wrong;
 * - every gap is a blurred, darkened copy of the background under a random cloudy texture and noise (not a flat
 *   overlay: correlating the piece's pixels with it finds little), with an edge of random style (a line of random
 *   colour, strength and width, a double line, or a feathered edge); dark blotches and noise cover the image;
 * - the piece is cut from the clean background with its own brightness/saturation shift and noise.
 * A person matches the piece's outline with the one gap of the same outline. What a script still achieves is
 * measured in captcha.solver.test.ts.
 */
import { randomBytes } from 'node:crypto';
import sharp, { type OverlayOptions } from 'sharp';
import { randomIntIncl } from '../../platform/shared/secrets';

/** Puzzle geometry in image px. */
export const PUZZLE = { width: 320, height: 180, minPieceSize: 44, maxPieceSize: 56 } as const;

/** A piece outline: an SVG path inside a `size` x `size` box, and a signature telling outlines apart. */
export interface PieceShape {
  size: number;
  path: string;
  /** Family and side pattern, e.g. "jigsaw:TBFT"; two shapes with one signature look alike. */
  signature: string;
  params: ShapeParams;
}

/** A gap in the background: its box's top-left corner and its outline. */
export interface Gap {
  x: number;
  y: number;
  shape: PieceShape;
}

/**
 * Where everything goes: the real gap, the decoys, and the piece: `pieceGrowPx` px bigger than the gap on every
 * side (negative: smaller), so that its outline lies a little beside the gap's and matching the exact outline
 * against the background's edges finds less; it starts at x = 0, y = `startY`. The answer is `answerOf(layout)`.
 */
export interface PuzzleLayout {
  gap: Gap;
  pieceGrowPx: number;
  startY: number;
  decoys: Gap[];
  /** Outlines drawn as coloured lines only (no gap), near twins of the piece: they draw edge matching away. */
  traces: Gap[];
}

/** The answer of a layout: where the piece's top-left corner goes (image px), and the piece's size. */
export function answerOf(layout: PuzzleLayout): { x: number; y: number; pieceSize: number } {
  const g = layout.pieceGrowPx;
  return { x: layout.gap.x - g, y: layout.gap.y - g, pieceSize: layout.gap.shape.size + 2 * g };
}

/** A rendered puzzle: PNG images and its layout (the answer is `answerOf(layout)`; startY is shown to the client). */
export interface RenderedPuzzle {
  bgPng: Buffer;
  piecePng: Buffer;
  layout: PuzzleLayout;
}

/** A random number in [0, 1) from the CSPRNG, in steps of 1/10,000. */
function unit(): number {
  return randomIntIncl(0, 9999) / 10_000;
}

function between(a: number, b: number): number {
  return a + (b - a) * unit();
}

function pick<T>(items: readonly T[]): T {
  return items[randomIntIncl(0, items.length - 1)]!;
}

const r1 = (v: number) => Math.round(v * 10) / 10;

type Side = 'F' | 'T' | 'B'; // flat, tab (knob out), blank (knob in)
type Family = 'jigsaw' | 'rounded' | 'blob';

/** What an outline is made from (see sidedPath and blobPath). */
export type ShapeParams =
  | { family: 'jigsaw' | 'rounded'; size: number; knob: number; sides: Side[]; at: number[]; corner: number }
  | { family: 'blob'; size: number; lobes: number; amp: number; phase: number; amp2: number; phase2: number };

/**
 * A body box with four sides (top, right, bottom, left; clockwise) each flat, with a tab or with a blank at
 * fraction `at` of the side, and optionally rounded corners. Tabs are SVG arcs wider than their neck, drawn outward
 * (sweep 1 when going clockwise) or inward for blanks.
 */
function sidedPath(p: Extract<ShapeParams, { family: 'jigsaw' | 'rounded' }>): string {
  const { size, knob, corner } = p;
  const margin = Math.ceil(knob * 1.66) + 1; // how far a knob sticks out of its side, plus 1
  const [top, right, bottom, left] = p.sides as [Side, Side, Side, Side];
  const x0 = left === 'T' ? margin : 1;
  const y0 = top === 'T' ? margin : 1;
  const x1 = size - (right === 'T' ? margin : 1);
  const y1 = size - (bottom === 'T' ? margin : 1);
  const neck = knob * 0.75;
  const parts: string[] = [`M${r1(x0 + corner)},${r1(y0)}`];
  // One side from its start corner to its end corner.
  const side = (i: number, sx: number, sy: number, ex: number, ey: number) => {
    const kind = p.sides[i]!;
    const len = Math.hypot(ex - sx, ey - sy);
    const dx = (ex - sx) / len;
    const dy = (ey - sy) / len;
    if (kind !== 'F') {
      const c = len * p.at[i]!;
      const a = { x: sx + dx * (c - neck), y: sy + dy * (c - neck) };
      const b = { x: sx + dx * (c + neck), y: sy + dy * (c + neck) };
      parts.push(`L${r1(a.x)},${r1(a.y)}`, `A${r1(knob)},${r1(knob)} 0 1,${kind === 'T' ? 1 : 0} ${r1(b.x)},${r1(b.y)}`);
    }
    parts.push(`L${r1(ex)},${r1(ey)}`);
  };
  const arc = (x: number, y: number) => {
    if (corner > 0) parts.push(`A${r1(corner)},${r1(corner)} 0 0,1 ${r1(x)},${r1(y)}`);
  };
  side(0, x0 + corner, y0, x1 - corner, y0);
  arc(x1, y0 + corner);
  side(1, x1, y0 + corner, x1, y1 - corner);
  arc(x1 - corner, y1);
  side(2, x1 - corner, y1, x0 + corner, y1);
  arc(x0, y1 - corner);
  side(3, x0, y1 - corner, x0, y0 + corner);
  arc(x0 + corner, y0);
  parts.push('Z');
  return parts.join(' ');
}

/** A lobed closed curve around the box's centre: r(θ) = R (1 - a + a cos(kθ + φ)) plus a small second harmonic. */
function blobPath(p: Extract<ShapeParams, { family: 'blob' }>): string {
  const radius = p.size / 2 - 1.5;
  const c = p.size / 2;
  const pts: string[] = [];
  for (let i = 0; i < 72; i++) {
    const th = (i / 72) * 2 * Math.PI;
    const r =
      radius * (1 - p.amp - p.amp2 + (p.amp * (1 + Math.cos(p.lobes * th + p.phase))) / 2 + (p.amp2 * (1 + Math.cos((p.lobes + 2) * th + p.phase2))) / 2);
    pts.push(`${i === 0 ? 'M' : 'L'}${r1(c + r * Math.cos(th))},${r1(c + r * Math.sin(th))}`);
  }
  return `${pts.join(' ')} Z`;
}

/** The outline of `params`. */
export function shapeFrom(params: ShapeParams): PieceShape {
  if (params.family === 'blob') return { size: params.size, path: blobPath(params), signature: `blob:${params.lobes}`, params };
  return { size: params.size, path: sidedPath(params), signature: `${params.family}:${params.sides.join('')}`, params };
}

/** Sides of a sided outline are valid with at least two knobs, one of them a tab (rounded outlines: tabs only). */
function validSides(sides: Side[]): boolean {
  return sides.filter((x) => x !== 'F').length >= 2 && sides.includes('T');
}

/** A random piece outline of `size` px: jigsaw, rounded or blob. */
export function randomShape(size: number, family: Family = pick(['jigsaw', 'rounded', 'blob'] as const)): PieceShape {
  if (family === 'blob') {
    return shapeFrom({
      family,
      size,
      lobes: pick([3, 5]),
      amp: between(0.14, 0.24),
      phase: between(0, 2 * Math.PI),
      amp2: between(0, 0.06),
      phase2: between(0, 2 * Math.PI),
    });
  }
  let sides: Side[];
  do sides = [0, 1, 2, 3].map(() => (family === 'rounded' ? pick<Side>(['F', 'T', 'T']) : pick<Side>(['F', 'T', 'B'])));
  while (!validSides(sides));
  const at = [0, 1, 2, 3].map(() => between(0.4, 0.6));
  return shapeFrom({ family, size, knob: size * between(0.1, 0.13), sides, at, corner: family === 'rounded' ? between(4, 8) : 0 });
}

/**
 * A near twin of `shape`: the same outline but for one side (another knob, or none) or, for a blob, the other lobe
 * count. Its other sides line up with the original exactly, so matching the outline's edges scores it almost as
 * well; a person still sees the odd knob.
 */
export function twinShape(shape: PieceShape): PieceShape {
  const p = shape.params;
  if (p.family === 'blob') return shapeFrom({ ...p, lobes: p.lobes === 3 ? 5 : 3 });
  const choices: Side[] = p.family === 'rounded' ? ['F', 'T'] : ['F', 'T', 'B'];
  for (;;) {
    const i = randomIntIncl(0, 3);
    const sides = [...p.sides];
    sides[i] = pick(choices.filter((c) => c !== p.sides[i]));
    if (validSides(sides)) return shapeFrom({ ...p, sides });
  }
}

function overlaps(a: { x: number; y: number; size: number }, b: { x: number; y: number; size: number }, gapPx: number): boolean {
  return a.x < b.x + b.size + gapPx && b.x < a.x + a.size + gapPx && a.y < b.y + b.size + gapPx && b.y < a.y + a.size + gapPx;
}

/**
 * A random layout: the piece's outline and size; the piece `pieceGrowPx` in [-3, 3] px bigger than the gap; the real
 * gap anywhere right of the piece's start column (x in [pieceSize + 4, width - size - 3]) on any row (y in
 * [3, height - size - 3]); the piece starting at x = 0 on a row at least 16 px away from the gap's; two decoy gaps
 * (mostly near twins of the piece, otherwise other outlines; never the piece's own outline at a similar size) and two
 * outline-only traces (near twins), none overlapping another or the start column.
 */
export function randomLayout(): PuzzleLayout {
  const { width: w, height: h, minPieceSize, maxPieceSize } = PUZZLE;
  const size = randomIntIncl(minPieceSize, maxPieceSize);
  const shape = randomShape(size);
  const pieceGrowPx = randomIntIncl(-3, 3);
  const pieceSize = size + 2 * pieceGrowPx;
  const left = pieceSize + 4;
  const gap: Gap = { x: randomIntIncl(left, w - size - 3), y: randomIntIncl(3, h - size - 3), shape };
  let startY: number;
  do startY = randomIntIncl(2, h - pieceSize - 2);
  while (Math.abs(startY - gap.y) < 16);
  const taken: Gap[] = [gap];
  const place = (g: PieceShape): Gap | null => {
    const at: Gap = { x: randomIntIncl(left, w - g.size - 2), y: randomIntIncl(2, h - g.size - 2), shape: g };
    const box = { x: at.x, y: at.y, size: g.size };
    return taken.some((o) => overlaps(box, { x: o.x, y: o.y, size: o.shape.size }, 3)) ? null : at;
  };
  const decoys: Gap[] = [];
  for (let attempt = 0; decoys.length < 2 && attempt < 80; attempt++) {
    // Mostly near twins (one side different), so that matching the outline's edges finds them almost as good as the
    // gap; otherwise any other outline.
    const dShape = randomIntIncl(1, 10) <= 7 ? twinShape(shape) : randomShape(randomIntIncl(minPieceSize, maxPieceSize));
    if (dShape.signature === shape.signature && Math.abs(dShape.size - size) < 6) continue;
    const d = place(dShape);
    if (d) {
      decoys.push(d);
      taken.push(d);
    }
  }
  const traces: Gap[] = [];
  for (let attempt = 0; traces.length < 2 && attempt < 80; attempt++) {
    const t = place(twinShape(shape));
    if (t) {
      traces.push(t);
      taken.push(t);
    }
  }
  return { gap, pieceGrowPx, startY, decoys, traces };
}

function hsl(lightMin = 30, lightMax = 70): string {
  return `hsl(${randomIntIncl(0, 359)},${randomIntIncl(35, 80)}%,${randomIntIncl(lightMin, lightMax)}%)`;
}

/** A random background SVG: a two-colour gradient, random circles, rectangles, triangles, lines and faint dark blotches. */
function backgroundSvg(): string {
  const { width: w, height: h } = PUZZLE;
  const shapes: string[] = [];
  const n = randomIntIncl(16, 26);
  for (let i = 0; i < n; i++) {
    const op = `0.${randomIntIncl(25, 75)}`;
    const kind = randomIntIncl(0, 3);
    const cx = randomIntIncl(0, w);
    const cy = randomIntIncl(0, h);
    if (kind === 0) shapes.push(`<circle cx="${cx}" cy="${cy}" r="${randomIntIncl(6, 40)}" fill="${hsl()}" fill-opacity="${op}"/>`);
    else if (kind === 1)
      shapes.push(
        `<rect x="${cx}" y="${cy}" width="${randomIntIncl(10, 70)}" height="${randomIntIncl(10, 50)}" fill="${hsl()}" fill-opacity="${op}" transform="rotate(${randomIntIncl(0, 89)} ${cx} ${cy})"/>`,
      );
    else if (kind === 2)
      shapes.push(
        `<polygon points="${cx},${cy} ${cx + randomIntIncl(-50, 50)},${cy + randomIntIncl(-50, 50)} ${cx + randomIntIncl(-50, 50)},${cy + randomIntIncl(-50, 50)}" fill="${hsl()}" fill-opacity="${op}"/>`,
      );
    else
      shapes.push(
        `<line x1="${cx}" y1="${cy}" x2="${randomIntIncl(0, w)}" y2="${randomIntIncl(0, h)}" stroke="${hsl()}" stroke-width="${randomIntIncl(1, 4)}" stroke-opacity="${op}"/>`,
      );
  }
  // Dark blotches a little smaller and fainter than gaps, so that darkness alone does not point at a gap.
  for (let i = randomIntIncl(2, 4); i > 0; i--) {
    shapes.push(
      `<ellipse cx="${randomIntIncl(0, w)}" cy="${randomIntIncl(0, h)}" rx="${randomIntIncl(12, 30)}" ry="${randomIntIncl(12, 30)}" fill="#000" fill-opacity="0.${randomIntIncl(15, 35)}"/>`,
    );
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${hsl()}"/><stop offset="1" stop-color="${hsl()}"/></linearGradient></defs>` +
    `<rect width="${w}" height="${h}" fill="url(#g)"/>${shapes.join('')}</svg>`
  );
}

/** The outline as an SVG image, scaled from its `size` box to a `box` px box (default: the same size). */
function shapeSvg(shape: PieceShape, fill: string, stroke = 'none', strokeWidth = 0, box = shape.size): Buffer {
  const k = box / shape.size;
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${box}" height="${box}"><path transform="scale(${k})" d="${shape.path}" fill="${fill}" stroke="${stroke}" stroke-width="${r1(strokeWidth / k)}"/></svg>`,
  );
}

/** A grey noise layer: each pixel a random grey at alpha `alpha` (0-255). */
function noise(width: number, height: number, alpha: number): { input: Buffer; raw: { width: number; height: number; channels: 4 } } {
  const bytes = Buffer.alloc(width * height * 4);
  const grey = randomBytes(width * height);
  for (let i = 0; i < width * height; i++) {
    bytes[4 * i] = grey[i]!;
    bytes[4 * i + 1] = grey[i]!;
    bytes[4 * i + 2] = grey[i]!;
    bytes[4 * i + 3] = alpha;
  }
  return { input: bytes, raw: { width, height, channels: 4 } };
}

/** A soft random texture: a few random grey cells blown up with a smooth kernel, at alpha 0-255. */
async function cloud(size: number, alpha: number): Promise<Buffer> {
  const cells = randomIntIncl(3, 6);
  const small = noise(cells, cells, alpha);
  return sharp(small.input, { raw: small.raw }).resize(size, size, { kernel: 'cubic' }).png().toBuffer();
}

/**
 * One gap drawn from the clean background: blurred, darkened, under a cloudy texture and noise. Its edge has one of
 * three styles chosen independently for every gap (the real one and the decoys alike): a crisp outline of random
 * colour, strength and width; a double line; or no line and a feathered edge (weak gradient along the outline).
 */
async function gapLayer(clean: Buffer, g: Gap): Promise<Buffer> {
  const s = g.shape.size;
  const base = await sharp(clean)
    .extract({ left: g.x, top: g.y, width: s, height: s })
    .blur(between(1.2, 2.4))
    .modulate({ brightness: between(0.28, 0.62) })
    .ensureAlpha()
    .png()
    .toBuffer();
  const style = pick(['stroke', 'double', 'soft'] as const);
  const mask = style === 'soft' ? await sharp(shapeSvg(g.shape, '#fff')).blur(between(0.5, 0.9)).png().toBuffer() : shapeSvg(g.shape, '#fff');
  const layers: OverlayOptions[] = [{ input: await cloud(s, randomIntIncl(90, 170)) }, noise(s, s, randomIntIncl(25, 60)), { input: mask, blend: 'dest-in' }];
  if (style !== 'soft') {
    const stroke = pick(['255,255,255', '0,0,0', '255,240,200', '200,220,255']);
    layers.push({ input: shapeSvg(g.shape, 'none', `rgba(${stroke},${r1(between(0.25, 0.9))})`, r1(between(0.8, 2.4))) });
    if (style === 'double') layers.push({ input: shapeSvg(g.shape, 'none', `rgba(0,0,0,${r1(between(0.3, 0.7))})`, 4), blend: 'atop' });
  }
  return sharp(base).composite(layers).png().toBuffer();
}

/**
 * Renders a puzzle for `layout` (default: a new random one). Output: the background (width x height) with the real
 * gap and the decoys, and the piece (size x size, transparent outside its outline) cut from the clean background.
 */
export async function renderPuzzle(layout: PuzzleLayout = randomLayout()): Promise<RenderedPuzzle> {
  const { width: w, height: h } = PUZZLE;
  const clean = await sharp(Buffer.from(backgroundSvg())).resize(w, h).png().toBuffer();
  const gaps = [layout.gap, ...layout.decoys];
  const layers = await Promise.all(gaps.map((g) => gapLayer(clean, g)));
  // Traces in vivid colours: a person reads them as part of the picture, not as gaps; an edge filter sees lines.
  const traces = layout.traces.map((t) => ({ input: shapeSvg(t.shape, 'none', hsl(35, 65), r1(between(1.2, 2.6))), left: t.x, top: t.y }));
  const bgPng = await sharp(clean)
    .composite([...layers.map((input, i) => ({ input, left: gaps[i]!.x, top: gaps[i]!.y })), ...traces, noise(w, h, randomIntIncl(18, 30))])
    .png()
    .toBuffer();
  const { gap } = layout;
  const piece = answerOf(layout);
  const s = piece.pieceSize;
  const piecePng = await sharp(clean)
    .extract({ left: piece.x, top: piece.y, width: s, height: s })
    .modulate({ brightness: between(0.92, 1.12), saturation: between(0.85, 1.15) })
    .ensureAlpha()
    .composite([
      noise(s, s, randomIntIncl(18, 34)),
      { input: shapeSvg(gap.shape, '#fff', 'none', 0, s), blend: 'dest-in' },
      { input: shapeSvg(gap.shape, 'none', 'rgba(255,255,255,0.95)', 1.5, s) },
    ])
    .png()
    .toBuffer();
  return { bgPng, piecePng, layout };
}
