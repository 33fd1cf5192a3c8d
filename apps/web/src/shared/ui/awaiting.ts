/**
 * Whether a list should show its loading skeleton: the query has no answer yet and is fetching or waiting
 * for the network (TanStack Query's fetchStatus 'paused' offline, where `isLoading` is false and a page
 * checking only `isLoading` would show its empty state). A disabled query (fetchStatus 'idle', e.g. logged
 * out) is not awaited: the page shows what it shows without the data.
 */
export function isAwaiting(q: { isPending: boolean; fetchStatus: 'fetching' | 'paused' | 'idle' }): boolean {
  return q.isPending && q.fetchStatus !== 'idle';
}
