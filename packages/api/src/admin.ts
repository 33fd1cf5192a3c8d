/**
 * Wire schemas of the operator console API: `/api/admin/...`, authenticated by the
 * header `x-admin-token` (an operator session, never a user's), answered in the envelope like every route. Paths in
 * paths.ts (`ADMIN_PATHS`). Times are Unix ms numbers; balances decimal strings.
 */
import { Type, type Static } from '@sinclair/typebox';

/** Operator roles: support = lookup/view; compliance = + KYC decisions; finance = lookup/view; admin = everything. */
export const OperatorRole = Type.Union([Type.Literal('support'), Type.Literal('compliance'), Type.Literal('finance'), Type.Literal('admin')]);
export type OperatorRole = Static<typeof OperatorRole>;
/** Every role, in order of increasing power (for selects). */
export const OPERATOR_ROLES: readonly OperatorRole[] = ['support', 'finance', 'compliance', 'admin'];

/** The actions a console route may require (the server enforces them per route: domains/admin/auth.ts). */
export type OperatorPermission = 'view' | 'kyc_decide' | 'user_freeze' | 'operators' | 'wallet_decide' | 'content_edit' | 'content_publish' | 'support';

/**
 * Permissions of each role: support and finance view; compliance also decides KYC and freezes accounts;
 * finance and admin decide the wallet (`wallet_decide`: approve or reject withdrawals, take a proof-of-reserves
 * snapshot); admin does everything and manages operators. Content: support, compliance and admin edit drafts
 * (`content_edit`); compliance and admin publish, unpublish and delete (`content_publish`). Customer service (the
 * `support` permission): support and admin answer the chat (the queue, replies, canned replies; the chats hold users' personal
 * details, so the other roles do not read them). The console hides what a role cannot do; the server refuses it.
 */
export const ROLE_PERMISSIONS: Readonly<Record<OperatorRole, readonly OperatorPermission[]>> = {
  support: ['view', 'content_edit', 'support'],
  finance: ['view', 'wallet_decide'],
  compliance: ['view', 'kyc_decide', 'user_freeze', 'content_edit', 'content_publish'],
  admin: ['view', 'kyc_decide', 'user_freeze', 'operators', 'wallet_decide', 'content_edit', 'content_publish', 'support'],
};

/** A decimal id on the wire (operator, user, application, image ids). */
const Id = Type.String({ pattern: '^[1-9][0-9]{0,17}$' });
const Page = Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 }));
const PageSize = Type.Optional(Type.Integer({ minimum: 1, maximum: 100 }));
/** A free reason typed by an operator (freeze, KYC rejection). */
const Reason = Type.String({ minLength: 1, maxLength: 500 });

/** An operator as the console shows it (no secrets). */
export const Operator = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  role: OperatorRole,
  disabled: Type.Boolean(),
  createdAt: Type.Number(),
});
export type Operator = Static<typeof Operator>;

// ---------------------------------------------------------------- admin/auth
export const AdminLoginBody = Type.Object({
  email: Type.String({ minLength: 3, maxLength: 254 }),
  password: Type.String({ minLength: 1, maxLength: 128 }),
  totp: Type.String({ pattern: '^[0-9]{6}$' }),
});
export const AdminSession = Type.Object({ token: Type.String(), expiresAt: Type.Number(), operator: Operator });
export type AdminSession = Static<typeof AdminSession>;

// ---------------------------------------------------------------- admin/user
export const AdminUserSearchQuery = Type.Object({
  /** A UID (8 digits), an e-mail, or a phone number (digits, optionally with the area code as "86 138..." or "+86138..."). */
  q: Type.String({ minLength: 1, maxLength: 100 }),
});
export const AdminUserRow = Type.Object({
  userId: Type.String(),
  uuid: Type.String(),
  mail: Type.String(),
  phone: Type.String(),
  areaCode: Type.String(),
  nickName: Type.String(),
  cardState: Type.String(),
  frozen: Type.Boolean(),
});
export type AdminUserRow = Static<typeof AdminUserRow>;
export const AdminUserQuery = Type.Object({ userId: Id });
export const AdminBalance = Type.Object({ account: Type.String(), asset: Type.String(), available: Type.String(), frozen: Type.String() });
/** A user's login session: device (IP, user-agent), times (Unix ms; lastSeenAt 0 = unknown) and whether it ended. */
export const AdminUserSession = Type.Object({
  id: Type.String(),
  createdAt: Type.Number(),
  expiresAt: Type.Number(),
  lastSeenAt: Type.Number(),
  ip: Type.String(),
  userAgent: Type.String(),
  revoked: Type.Boolean(),
});
export const AdminKycSummary = Type.Object({
  id: Type.String(),
  level: Type.String(),
  state: Type.String(),
  createdAt: Type.Number(),
  reasonZh: Type.String(),
  reasonEn: Type.String(),
});
export type AdminKycSummary = Static<typeof AdminKycSummary>;
export const AdminUserDetail = Type.Object({
  user: AdminUserRow,
  createdAt: Type.Number(),
  invitedBy: Type.String(),
  frozenReason: Type.String(),
  kyc: Type.Array(AdminKycSummary),
  sessions: Type.Array(AdminUserSession),
  balances: Type.Array(AdminBalance),
});
export type AdminUserDetail = Static<typeof AdminUserDetail>;
export const AdminFreezeBody = Type.Object({ userId: Id, reason: Reason });

