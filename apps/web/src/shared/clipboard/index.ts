export * from './copy';
