/**
 * The database schema (Drizzle, PostgreSQL dialect), one file per area. The same schema and migrations serve
 * PGlite (embedded) and PostgreSQL. Migrations: `npm run db:generate -w apps/server` writes them to
 * apps/server/drizzle/; they are applied at start.
 */
export * from './member';
export * from './verification';
export * from './market';
export * from './trading';
export * from './projection-cursor';
export * from './admin';
export * from './kyc';
export * from './uploads';
export * from './security';
export * from './chain';
export * from './wallet';
export * from './reserves';
export * from './contract';
export * from './contract-market';
export * from './otc';
export * from './app-version';
export * from './rebate';
export * from './content';
export * from './earn';
export * from './support';
export * from './inbox';
export * from './api-keys';
