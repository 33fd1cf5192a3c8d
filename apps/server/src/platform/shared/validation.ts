/**
 * Maps schema (AJV) failures of a field to the business code the app shows, for routes declared with
 * `attachValidation: true`: e.g. a too-short `password` is 'password_invalid' (spec section 5), not the
 * generic 'validation_failed'. Unmapped failures are rethrown for the app's error handler.
 */
import type { FastifyRequest } from 'fastify';
import type { ErrorCode } from '@exchange/api';
import { AppError } from './errors';

/** The field an AJV error is about (instancePath, else the missing property). */
function fieldOf(req: FastifyRequest): string {
  const v = req.validationError?.validation?.[0];
  if (!v) return '';
  const params = v.params as Record<string, unknown> | undefined;
  const fromPath = v.instancePath?.replace(/^\//, '').replace(/\//g, '.');
  return fromPath || (params?.missingProperty as string | undefined) || '';
}

/** Throws the mapped AppError for the request's validation failure, or the failure itself; no-op when valid. */
export function mapValidation(req: FastifyRequest, map: Partial<Record<string, ErrorCode>>): void {
  const err = req.validationError;
  if (!err) return;
  const field = fieldOf(req);
  const code = map[field];
  if (code) throw new AppError(code, 400, field);
  throw err;
}
