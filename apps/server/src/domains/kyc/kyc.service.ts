/**
 * The identity verification service (spec sections 2-5, 9). A user submits the
 * basic verification (country, real name, document) and then the advanced one (three photos of the document);
 * each goes PENDING until an operator decides in the console (`decide`, called by domains/admin through `ctx.kyc`).
 *
 * Where things live: the verification state and result are journaled in the engine's user profile (`cardState`
 * '' | PENDING | PASS | REJECTED and on approval `cardNo` (masked), `realName`, `kycCountry`, `kycIdType`,
 * `kycLevel`; `kycAdvState` for the advanced level), through updateUser with a compare-and-set on the state, so a
 * decision survives the loss of the database and two operators cannot both decide one application. The approval
 * adds the unique key `idno:<country>:<number>` (updateUser addKeys): the same document never verifies two users.
 * The application history (what was submitted, the reasons, who decided) and the image metadata are database rows.
 */
import type { IdType, KycProgress, KycStatus, Lang, SubmitAdvancedBody, SubmitBasicBody, UploadPurpose } from '@exchange/api';
import type { Db } from '../../platform/db/client';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import { AppError } from '../../platform/shared/errors';
import type { ImageViewer, UploadsService } from '../uploads/uploads.service';
import { GUARDIAN_CONSENT_UNDER_AGE, ageOn, idNumberKey, maskIdNumber, parseCountry, parseIdNumber, parseRealName } from './kyc-rules';
import { createKycRepository, type KycApplicationRow as Row } from './kyc.repository';

/** Longest rejection reason, characters (each language). */
export const MAX_REJECT_REASON_LENGTH = 200;

/** An application as the console lists it (domains/admin kyc-port.ts KycApplicationRow). Times Unix ms. */
export interface KycApplicationSummary {
  id: string;
  userId: string;
  level: 'BASIC' | 'ADVANCED';
  state: 'PENDING' | 'PASS' | 'REJECTED';
  realName: string;
  createdAt: number;
  reasonZh: string;
  reasonEn: string;
}

/** One application in full for the console: the submitted fields (the document number unmasked) and its image ids. */
export interface KycApplicationDetail {
  application: KycApplicationSummary;
  fields: Record<string, string>;
  imageIds: string[];
}

/** An operator's decision: approve, or reject with the reason the user reads, in both languages. */
export type KycDecision = { approve: true } | { approve: false; reasonZh: string; reasonEn: string };

export interface KycService {
  /**
   * Submits the basic verification of `userId` (PENDING until decided). Throws AppError: country_invalid,
   * real_name_invalid, id_number_invalid, guardian_consent_required (a mainland ID card of someone under 16 without
   * `guardianConsent`), kyc_already_verified, id_number_taken (verified by another user), kyc_pending (one
   * application under review at a time; a rejected one may be resubmitted).
   */
  submitBasic(userId: string, input: SubmitBasicBody): Promise<void>;
  /**
   * Submits the advanced verification: the caller's own uploads of purposes ID_FRONT, ID_BACK, ID_HANDHELD. Throws
   * kyc_basic_required (basic not PASS), kyc_already_verified, kyc_images_invalid (an id unknown, another user's or
   * of the wrong purpose), kyc_pending.
   */
  submitAdvanced(userId: string, input: SubmitAdvancedBody): Promise<void>;
  /** The user's verification at both levels, the document number masked, a rejection reason in `lang`. */
  getKyc(userId: string, lang: Lang): Promise<KycStatus>;
  /** The verified real name of `userId`, or null when the basic verification has not passed. */
  verifiedRealName(userId: string): string | null;
  /** Applications, PENDING first then newest first, one page (`page` from 1). */
  listApplications(filter: {
    state?: 'PENDING' | 'PASS' | 'REJECTED';
    level?: 'BASIC' | 'ADVANCED';
    userId?: string;
    page: number;
    pageSize: number;
  }): Promise<{ total: number; rows: KycApplicationSummary[] }>;
  /** One application in full, or null when `id` is unknown. */
  application(id: string): Promise<KycApplicationDetail | null>;
  /**
   * Decides a PENDING application: the state change (and on a basic approval the masked number, the real name and
   * the document's unique key) goes through updateUser with `audit` (the console's record, written by the projector
   * in the same transaction), then the application row records the decision. Throws AppError admin_kyc_not_found
   * (404), admin_kyc_not_pending (decided already, here or meanwhile), kyc_reason_required (a reject without both
   * reasons, or one over 200 characters), id_number_taken (another user was verified with this number meanwhile:
   * reject this one instead).
   */
  decide(id: string, decision: KycDecision, audit: Record<string, string>): Promise<void>;
  /** An image's bytes and type for its owner or any operator; throws not_found (404). */
  imageFor(imageId: string, viewer: ImageViewer): Promise<{ bytes: Buffer; mime: string; ownerId: string }>;
}

/** The profile field holding each level's state. */
const STATE_FIELD = { BASIC: 'cardState', ADVANCED: 'kycAdvState' } as const;