// ---------------------------------------------------------------- admin/audit
export const AdminAuditQuery = Type.Object({
  operatorId: Type.Optional(Id),
  action: Type.Optional(Type.String({ pattern: '^[a-z_]{1,40}$' })),
  userId: Type.Optional(Id),
  /** Unix ms, inclusive / exclusive. */
  from: Type.Optional(Type.Integer({ minimum: 0, maximum: 8_640_000_000_000_000 })),
  to: Type.Optional(Type.Integer({ minimum: 0, maximum: 8_640_000_000_000_000 })),
  page: Page,
  pageSize: PageSize,
});
export const AdminAuditRow = Type.Object({
  id: Type.String(),
  operatorId: Type.String(),
  operatorEmail: Type.String(),
  action: Type.String(),
  targetUserId: Type.String(),
  before: Type.Unknown(),
  after: Type.Unknown(),
  at: Type.Number(),
  ip: Type.String(),
  userAgent: Type.String(),
});
export type AdminAuditRow = Static<typeof AdminAuditRow>;
export const AdminAuditPage = Type.Object({ total: Type.Number(), rows: Type.Array(AdminAuditRow) });
export type AdminAuditPage = Static<typeof AdminAuditPage>;

// ---------------------------------------------------------------- admin/kyc
export const KycState = Type.Union([Type.Literal('PENDING'), Type.Literal('PASS'), Type.Literal('REJECTED')]);
export const KycLevel = Type.Union([Type.Literal('BASIC'), Type.Literal('ADVANCED')]);
export const AdminKycListQuery = Type.Object({ state: Type.Optional(KycState), level: Type.Optional(KycLevel), page: Page, pageSize: PageSize });
export const AdminKycRow = Type.Object({
  id: Type.String(),
  userId: Type.String(),
  level: Type.String(),
  state: Type.String(),
  realName: Type.String(),
  createdAt: Type.Number(),
});
export type AdminKycRow = Static<typeof AdminKycRow>;
export const AdminKycPage = Type.Object({ total: Type.Number(), rows: Type.Array(AdminKycRow) });
export type AdminKycPage = Static<typeof AdminKycPage>;
export const AdminKycQuery = Type.Object({ id: Id });
/** One application: its row, the submitted fields (as the user typed them) and the ids of its images. */
export const AdminKycApplication = Type.Object({
  application: AdminKycRow,
  fields: Type.Record(Type.String(), Type.String()),
  imageIds: Type.Array(Type.String()),
  reasonZh: Type.String(),
  reasonEn: Type.String(),
});
export type AdminKycApplication = Static<typeof AdminKycApplication>;
/** An uploaded image's id (domains/uploads: 16 random bytes, base64url). */
export const AdminKycImageQuery = Type.Object({ imageId: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }) });
export const AdminKycApproveBody = Type.Object({ id: Id });
/** A rejection's reason in each language, as the user will read it (at most 200 characters: domains/kyc). */
const KycReason = Type.String({ minLength: 1, maxLength: 200 });
export const AdminKycRejectBody = Type.Object({ id: Id, reasonZh: KycReason, reasonEn: KycReason });

// ---------------------------------------------------------------- admin/operator (admin role only)
export const AdminOperatorCreateBody = Type.Object({
  email: Type.String({ minLength: 3, maxLength: 254 }),
  name: Type.String({ minLength: 1, maxLength: 64 }),
  role: OperatorRole,
});
/** Shown once: the generated password, the TOTP key and its otpauth URL. */
export const OperatorCredentials = Type.Object({
  operator: Operator,
  password: Type.String(),
  totpSecret: Type.String(),
  otpauthUrl: Type.String(),
});
export type OperatorCredentials = Static<typeof OperatorCredentials>;
export const AdminOperatorIdBody = Type.Object({ operatorId: Id });
export const AdminOperatorDisableBody = Type.Object({ operatorId: Id, disabled: Type.Boolean() });
export const AdminTotpReset = Type.Object({ totpSecret: Type.String(), otpauthUrl: Type.String() });
