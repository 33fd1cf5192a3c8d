/** Builders of the API envelope (ARCHITECTURE.md section 7, the API). */
import { errorText, type EnvelopeOf, type Lang, type MessageParams } from '@exchange/api';

/** A SUCCEED envelope around `result`. */
export function ok<T>(result: T): EnvelopeOf<T> {
  return { status: 'SUCCEED', errorCode: '0', errorMessage: '', result };
}

/**
 * A FAILED envelope with the message of `code` in `lang` as one sentence (packages/api messages.ts): naming
 * `field` in words where the code's message does not say it already (a field without a human name is left
 * out, never shown raw), and the values of `params` where the code has a sentence for them.
 */
export function fail(code: string, lang: Lang, field?: string, params?: MessageParams): EnvelopeOf<null> {
  return { status: 'FAILED', errorCode: code, errorMessage: errorText(code, lang, field, params), result: null };
}
