/**
 * The API envelope (ARCHITECTURE.md section 7, spec section 7): every answer is
 * `{ status, errorCode, errorMessage, result }`. errorCode is '0' on success.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';

export const Envelope = <T extends TSchema>(result: T) =>
  Type.Object({
    status: Type.Union([Type.Literal('SUCCEED'), Type.Literal('FAILED')]),
    errorCode: Type.String(),
    errorMessage: Type.String(),
    result: Type.Union([result, Type.Null()]),
  });

export interface EnvelopeOf<T> {
  status: 'SUCCEED' | 'FAILED';
  errorCode: string;
  errorMessage: string;
  result: T | null;
}

export const FailedEnvelope = Envelope(Type.Null());
export type FailedEnvelope = Static<typeof FailedEnvelope>;

/** Request headers of the app API. `lang` (zh|en) wins over Accept-Language. */
export const HEADER_TOKEN = 'token';
export const HEADER_USER_ID = 'userId';
export const HEADER_LANG = 'lang';
export type Lang = 'zh' | 'en';
