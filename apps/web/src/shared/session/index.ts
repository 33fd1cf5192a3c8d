export * from './member';
export * from './kyc';
export * from './security';
export * from './support';
