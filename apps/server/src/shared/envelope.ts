/** Builders of the API envelope (DESIGN.md section 4). */
import { errorMessage, type EnvelopeOf, type Lang } from '@exchange/api';

/** A SUCCEED envelope around `result`. */
export function ok<T>(result: T): EnvelopeOf<T> {
  return { status: 'SUCCEED', errorCode: '0', errorMessage: '', result };
}

/** A FAILED envelope with the message of `code` in `lang`, naming `field` when given. */
export function fail(code: string, lang: Lang, field?: string): EnvelopeOf<null> {
  let msg = errorMessage(code, lang);
  if (field) msg = lang === 'zh' ? `${msg}（${field}）` : `${msg} (${field})`;
  return { status: 'FAILED', errorCode: code, errorMessage: msg, result: null };
}
