/**
 * Wire schemas of identity verification, image uploads and payment methods (spec sections 2, 3, 5, 9).
 * The schemas bound sizes and enums; the precise rules (name characters, the mainland ID checksum and birth date,
 * the Luhn check of a bank card) are the server's, each with its own error code (errors.ts, "identity
 * verification" section), because a schema failure could only say "invalid request parameters".
 */
import { Type, type Static } from '@sinclair/typebox';

/** Purposes of an uploaded image: the three KYC photos, the QR code of a WeChat or Alipay payment method, OTC images (payment proof, appeal evidence, order chat: domains/otc) and customer-service chat images (SUPPORT: domains/support). */
export const UploadPurpose = Type.Union([
  Type.Literal('ID_FRONT'),
  Type.Literal('ID_BACK'),
  Type.Literal('ID_HANDHELD'),
  Type.Literal('PAY_QR'),
  Type.Literal('OTC'),
  Type.Literal('SUPPORT'),
]);
export type UploadPurpose = Static<typeof UploadPurpose>;

/** Smallest accepted image side, pixels (our value: the spec says a minimum exists but not which). */
export const UPLOAD_MIN_SIDE_PX = 300;
/** Largest accepted upload, bytes (spec section 9: image max 5MB). */
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
/** Largest accepted pixel count (width x height) of an upload, against decompression bombs (our value: 40 MP). */
export const UPLOAD_MAX_PIXELS = 40_000_000;

/** An image id: 22 base64url characters (128 random bits). */
export const ImageId = Type.String({ pattern: '^[A-Za-z0-9_-]{22}$', maxLength: 22 });
/** Answer of POST member/upload/image. */
export const UploadedImage = Type.Object({ imageId: Type.String() });
export type UploadedImage = Static<typeof UploadedImage>;
/** Query of GET member/upload/image (the bytes of the caller's own image). */
export const GetImageQuery = Type.Object({ imageId: Type.String({ maxLength: 64 }) });

/**
 * A user's verification progress at one level: none submitted, under review, verified, rejected (spec section 4).
 * (admin.ts KycState is the state of one application, without NONE.)
 */
export const KycProgress = Type.Union([Type.Literal('NONE'), Type.Literal('PENDING'), Type.Literal('PASS'), Type.Literal('REJECTED')]);
export type KycProgress = Static<typeof KycProgress>;
export const IdType = Type.Union([Type.Literal('ID_CARD'), Type.Literal('PASSPORT'), Type.Literal('DRIVING_LICENSE')]);
export type IdType = Static<typeof IdType>;

/** POST member/kyc/submitBasic. `country` is ISO 3166-1 alpha-2 (default CN). */
export const SubmitBasicBody = Type.Object({
  country: Type.Optional(Type.String({ maxLength: 2 })),
  realName: Type.String({ maxLength: 64 }),
  idType: IdType,
  idNumber: Type.String({ maxLength: 32 }),
  /** Spec section 9: minors under 16 need guardian consent. */
  guardianConsent: Type.Optional(Type.Boolean()),
});
export type SubmitBasicBody = Static<typeof SubmitBasicBody>;

/** POST member/kyc/submitAdvanced: the caller's own uploads of purposes ID_FRONT, ID_BACK and ID_HANDHELD. */
export const SubmitAdvancedBody = Type.Object({
  frontImageId: Type.String({ maxLength: 64 }),
  backImageId: Type.String({ maxLength: 64 }),
  handheldImageId: Type.String({ maxLength: 64 }),
});
export type SubmitAdvancedBody = Static<typeof SubmitAdvancedBody>;

/** The basic verification as the user sees it; `idNumber` masked (first 3 and last 4). Times are Unix ms, 0 = none. */
export const KycBasic = Type.Object({
  state: KycProgress,
  country: Type.String(),
  realName: Type.String(),
  idType: Type.String(),
  idNumber: Type.String(),
  /** In the request's language; '' unless REJECTED. */
  rejectReason: Type.String(),
  submittedAt: Type.Number(),
  decidedAt: Type.Number(),
});
export type KycBasic = Static<typeof KycBasic>;
/** The advanced verification as the user sees it. */
export const KycAdvanced = Type.Object({
  state: KycProgress,
  rejectReason: Type.String(),
  submittedAt: Type.Number(),
  decidedAt: Type.Number(),
});
export type KycAdvanced = Static<typeof KycAdvanced>;
/** Answer of GET member/kyc/getKyc. */
export const KycStatus = Type.Object({ basic: KycBasic, advanced: KycAdvanced });
export type KycStatus = Static<typeof KycStatus>;

/** Kinds of payment methods (spec section 3: bank card, WeChat, Alipay). */
export const PayType = Type.Union([Type.Literal('BANK'), Type.Literal('WECHAT'), Type.Literal('ALIPAY')]);
export type PayType = Static<typeof PayType>;
/** Most payment methods one user may keep. */
export const MAX_PAYMENT_METHODS = 10;

/** A payment method as its owner sees it: a bank card number masked except its last 4 digits. Times Unix ms. */
export const PaymentMethod = Type.Object({
  id: Type.String(),
  payType: PayType,
  /** The verified real name of the owner (never an input). */
  realName: Type.String(),
  bankName: Type.String(),
  branch: Type.String(),
  cardNo: Type.String(),
  account: Type.String(),
  qrImageId: Type.Optional(Type.String()),
  enabled: Type.Boolean(),
  createdAt: Type.Number(),
});
export type PaymentMethod = Static<typeof PaymentMethod>;

const PaymentFields = {
  payType: PayType,
  bankName: Type.Optional(Type.String({ maxLength: 64 })),
  branch: Type.Optional(Type.String({ maxLength: 64 })),
  cardNo: Type.Optional(Type.String({ maxLength: 32 })),
  account: Type.Optional(Type.String({ maxLength: 64 })),
  qrImageId: Type.Optional(Type.String({ maxLength: 64 })),
  /** The 6-digit transaction password (spec section 5), checked by the security service. */
  transPassword: Type.String({ maxLength: 32 }),
};
/** POST member/payment/addPayment: BANK needs bankName, branch and cardNo; WECHAT / ALIPAY account and qrImageId. */
export const AddPaymentBody = Type.Object(PaymentFields);
export type AddPaymentBody = Static<typeof AddPaymentBody>;
/** POST member/payment/updatePayment: the same fields as addPayment, for the method `id`. */
export const UpdatePaymentBody = Type.Object({ id: Type.String({ maxLength: 20 }), ...PaymentFields });
export type UpdatePaymentBody = Static<typeof UpdatePaymentBody>;
/** POST member/payment/setPaymentEnabled. */
export const SetPaymentEnabledBody = Type.Object({ id: Type.String({ maxLength: 20 }), enabled: Type.Boolean() });
/** POST member/payment/deletePayment. */
export const DeletePaymentBody = Type.Object({ id: Type.String({ maxLength: 20 }), transPassword: Type.String({ maxLength: 32 }) });
