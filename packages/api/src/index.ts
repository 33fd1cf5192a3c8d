export * from './schemas';
export * from './envelope';
export * from './errors';
export * from './paths';
export * from './ws';
export * from './messages';
export * from './admin';
export * from './kyc';
