/**
 * POST exchange/convert/quote and exchange/convert/confirm (login): a quote guaranteed for 10 seconds, then the
 * conversion at it (refused, changing nothing, when expired or when the book moved below the quote).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { EARN_PATHS, type ConvertQuote, type ConvertQuoteBody, type ConvertResult } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { assetsKey } from './get-balances';

/** Asks for a quote; throws ApiError (toasted). */
export function quoteConvert(body: ConvertQuoteBody): Promise<ConvertQuote> {
  return apiPost<ConvertQuote>(EARN_PATHS.convertQuote, { ...body });
}

/** Converts at a quote; throws ApiError (toasted). */
export function confirmConvert(quoteId: string): Promise<ConvertResult> {
  return apiPost<ConvertResult>(EARN_PATHS.convertConfirm, { quoteId });
}

/** The convert mutations; a confirmation refreshes the balances. */
export function useConvertActions() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return {
    quote: useMutation({ mutationFn: quoteConvert }),
    confirm: useMutation({ mutationFn: confirmConvert, onSettled: () => qc.invalidateQueries({ queryKey: assetsKey(userId) }) }),
  };
}
