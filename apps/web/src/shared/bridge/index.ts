export * from './bridge';
export * from './update';
