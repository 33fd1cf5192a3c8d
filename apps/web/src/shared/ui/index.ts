export * from './PageHeader';
export * from './EmptyState';
export * from './Loading';
export * from './SegTabs';
