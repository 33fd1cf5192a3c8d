/**
 * The slide puzzle's renderer as it was before the anti-script redesign (commit 3fd291b), kept only so that
 * captcha.solver.test.ts can measure the scripted solver against it in the same run as against the current one.
 *
 * Renders the slide puzzle with sharp (libvips): a 300x150 background drawn from CSPRNG-chosen colours and
 * shapes (an SVG rasterised by sharp), a jigsaw-piece-shaped hole darkened into it at (x, y), and the piece
 * itself cut out of the same background. The client slides the piece horizontally; the answer is `x`.
 */
import sharp from 'sharp';
import { randomIntIncl } from '../src/platform/shared/secrets';

/** Puzzle geometry in image px. */
export const PUZZLE = { width: 300, height: 150, pieceSize: 50 } as const;

/** The piece outline inside its pieceSize square: a 40 px body with knobs on top and right. */
const PIECE_PATH = 'M1,9 H14 A7,7 0 1,1 28,9 H41 V22 A7,7 0 1,1 41,36 V49 H1 Z';

/** A rendered puzzle: PNG images and the hole position (x is the answer, y is shown to the client). */
export interface RenderedPuzzle {
  bgPng: Buffer;
  piecePng: Buffer;
  x: number;
  y: number;
}

function color(): string {
  return `hsl(${randomIntIncl(0, 359)},${randomIntIncl(35, 80)}%,${randomIntIncl(30, 70)}%)`;
}

/** A random background SVG: a two-colour gradient with random circles, rectangles, triangles and lines. */
function backgroundSvg(): string {
  const { width: w, height: h } = PUZZLE;
  const shapes: string[] = [];
  const n = randomIntIncl(14, 22);
  for (let i = 0; i < n; i++) {
    const op = `0.${randomIntIncl(25, 75)}`; // opacity 0.25-0.75
    const kind = randomIntIncl(0, 3);
    const cx = randomIntIncl(0, w);
    const cy = randomIntIncl(0, h);
    if (kind === 0) shapes.push(`<circle cx="${cx}" cy="${cy}" r="${randomIntIncl(6, 40)}" fill="${color()}" fill-opacity="${op}"/>`);
    else if (kind === 1)
      shapes.push(
        `<rect x="${cx}" y="${cy}" width="${randomIntIncl(10, 70)}" height="${randomIntIncl(10, 50)}" fill="${color()}" fill-opacity="${op}" transform="rotate(${randomIntIncl(0, 89)} ${cx} ${cy})"/>`,
      );
    else if (kind === 2)
      shapes.push(
        `<polygon points="${cx},${cy} ${cx + randomIntIncl(-50, 50)},${cy + randomIntIncl(-50, 50)} ${cx + randomIntIncl(-50, 50)},${cy + randomIntIncl(-50, 50)}" fill="${color()}" fill-opacity="${op}"/>`,
      );
    else
      shapes.push(
        `<line x1="${cx}" y1="${cy}" x2="${randomIntIncl(0, w)}" y2="${randomIntIncl(0, h)}" stroke="${color()}" stroke-width="${randomIntIncl(1, 4)}" stroke-opacity="${op}"/>`,
      );
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${color()}"/><stop offset="1" stop-color="${color()}"/></linearGradient></defs>` +
    `<rect width="${w}" height="${h}" fill="url(#g)"/>${shapes.join('')}</svg>`
  );
}

function pieceSvg(fill: string, stroke: string): Buffer {
  const s = PUZZLE.pieceSize;
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${s}" height="${s}"><path d="${PIECE_PATH}" fill="${fill}" stroke="${stroke}" stroke-width="1.5"/></svg>`,
  );
}

/**
 * Renders a new puzzle with the hole at a random x in [pieceSize + 10, width - pieceSize - 5] (never where the
 * piece starts) and a random y. Output: two PNGs (background width x height, piece pieceSize square).
 */
export async function renderPuzzle(): Promise<RenderedPuzzle> {
  const { width: w, height: h, pieceSize: s } = PUZZLE;
  const x = randomIntIncl(s + 10, w - s - 5);
  const y = randomIntIncl(5, h - s - 5);
  const clean = await sharp(Buffer.from(backgroundSvg())).resize(w, h).png().toBuffer();
  const bgPng = await sharp(clean)
    .composite([{ input: pieceSvg('rgba(0,0,0,0.55)', 'rgba(255,255,255,0.85)'), left: x, top: y }])
    .png()
    .toBuffer();
  const piecePng = await sharp(clean)
    .extract({ left: x, top: y, width: s, height: s })
    .ensureAlpha()
    .composite([{ input: pieceSvg('#fff', 'none'), blend: 'dest-in' }, { input: pieceSvg('none', 'rgba(255,255,255,0.95)') }])
    .png()
    .toBuffer();
  return { bgPng, piecePng, x, y };
}
