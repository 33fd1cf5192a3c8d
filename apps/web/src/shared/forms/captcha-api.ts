/**
 * Slide-captcha calls (spec sections 3 and 7): POST data/sms/geetestCode?randomCode=..&clientType=h5
 * issues a puzzle; POST data/sms/geetestVerify { challenge, x, y, trail } answers it and returns the
 * geetest_challenge / geetest_validate / geetest_seccode pass used by sendCode and login.
 */
import { API_PATHS, type GeetestChallenge, type GeetestResult } from '@exchange/api';
import { apiPost } from '../api-client';

/** A fresh puzzle for the client's random code. */
export function fetchGeetestCode(randomCode: string): Promise<GeetestChallenge> {
  return apiPost<GeetestChallenge>(API_PATHS.geetestCode, {}, { query: { randomCode, clientType: 'h5' } });
}

/** An answer: the piece's top-left corner in image pixels and the drag's trail ("x,y,t;..."). */
export interface GeetestAnswer {
  challenge: string;
  x: number;
  y: number;
  trail: string;
  randomCode: string;
}

/** Answers a puzzle; throws ApiError when wrong (the challenge is used up either way). */
export function verifyGeetest(answer: GeetestAnswer): Promise<GeetestResult> {
  return apiPost<GeetestResult>(API_PATHS.geetestVerify, { ...answer });
}
