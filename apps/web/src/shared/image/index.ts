export * from './compress';
