/**
 * Paths of the identity-verification and upload endpoints (issue 10; server modules member/kyc and member/upload),
 * mirroring the server contract (brief H2) until `@exchange/api` carries them in kyc.ts.
 */

/** Paths relative to /api/. */
export const KYC_PATHS = {
  submitBasic: 'member/kyc/submitBasic',
  submitAdvanced: 'member/kyc/submitAdvanced',
  uploadImage: 'member/upload/image',
} as const;

/** What an uploaded image is for (the server checks it on use). */
export type UploadPurpose = 'ID_FRONT' | 'ID_BACK' | 'ID_HANDHELD' | 'PAY_QR';
