/**
 * TOTP (RFC 6238) as Google Authenticator uses it: SHA-1, 6 digits, 30 s steps, through otplib. A code is accepted
 * one step either side of the server's clock (window 1, against clock drift); which step matched is returned so the
 * caller can refuse a code used before (replay: security.repository claimStep).
 */
import { generateSecret, generateSync, generateURI, verifySync } from 'otplib';

/** Seconds per TOTP step. */
export const TOTP_STEP_S = 30;
/** Issuer shown by authenticator apps. */
export const TOTP_ISSUER = 'Exchange';

/** A fresh random secret (20 bytes), base32. */
export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

/** The otpauth:// URL of a secret for the QR code, labelled with the user's account. */
export function totpUrl(secret: string, label: string): string {
  return generateURI({ issuer: TOTP_ISSUER, label, secret });
}

/**
 * The time step (Unix seconds / 30) whose code `code` is at `nowMs`, looking one step back and ahead; null when it
 * matches none (or is not 6 digits).
 */
export function matchTotp(secret: string, code: string, nowMs: number): number | null {
  if (!/^[0-9]{6}$/.test(code)) return null;
  const epoch = Math.floor(nowMs / 1000);
  const r = verifySync({ secret, token: code, epoch, epochTolerance: TOTP_STEP_S });
  return r.valid ? Math.floor(epoch / TOTP_STEP_S) + r.delta : null;
}

/** The code of `secret` at `nowMs` (tests and the demo). */
export function totpCode(secret: string, nowMs: number): string {
  return generateSync({ secret, epoch: Math.floor(nowMs / 1000) });
}
