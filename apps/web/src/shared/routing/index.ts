export * from './lazy-page';
export * from './route';
