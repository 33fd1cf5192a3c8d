/**
 * Our own slide puzzle behind the geetest-shaped fields of the spec (section 3). `issue` renders a puzzle
 * and stores its answer; `verify` checks one answer (±5 px, one attempt, 2 minutes) and on success issues
 * a pass: geetest_validate is a random token whose sha256 is stored, geetest_seccode = validate + '|jordan'
 * as geetest does. `consume` accepts a pass once (sendCode, login), within 5 minutes of the answer.
 * With config.captchaTestMode every answer passes (the pass tokens stay real and one-use).
 */
import crypto from 'node:crypto';
import type { GeetestChallenge, GeetestResult } from '@exchange/api';
import { AppError } from '../../shared/errors';
import { sha256Hex } from '../member/secrets';
import { PUZZLE, renderPuzzle } from './captcha.render';
import type { SmsRepository } from './sms.repository';

/** How long a puzzle can be answered. */
export const CHALLENGE_TTL_MS = 2 * 60_000;
/** How long a passed puzzle's tokens can be used. */
export const PASS_TTL_MS = 5 * 60_000;
/** Accepted distance between the answer and the hole, in image px. */
export const TOLERANCE_PX = 5;
/** Our "site id" in geetest's `gt` field: constant, public. */
export const CAPTCHA_GT = sha256Hex('exchange-slide-puzzle').slice(0, 32);
const SECCODE_SUFFIX = '|jordan';

/** The captcha operations used by routes and by the code and login flows. */
export interface CaptchaService {
  /** A new puzzle for the client's `randomCode`: geetest fields plus the two PNG data URLs. */
  issue(randomCode: string): Promise<GeetestChallenge>;
  /** Checks an answer; throws 'captcha_invalid' (wrong, unknown or already answered) or 'captcha_expired'. */
  verify(challenge: string, x: number): Promise<GeetestResult>;
  /** Uses a pass once; throws 'captcha_required' when fields are missing, 'captcha_invalid' otherwise. */
  consume(pass: Partial<GeetestResult>): Promise<void>;
}

/** Builds the captcha service over its repository. `now` gives Unix ms. */
export function createCaptchaService(deps: { repo: SmsRepository; testMode: boolean; now?: () => number }): CaptchaService {
  const { repo, testMode } = deps;
  const now = deps.now ?? Date.now;
  return {
    async issue(randomCode) {
      const t = now();
      const puzzle = await renderPuzzle();
      const challenge = crypto.randomBytes(16).toString('hex');
      await repo.purgeChallenges(new Date(t - 60 * 60_000));
      await repo.insertChallenge({ challenge, randomCode, answerX: puzzle.x, expiresAt: new Date(t + CHALLENGE_TTL_MS) });
      return {
        gt: CAPTCHA_GT,
        challenge,
        success: 1,
        new_captcha: true,
        status: 1,
        bgImage: `data:image/png;base64,${puzzle.bgPng.toString('base64')}`,
        pieceImage: `data:image/png;base64,${puzzle.piecePng.toString('base64')}`,
        pieceY: puzzle.y,
        width: PUZZLE.width,
        height: PUZZLE.height,
        pieceSize: PUZZLE.pieceSize,
      };
    },

    async verify(challenge, x) {
      const t = new Date(now());
      const claimed = await repo.claimAnswer(challenge, t);
      if (!claimed) throw new AppError('captcha_invalid', 400);
      if (claimed.expiresAt.getTime() <= t.getTime()) throw new AppError('captcha_expired', 400);
      if (!testMode && Math.abs(x - claimed.answerX) > TOLERANCE_PX) throw new AppError('captcha_invalid', 400);
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
