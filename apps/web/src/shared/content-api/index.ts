/** Content endpoints read by more than one feature (one endpoint a file: fetcher + queryOptions + hook). */
export * from './global-of';
export * from './get-notices';
export * from './get-content-page';
