/**
 * The users' password rule (spec section 5) and the parameters their hashes are made with; the member service hashes
 * and checks passwords with them, the security service when a password is changed or confirmed.
 */
import argon2 from 'argon2';
import { AppError } from './errors';

/** argon2id parameters (OWASP's minimum: 19 MiB, 2 passes, 1 lane). */
export const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Checks the spec's password rule (8-20 characters, not only digits); throws password_invalid. */
export function checkPassword(password: string, field = 'password'): void {
  if (password.length < 8 || password.length > 20 || /^[0-9]+$/.test(password)) throw new AppError('password_invalid', 400, field);
}
