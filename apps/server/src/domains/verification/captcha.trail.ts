/**
 * The drag trail of a puzzle answer: the client records where the piece was while the person
 * dragged it, as "x,y,t;x,y,t;..." (piece's top-left corner in image px, ms since the drag began). A script that
 * only posts the answer has no trail, and a naive one draws a straight line at constant speed; a person's drag
 * wobbles, speeds up and slows down. `checkTrail` refuses trails that are implausible for a hand; a script that
 * synthesises a human-looking trail passes it (the trail raises the cost of a bot, it does not stop a determined one).
 */

/** One sample of the drag: piece position (image px) and ms since the drag began. */
export interface TrailPoint {
  x: number;
  y: number;
  t: number;
}

/** Most samples a trail may have (about 10 s of pointer events at 60 Hz). */
export const TRAIL_MAX_POINTS = 600;
/** Fewest samples of a real drag. */
export const TRAIL_MIN_POINTS = 6;
/** A drag faster than this is not a hand's. */
export const TRAIL_MIN_MS = 200;
/** A drag longer than this is not one drag (the challenge itself lives 5 minutes). */
export const TRAIL_MAX_MS = 120_000;
/** The trail must end where the answer is, within this many px (and start where the piece starts, within 3). */
export const TRAIL_END_PX = 1;
/** A trail whose every point lies within this many px of the straight line from its start to its end is ruled. */
export const TRAIL_MIN_DEVIATION_PX = 1;
/** Speed over ~60 ms windows whose coefficient of variation is below this is a machine's constant speed. */
export const TRAIL_MIN_SPEED_CV = 0.15;

/** Why a trail was refused (kept internal: the client is told only captcha_invalid). */
export type TrailRejection =
  | 'missing'
  | 'malformed'
  | 'too_few_points'
  | 'time_not_monotonic'
  | 'too_fast'
  | 'too_slow'
  | 'start_mismatch'
  | 'end_mismatch'
  | 'straight_line'
  | 'constant_speed';

const POINT = /^(-?\d{1,4}),(-?\d{1,4}),(\d{1,6})$/;

/** Parses the wire form "x,y,t;x,y,t;..."; null when absent, malformed or longer than TRAIL_MAX_POINTS. */
export function parseTrail(wire: string | undefined): TrailPoint[] | null {
  if (wire === undefined || wire === '') return null;
  const parts = wire.split(';');
  if (parts.length > TRAIL_MAX_POINTS) return null;
  const out: TrailPoint[] = [];
  for (const p of parts) {
    const m = POINT.exec(p);
    if (!m) return null;
    out.push({ x: Number(m[1]), y: Number(m[2]), t: Number(m[3]) });
  }
  return out;
}

/** The wire form of a trail (the client's encoding, used by tests). */
export function formatTrail(points: readonly TrailPoint[]): string {
  return points.map((p) => `${Math.round(p.x)},${Math.round(p.y)},${Math.round(p.t)}`).join(';');
}

/** Largest distance of a point from the line through the trail's first and last points. */
function maxDeviation(points: readonly TrailPoint[]): number {
  const a = points[0]!;
  const b = points[points.length - 1]!;
  const len = Math.hypot(b.x - a.x, b.y - a.y);
  let max = 0;
  for (const p of points) {
    const d = len === 0 ? Math.hypot(p.x - a.x, p.y - a.y) : Math.abs((b.x - a.x) * (a.y - p.y) - (a.x - p.x) * (b.y - a.y)) / len;
    if (d > max) max = d;
  }
  return max;
}

/** Coefficient of variation of the speed over consecutive windows of at least 60 ms (1 px rounding averages out). */
function speedVariation(points: readonly TrailPoint[]): number {
  const speeds: number[] = [];
  let dist = 0;
  let start = points[0]!.t;
  for (let i = 1; i < points.length; i++) {
    dist += Math.hypot(points[i]!.x - points[i - 1]!.x, points[i]!.y - points[i - 1]!.y);
    const dt = points[i]!.t - start;
    if (dt >= 60) {
      speeds.push(dist / dt);
      dist = 0;
      start = points[i]!.t;
    }
  }
  if (speeds.length < 3) return 1; // too few windows to call it constant
  const mean = speeds.reduce((s, v) => s + v, 0) / speeds.length;
  if (mean === 0) return 0;
  const variance = speeds.reduce((s, v) => s + (v - mean) ** 2, 0) / speeds.length;
  return Math.sqrt(variance) / mean;
}

/**
 * Checks a trail against the answer `end` and the piece's start `start` (image px); null when plausible, else the
 * first rule it breaks: at least TRAIL_MIN_POINTS samples; time never going back; lasting TRAIL_MIN_MS to
 * TRAIL_MAX_MS; starting at the piece's start (±3 px) and ending at the answer (±TRAIL_END_PX); not ruled (some
 * point more than TRAIL_MIN_DEVIATION_PX off the straight line, i.e. it wobbles sideways); not at constant speed.
 */
export function checkTrail(points: readonly TrailPoint[] | null, end: { x: number; y: number }, start: { x: number; y: number }): TrailRejection | null {
  if (points === null) return 'missing';
  if (points.length < TRAIL_MIN_POINTS) return 'too_few_points';
  for (let i = 1; i < points.length; i++) if (points[i]!.t < points[i - 1]!.t) return 'time_not_monotonic';
  const first = points[0]!;
  const last = points[points.length - 1]!;
  const duration = last.t - first.t;
  if (duration < TRAIL_MIN_MS) return 'too_fast';
  if (duration > TRAIL_MAX_MS) return 'too_slow';
  if (Math.abs(first.x - start.x) > 3 || Math.abs(first.y - start.y) > 3) return 'start_mismatch';
  if (Math.abs(last.x - end.x) > TRAIL_END_PX || Math.abs(last.y - end.y) > TRAIL_END_PX) return 'end_mismatch';
  if (maxDeviation(points) <= TRAIL_MIN_DEVIATION_PX) return 'straight_line';
  if (speedVariation(points) < TRAIL_MIN_SPEED_CV) return 'constant_speed';
  return null;
}