/** A positive id below 2^63 as a bigint, or null. */
function parseId(id: string): bigint | null {
  if (!/^[1-9][0-9]{0,18}$/.test(id)) return null;
  const n = BigInt(id);
  return n < 2n ** 63n ? n : null;
}

function summary(r: Row): KycApplicationSummary {
  return {
    id: r.id.toString(),
    userId: r.userId.toString(),
    level: r.level as KycApplicationSummary['level'],
    state: r.state as KycApplicationSummary['state'],
    realName: r.realName,
    createdAt: r.submittedAt.getTime(),
    reasonZh: r.rejectReasonZh,
    reasonEn: r.rejectReasonEn,
  };
}

/** The wire state of a profile state field ('' = NONE). */
function progress(v: string | undefined): KycProgress {
  return v === 'PENDING' || v === 'PASS' || v === 'REJECTED' ? v : 'NONE';
}

/** Builds the KYC service. `now` (Unix ms) defaults to the clock. */
export function createKycService(deps: { db: Db; host: EnginePort; uploads: UploadsService; now?: () => number }): KycService {
  const { host, uploads } = deps;
  const repo = createKycRepository(deps.db);
  const now = deps.now ?? Date.now;

  function profileOf(userId: string): Readonly<Record<string, string>> {
    const u = host.engine.user(userId);
    if (!u) throw new AppError('not_found', 404);
    return u.profile;
  }

  /**
   * Sets the level's state to PENDING in the journal (compare-and-set on the state read before), after the
   * application row exists; the row is removed again when the journal refuses, so nothing is half-applied.
   */
  async function markPending(userId: string, appId: bigint, field: string, before: string): Promise<void> {
    let r: Awaited<ReturnType<EnginePort['submit']>>;
    try {
      r = await host.submit({ type: 'updateUser', userId, profile: { [field]: 'PENDING' }, expect: { [field]: before } });
    } catch (err) {
      await repo.remove(appId);
      throw err;
    }
    if (r.code !== 'ok') {
      await repo.remove(appId);
      if (r.code === 'user_field_mismatch') throw new AppError('kyc_pending', 400);
      throw new Error(`updateUser refused: ${r.code}`);
    }
    await host.projected();
  }

  return {
    async submitBasic(userId, input) {
      const t = now();
      const realName = parseRealName(input.realName);
      const country = parseCountry(input.country);
      const id = parseIdNumber(country, input.idType as IdType, input.idNumber, t);
      if (id.birthDate !== undefined && ageOn(id.birthDate, t) < GUARDIAN_CONSENT_UNDER_AGE && input.guardianConsent !== true) {
        throw new AppError('guardian_consent_required', 400, 'guardianConsent');
      }
      const profile = profileOf(userId);
      const before = profile.cardState ?? '';
      if (before === 'PASS') throw new AppError('kyc_already_verified', 400);
      const owner = host.engine.userByKey(idNumberKey(country, id.number));
      if (owner !== undefined && owner !== userId) throw new AppError('id_number_taken', 400, 'idNumber');
      const appId = await repo.insertPending({
        userId: BigInt(userId),
        level: 'BASIC',
        state: 'PENDING',
        country,
        realName,
        idType: input.idType,
        idNumber: id.number,
        guardianConsent: input.guardianConsent === true,
        submittedAt: new Date(t),
      });
      if (appId === null) throw new AppError('kyc_pending', 400);
      await markPending(userId, appId, STATE_FIELD.BASIC, before);
    },

    async submitAdvanced(userId, input) {
      const profile = profileOf(userId);
      if (profile.cardState !== 'PASS') throw new AppError('kyc_basic_required', 400);
      const before = profile.kycAdvState ?? '';
      if (before === 'PASS') throw new AppError('kyc_already_verified', 400);
      const wanted: Array<[keyof SubmitAdvancedBody, UploadPurpose]> = [
        ['frontImageId', 'ID_FRONT'],
        ['backImageId', 'ID_BACK'],
        ['handheldImageId', 'ID_HANDHELD'],
      ];
      for (const [field, purpose] of wanted) {
        if (!(await uploads.ownImage(userId, input[field], purpose))) throw new AppError('kyc_images_invalid', 400, field);
      }
      const appId = await repo.insertPending({
        userId: BigInt(userId),
        level: 'ADVANCED',
        state: 'PENDING',
        country: profile.kycCountry ?? '',
        realName: profile.realName ?? '',
        idType: profile.kycIdType ?? '',
        frontImageId: input.frontImageId,
        backImageId: input.backImageId,
        handheldImageId: input.handheldImageId,
        submittedAt: new Date(now()),
      });
      if (appId === null) throw new AppError('kyc_pending', 400);
      await markPending(userId, appId, STATE_FIELD.ADVANCED, before);
    },

    async getKyc(userId, lang) {
      const profile = profileOf(userId);
      const id = BigInt(userId);
      const [basic, advanced] = await Promise.all([repo.latest(id, 'BASIC'), repo.latest(id, 'ADVANCED')]);
      const reason = (r: Row | null, state: KycProgress) => (state === 'REJECTED' && r ? (lang === 'zh' ? r.rejectReasonZh : r.rejectReasonEn) : '');
      const basicState = progress(profile.cardState);
      const advancedState = progress(profile.kycAdvState);
      // The journal is the truth of the state and of a verified identity; the row adds what was submitted.
      const verified = basicState === 'PASS';
      return {
        basic: {
          state: basicState,
          country: verified ? (profile.kycCountry ?? basic?.country ?? '') : (basic?.country ?? ''),
          realName: verified ? (profile.realName ?? '') : (basic?.realName ?? ''),
          idType: verified ? (profile.kycIdType ?? basic?.idType ?? '') : (basic?.idType ?? ''),
          idNumber: verified ? (profile.cardNo ?? '') : basic ? maskIdNumber(basic.idNumber) : '',
          rejectReason: reason(basic, basicState),
          submittedAt: basicState === 'NONE' ? 0 : (basic?.submittedAt.getTime() ?? 0),
          decidedAt: basicState === 'NONE' ? 0 : (basic?.decidedAt?.getTime() ?? 0),
        },
        advanced: {
          state: advancedState,
          rejectReason: reason(advanced, advancedState),
          submittedAt: advancedState === 'NONE' ? 0 : (advanced?.submittedAt.getTime() ?? 0),
          decidedAt: advancedState === 'NONE' ? 0 : (advanced?.decidedAt?.getTime() ?? 0),
        },
      };
    },

    verifiedRealName(userId) {
      const p = host.engine.user(userId)?.profile;
      return p?.cardState === 'PASS' && p.realName ? p.realName : null;
    },

    async listApplications(filter) {
      const pageSize = Math.min(Math.max(Math.trunc(filter.pageSize) || 20, 1), 100);
      const page = Math.max(Math.trunc(filter.page) || 1, 1);
      let userId: bigint | undefined;
      if (filter.userId !== undefined && filter.userId !== '') {
        const id = parseId(filter.userId);
        if (id === null) return { total: 0, rows: [] };
        userId = id;
      }
      const r = await repo.list({ state: filter.state, level: filter.level, userId, offset: (page - 1) * pageSize, limit: pageSize });
      return { total: r.total, rows: r.rows.map(summary) };
    },

    async application(id) {
      const appId = parseId(id);
      const r = appId === null ? null : await repo.find(appId);
      if (!r) return null;
      const fields: Record<string, string> =
        r.level === 'BASIC'
          ? { country: r.country, realName: r.realName, idType: r.idType, idNumber: r.idNumber, guardianConsent: r.guardianConsent ? 'true' : 'false' }
          : { country: r.country, realName: r.realName, idType: r.idType };
      const imageIds = [r.frontImageId, r.backImageId, r.handheldImageId].filter((x): x is string => typeof x === 'string' && x !== '');
      return { application: summary(r), fields, imageIds };
    },

    async decide(id, decision, audit) {
      const appId = parseId(id);
      const a = appId === null ? null : await repo.find(appId);
      if (!a) throw new AppError('admin_kyc_not_found', 404);
      if (a.state !== 'PENDING') throw new AppError('admin_kyc_not_pending', 400);
      let reasonZh = '';
      let reasonEn = '';
      if (!decision.approve) {
        reasonZh = decision.reasonZh.trim();
        reasonEn = decision.reasonEn.trim();
        if (reasonZh === '' || reasonEn === '' || reasonZh.length > MAX_REJECT_REASON_LENGTH || reasonEn.length > MAX_REJECT_REASON_LENGTH) {
          throw new AppError('kyc_reason_required', 400);
        }
      }
      const level = a.level === 'ADVANCED' ? 'ADVANCED' : 'BASIC';
      const field = STATE_FIELD[level];
      let profile: Record<string, string>;
      let addKeys: string[] | undefined;
      if (!decision.approve) profile = { [field]: 'REJECTED' };
      else if (level === 'ADVANCED') profile = { kycAdvState: 'PASS', kycLevel: 'ADVANCED' };
      else {
        profile = { cardState: 'PASS', cardNo: maskIdNumber(a.idNumber), realName: a.realName, kycCountry: a.country, kycIdType: a.idType, kycLevel: 'BASIC' };
        addKeys = [idNumberKey(a.country, a.idNumber)];
      }
      const userId = a.userId.toString();
      const r = await host.submit({ type: 'updateUser', userId, profile, expect: { [field]: 'PENDING' }, ...(addKeys ? { addKeys } : {}), audit });
      if (r.code === 'user_key_taken') throw new AppError('id_number_taken', 400);
      if (r.code === 'user_field_mismatch') throw new AppError('admin_kyc_not_pending', 400);
      if (r.code !== 'ok') throw new Error(`updateUser refused: ${r.code}`);
      await host.projected();
      await repo.decide(a.id, decision.approve ? 'PASS' : 'REJECTED', reasonZh, reasonEn, audit.operatorId ?? '', new Date(now()));
    },

    imageFor(imageId, viewer) {
      return uploads.imageFor(imageId, viewer);
    },
  };
}
