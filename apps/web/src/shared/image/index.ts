export * from './compress';
export * from './use-image-upload';
export * from './AuthImage';
