/**
 * What the console needs of identity verification (`ctx.kyc`, domains/kyc/kyc.service.ts).
 * The console takes it as an optional port: without it (a context built without the KYC service) the KYC
 * routes answer admin_kyc_unavailable instead of failing.
 */

/** A KYC application as listed. */
export interface KycApplicationRow {
  id: string;
  userId: string;
  level: 'BASIC' | 'ADVANCED' | string;
  state: 'PENDING' | 'PASS' | 'REJECTED' | string;
  realName: string;
  createdAt: number;
  reasonZh: string;
  reasonEn: string;
}

/** One application in full: the submitted fields and the ids of its images. */
export interface KycApplicationFull {
  application: KycApplicationRow;
  fields: Record<string, string>;
  imageIds: string[];
}

/** The KYC service as the console uses it. Methods throw AppError for unknown ids or wrong states. */
export interface KycPort {
  /** Applications, PENDING first then newest first, one page. */
  listApplications(filter: {
    state?: 'PENDING' | 'PASS' | 'REJECTED';
    level?: 'BASIC' | 'ADVANCED';
    userId?: string;
    page: number;
    pageSize: number;
  }): Promise<{ total: number; rows: KycApplicationRow[] }>;
  /** One application, or null when unknown. */
  application(id: string): Promise<KycApplicationFull | null>;
  /** Approves or rejects (with a reason in both languages) a PENDING application; `audit` rides the updateUser command. */
  decide(id: string, decision: { approve: true } | { approve: false; reasonZh: string; reasonEn: string }, audit: Record<string, string>): Promise<void>;
  /** An image's bytes and MIME type, for its owner or an operator; throws not_found. */
  imageFor(imageId: string, viewer: { userId: string } | { operatorId: string }): Promise<{ bytes: Buffer; mime: string; ownerId: string }>;
}
