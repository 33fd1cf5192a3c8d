/**
 * The console's content routes (packages/api content.ts CONTENT_ADMIN_PATHS): the items of a kind (drafts
 * included), one item, create, update (replaces the draft), publish, unpublish, delete, and the banner image upload.
 * Every mutation refreshes every console query (the lists and the audit log).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CONTENT_ADMIN_PATHS,
  type AdminContentCreateBody,
  type AdminContentItem,
  type AdminContentPage,
  type AdminContentUpdateBody,
  type ContentImageUploaded,
  type ContentKind,
} from '@exchange/api';
import { apiGet, apiPost, apiPostForm } from '../../../shared/api';

/** The query of the items of `kind` (at most 100: the console's lists are short). */
export function contentListOptions(kind: ContentKind) {
  return queryOptions({ queryKey: ['admin', 'content', kind], queryFn: () => apiGet<AdminContentPage>(CONTENT_ADMIN_PATHS.list, { kind, pageSize: 100 }) });
}

/** The items of `kind`. */
export function useContentList(kind: ContentKind) {
  return useQuery(contentListOptions(kind));
}

/** What a save sends: a new item (create) or the whole draft of an existing one (update). */
export type SaveInput = { id: null; body: AdminContentCreateBody } | { id: string; body: Omit<AdminContentUpdateBody, 'id'> };

/** Creates or updates; the item as saved. */
export function saveContent(input: SaveInput): Promise<AdminContentItem> {
  return input.id === null
    ? apiPost<AdminContentItem>(CONTENT_ADMIN_PATHS.create, { ...input.body })
    : apiPost<AdminContentItem>(CONTENT_ADMIN_PATHS.update, { ...input.body, id: input.id });
}

/** Publish, unpublish or delete item `id`. */
export function contentAction(action: 'publish' | 'unpublish' | 'remove', id: string): Promise<AdminContentItem | null> {
  return apiPost<AdminContentItem | null>(CONTENT_ADMIN_PATHS[action], { id });
}

/** Uploads a banner image; its URL and size. */
export function uploadContentImage(file: Blob, name: string): Promise<ContentImageUploaded> {
  const form = new FormData();
  form.append('file', file, name);
  return apiPostForm<ContentImageUploaded>(CONTENT_ADMIN_PATHS.uploadImage, form);
}

/** The save mutation. */
export function useSaveContent() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: saveContent, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin'] }) });
}

/** The publish / unpublish / delete mutation. */
export function useContentAction() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { action: 'publish' | 'unpublish' | 'remove'; id: string }) => contentAction(v.action, v.id),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['admin'] }),
  });
}
