export * from './ws-client';
export * from './depth-book';
export * from './hooks';
