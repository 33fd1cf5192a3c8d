/** Wire types of identity verification and uploads from `@exchange/api` (kyc.ts); paths are API_PATHS. */
export type { UploadPurpose } from '@exchange/api';
