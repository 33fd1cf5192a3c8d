/**
 * Our own slide puzzle behind the geetest-shaped fields of the spec (section 3). `issue` renders a puzzle and
 * stores its answer; `verify` checks one answer and on success issues a pass: geetest_validate is a random token
 * whose sha256 is stored, geetest_seccode = validate + '|jordan' as geetest does. `consume` accepts a pass once
 * (sendCode, login), within 5 minutes of the answer.
 *
 * Against scripts: a challenge takes one answer, right or wrong (the first verify claims it);
 * the answer is the piece's place in x and y (±TOLERANCE_PX each), so a fixed blind guess passes well under 1%;
 * the answer must come with a plausible drag trail (captcha.trail.ts); and one IP (an IPv6 /64) gets at most
 * CHALLENGES_PER_IP_PER_MINUTE challenges a minute. The budget is kept in this process's memory, so it holds
 * without any HTTP rate-limit plugin; with several gateways each one counts its own.
 * With config.captchaTestMode every answer passes, trail or not (the pass tokens stay real and one-use).
 */
import crypto from 'node:crypto';
import type { GeetestChallenge, GeetestResult } from '@exchange/api';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../platform/shared/errors';
import { sha256Hex } from '../../platform/shared/secrets';
import { answerOf, PUZZLE, renderPuzzle } from './captcha.render';
import { checkTrail, parseTrail } from './captcha.trail';
import type { VerificationRepository } from './verification.repository';

/** How long a puzzle can be answered: long enough for a slow first try on a phone (a challenge still takes one answer). */
export const CHALLENGE_TTL_MS = 5 * 60_000;
/** How long a passed puzzle's tokens can be used. */
export const PASS_TTL_MS = 5 * 60_000;
/** Accepted distance between the answer and the piece's place, in image px, in x and in y. */
export const TOLERANCE_PX = 5;
/** Challenges one IP may ask for per minute. */
export const CHALLENGES_PER_IP_PER_MINUTE = 10;
/** Our "site id" in geetest's `gt` field: constant, public. */
export const CAPTCHA_GT = sha256Hex('exchange-slide-puzzle').slice(0, 32);
const SECCODE_SUFFIX = '|jordan';
/** IPs whose budget is remembered at most (the oldest are forgotten first). */
const BUDGET_MAX_IPS = 100_000;

/** The rest of an answer besides the challenge and x: the piece's top (image px) and the drag trail's wire form. */
export interface CaptchaAnswerMore {
  y?: number | undefined;
  trail?: string | undefined;
}

/** The captcha operations used by routes and by the code and login flows. */
export interface CaptchaService {
  /**
   * A new puzzle for the client's `randomCode`: geetest fields plus the two PNG data URLs and where the piece
   * starts. Throws 'captcha_too_frequent' (429) past CHALLENGES_PER_IP_PER_MINUTE for `ip` (the route always
   * passes the caller's; only in-process callers such as tests leave it out, and are not counted).
   */
  issue(randomCode: string, ip?: string): Promise<GeetestChallenge>;
  /**
   * Checks the answer (x, more.y) with its trail; throws 'captcha_invalid' (wrong place, implausible or missing
   * trail, unknown or already answered challenge) or 'captcha_expired'. The challenge is used up by this call
   * whatever the outcome.
   */
  verify(challenge: string, x: number, more?: CaptchaAnswerMore): Promise<GeetestResult>;
  /** Uses a pass once; throws 'captcha_required' when fields are missing, 'captcha_invalid' otherwise. */
  consume(pass: Partial<GeetestResult>): Promise<void>;
}

/**
 * The key an IP's budget is counted under: IPv4 (also IPv4-mapped IPv6) as is, IPv6 by its /64, since one
 * subscriber usually has a whole /64.
 */
export function ipBucket(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!ip.includes(':')) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const h = head === '' ? [] : head.split(':');
  const t = tail === '' ? [] : tail.split(':');
  const groups = ip.includes('::') ? [...h, ...Array<string>(Math.max(0, 8 - h.length - t.length)).fill('0'), ...t] : h;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** Builds the captcha service over its repository. `now` gives Unix ms; `log` records why answers were refused. */
