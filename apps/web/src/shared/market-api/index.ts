/**
 * Market lists shared by the quotes and spot features (one endpoint a file: fetcher + queryOptions +
 * hook). Both features read the same query keys, so a list fetched on one page is cached for the other.
 */
export * from './get-main-curs';
export * from './get-pairs-by-main-cur';
