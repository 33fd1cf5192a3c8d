/** GET admin/support/cannedReplies and the edits: saveCannedReply (create without id, or edit), deleteCannedReply. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SUPPORT_ADMIN_PATHS, type CannedReply } from '@exchange/api';
import { apiGet, apiPost } from '../../../shared/api';

/** The query of the canned replies (by title). */
export const cannedOptions = () =>
  queryOptions({ queryKey: ['admin', 'support', 'canned'], queryFn: () => apiGet<CannedReply[]>(SUPPORT_ADMIN_PATHS.cannedReplies) });

/** The canned replies. */
export function useCannedReplies() {
  return useQuery(cannedOptions());
}

/** A canned reply to save: no id creates one. */
export interface CannedDraft {
  id?: string;
  title: string;
  textZh: string;
  textEn: string;
}

/** Saves a canned reply. */
export function saveCanned(d: CannedDraft): Promise<CannedReply> {
  return apiPost(SUPPORT_ADMIN_PATHS.saveCannedReply, { ...d });
}

/** Deletes a canned reply. */
export function deleteCanned(id: string): Promise<null> {
  return apiPost(SUPPORT_ADMIN_PATHS.deleteCannedReply, { id });
}

/** The save mutation. */
export function useSaveCanned() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: saveCanned, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin', 'support', 'canned'] }) });
}

/** The delete mutation. */
export function useDeleteCanned() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: deleteCanned, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin', 'support', 'canned'] }) });
}
