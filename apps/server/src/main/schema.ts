/**
 * Every table of the database (Drizzle, PostgreSQL dialect): the platform's and each domain's `<domain>.tables.ts`,
 * listed once. drizzle-kit reads this list to generate the migrations (`npm run db:generate -w apps/server` writes
 * them to apps/server/drizzle/, applied at start; the same schema and migrations serve PGlite and PostgreSQL), and the
 * database's projection writer finds the tables here by SQL name (`SCHEMA_MODULE` in domains.ts: the database worker
 * thread imports this module by its URL). A new domain's tables are one line here.
 */
export * from '../platform/db/schema/projection-cursor';
export * from '../platform/db/schema/audit';
export * from '../domains/member/member.tables';
export * from '../domains/verification/verification.tables';
export * from '../domains/market-data/market-data.tables';
export * from '../domains/spot/spot.tables';
export * from '../domains/admin/admin.tables';
export * from '../domains/kyc/kyc.tables';
export * from '../domains/payment/payment.tables';
export * from '../domains/uploads/uploads.tables';
export * from '../domains/security/security.tables';
export * from '../domains/wallet/chain.tables';
export * from '../domains/wallet/wallet.tables';
export * from '../domains/reserves/reserves.tables';
export * from '../domains/perp/perp.tables';
export * from '../domains/otc/otc.tables';
export * from '../domains/app-version/app-version.tables';
export * from '../domains/invite/invite.tables';
export * from '../domains/content/content.tables';
export * from '../domains/earn/earn.tables';
export * from '../domains/convert/convert.tables';
export * from '../domains/support/support.tables';
export * from '../domains/inbox/inbox.tables';
export * from '../domains/api-keys/api-keys.tables';
export * from '../domains/market-jobs/open-interest.tables';
export * from '../domains/index-price/index-price.tables';