export function createCaptchaService(deps: {
  repo: VerificationRepository;
  testMode: boolean;
  log?: FastifyBaseLogger;
  now?: () => number;
  /** Challenges per IP per minute (default CHALLENGES_PER_IP_PER_MINUTE; 0 = unlimited, for tests that flood). */
  challengesPerMinute?: number;
}): CaptchaService {
  const { repo, testMode, log } = deps;
  const perMinute = deps.challengesPerMinute ?? CHALLENGES_PER_IP_PER_MINUTE;
  const now = deps.now ?? Date.now;
  /** Issue times (Unix ms) of the last minute, per IP bucket; Map order = least recently used first. */
  const budget = new Map<string, number[]>();

  function spend(ip: string, t: number): void {
    const key = ipBucket(ip);
    const recent = (budget.get(key) ?? []).filter((at) => t - at < 60_000);
    if (perMinute > 0 && recent.length >= perMinute) {
      budget.set(key, recent);
      throw new AppError('captcha_too_frequent', 429);
    }
    recent.push(t);
    budget.delete(key);
    budget.set(key, recent);
    while (budget.size > BUDGET_MAX_IPS) budget.delete(budget.keys().next().value as string);
  }

  return {
    async issue(randomCode, ip) {
      const t = now();
      if (ip !== undefined) spend(ip, t);
      const puzzle = await renderPuzzle();
      const answer = answerOf(puzzle.layout);
      const challenge = crypto.randomBytes(16).toString('hex');
      await repo.purgeChallenges(new Date(t - 60 * 60_000));
      await repo.insertChallenge({
        challenge,
        randomCode,
        answerX: answer.x,
        answerY: answer.y,
        startY: puzzle.layout.startY,
        expiresAt: new Date(t + CHALLENGE_TTL_MS),
      });
      return {
        gt: CAPTCHA_GT,
        challenge,
        success: 1,
        new_captcha: true,
        status: 1,
        bgImage: `data:image/png;base64,${puzzle.bgPng.toString('base64')}`,
        pieceImage: `data:image/png;base64,${puzzle.piecePng.toString('base64')}`,
        pieceY: puzzle.layout.startY,
        width: PUZZLE.width,
        height: PUZZLE.height,
        pieceSize: answer.pieceSize,
      };
    },

    async verify(challenge, x, more = {}) {
      const t = new Date(now());
      const claimed = await repo.claimAnswer(challenge, t);
      if (!claimed) throw new AppError('captcha_invalid', 400);
      if (claimed.expiresAt.getTime() <= t.getTime()) throw new AppError('captcha_expired', 400);
      if (!testMode) {
        const { y, trail } = more;
        if (y === undefined || Math.abs(x - claimed.answerX) > TOLERANCE_PX || Math.abs(y - claimed.answerY) > TOLERANCE_PX) {
          throw new AppError('captcha_invalid', 400);
        }
        const points = parseTrail(trail);
        const rejection = trail !== undefined && trail !== '' && points === null ? 'malformed' : checkTrail(points, { x, y }, { x: 0, y: claimed.startY });
        if (rejection !== null) {
          log?.info({ challenge, rejection }, 'puzzle answer refused: implausible drag trail');
          throw new AppError('captcha_invalid', 400);
        }
      }
      const validate = crypto.randomBytes(16).toString('hex');
      await repo.markPassed(challenge, sha256Hex(validate), new Date(t.getTime() + PASS_TTL_MS));
      return { geetest_challenge: challenge, geetest_validate: validate, geetest_seccode: validate + SECCODE_SUFFIX };
    },

    async consume(pass) {
      const c = pass.geetest_challenge ?? '';
      const v = pass.geetest_validate ?? '';
      const s = pass.geetest_seccode ?? '';
      if (c === '' || v === '' || s === '') throw new AppError('captcha_required', 400);
      if (s !== v + SECCODE_SUFFIX) throw new AppError('captcha_invalid', 400);
      if (!(await repo.consumePass(c, sha256Hex(v), new Date(now())))) throw new AppError('captcha_invalid', 400);
    },
  };
}
