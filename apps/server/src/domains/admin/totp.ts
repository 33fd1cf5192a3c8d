/**
 * TOTP (RFC 6238: HMAC-SHA1, 30-second steps, 6 digits) for operator logins, the parameters every authenticator app
 * uses by default. Secrets are 20 random bytes in base32 (RFC 4648, no padding), as otpauth URLs carry them.
 */
import crypto from 'node:crypto';

const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
/** Step length, seconds. */
export const TOTP_STEP_S = 30;

/** A new secret: 20 random bytes, base32 (32 characters). */
export function newTotpSecret(): string {
  const bytes = crypto.randomBytes(20);
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += B32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += B32[(value << (5 - bits)) & 31];
  return out;
}

/** Decodes base32 (case-insensitive, spaces and padding ignored); throws on another character. */
function base32Decode(s: string): Buffer {
  const clean = s.toUpperCase().replace(/[\s=]/g, '');
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const c of clean) {
    const i = B32.indexOf(c);
    if (i < 0) throw new Error('not base32');
    value = (value << 5) | i;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** The 6-digit code of `secret` for time step `step` (RFC 4226 dynamic truncation). */
export function totpAt(secret: string, step: number): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(step));
  const h = crypto.createHmac('sha1', base32Decode(secret)).update(msg).digest();
  const off = h[h.length - 1]! & 15;
  const n = ((h[off]! & 0x7f) << 24) | (h[off + 1]! << 16) | (h[off + 2]! << 8) | h[off + 3]!;
  return String(n % 1_000_000).padStart(6, '0');
}

/**
 * The time step at which `code` is valid for `secret` at `nowMs`, allowing one step of clock drift either way; null
 * when it is not (the caller refuses a step it accepted before: a code is single-use).
 */
export function totpStep(secret: string, code: string, nowMs: number): number | null {
  if (!/^[0-9]{6}$/.test(code)) return null;
  const step = Math.floor(nowMs / 1000 / TOTP_STEP_S);
  for (const s of [step, step - 1, step + 1]) {
    const want = totpAt(secret, s);
    if (crypto.timingSafeEqual(Buffer.from(want), Buffer.from(code))) return s;
  }
  return null;
}

/** The otpauth:// URL an authenticator app scans (issuer "Exchange Console", account = the operator's e-mail). */
export function otpauthUrl(email: string, secret: string): string {
  const issuer = 'Exchange Console';
  return `otpauth://totp/${encodeURIComponent(`${issuer}:${email}`)}?secret=${secret}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=6&period=${TOTP_STEP_S}`;
}
