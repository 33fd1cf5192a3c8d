/**
 * Slide-captcha calls (spec sections 3 and 7): POST data/sms/geetestCode?randomCode=..&clientType=h5
 * issues a puzzle; POST data/sms/geetestVerify { challenge, x } answers it and returns the
 * geetest_challenge / geetest_validate / geetest_seccode pass used by sendCode and login.
 */
import { API_PATHS, type GeetestChallenge, type GeetestResult } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';

/** A fresh puzzle for the client's random code. */
export function fetchGeetestCode(randomCode: string): Promise<GeetestChallenge> {
  return apiPost<GeetestChallenge>(API_PATHS.geetestCode, {}, { query: { randomCode, clientType: 'h5' } });
}

/** Answers a puzzle with the slider offset `x` in image pixels; throws ApiError when wrong. */
export function verifyGeetest(challenge: string, x: number, randomCode: string): Promise<GeetestResult> {
  return apiPost<GeetestResult>(API_PATHS.geetestVerify, { challenge, x, randomCode });
}
