export * from './client';
export * from './api-error';
export * from './alerts';
export * from './load-failure';
export * from './upload';
