export * from './store';
export * from './ui-store';
