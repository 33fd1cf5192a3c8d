export * from './PageHeader';
export * from './EmptyState';
export * from './Loading';
export * from './Skeleton';
export * from './awaiting';
export * from './LoadFailed';
// SegTabs is imported from './SegTabs' directly: re-exported here (the shell loads this barrel) it
// would move into the initial chunk although only lazy pages use it.
