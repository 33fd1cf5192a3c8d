/**
 * Payment methods (spec sections 2, 3, 6): bank cards, WeChat and Alipay accounts with a QR code, used by OTC
 * trading. Only for a user whose basic verification passed (real_name_required: the app then sends them to /realname);
 * the holder name is always the verified real name from the journal, never an input. Saving (add, update) and
 * deleting need the transaction password, checked by the security service (counts failures and locks:
 * `verifyTransactionPassword` in security.service.ts). At most MAX_PAYMENT_METHODS per user. Every query is scoped by
 * the caller's id, so another user's method is "not found", never changed.
 */
import { MAX_PAYMENT_METHODS, type AddPaymentBody, type PaymentMethod, type PayType, type UpdatePaymentBody } from '@exchange/api';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/shared/errors';
import { createKeyedSerial } from '../../platform/shared/keyed-serial';
import type { UploadsService } from '../uploads/uploads.service';
import type { KycService } from '../kyc/kyc.service';
import { createPaymentRepository, type PaymentFields, type PaymentRow } from './payment.repository';
import { maskCardNo, parseBankText, parseCardNo, parsePayAccount } from './payment-rules';

/** What the payment service needs of the security service (SecurityService in security.service.ts). */
export interface TransactionPasswordCheck {
  /** Resolves when `transPassword` is the user's; throws AppError trans_password_not_set | _wrong | _locked. */
  verifyTransactionPassword(userId: string, transPassword: string): Promise<void>;
}

export interface PaymentService {
  /** The caller's methods, oldest first, bank card numbers masked. Throws real_name_required. */
  list(userId: string): Promise<PaymentMethod[]>;
  /**
   * Adds a method; returns its id. Throws real_name_required, payment_limit, the field codes (bank_name_required,
   * invalid_characters, bank_card_invalid, pay_account_invalid, pay_qr_required) and the transaction password's.
   */
  add(userId: string, input: AddPaymentBody): Promise<{ id: string }>;
  /**
   * Replaces the fields of the caller's method `input.id`; an empty cardNo (BANK) or qrImageId (WECHAT, ALIPAY) keeps
   * the stored one when the type is unchanged. Throws as add, and payment_not_found (404).
   */
  update(userId: string, input: UpdatePaymentBody): Promise<void>;
  /** Enables or disables the caller's method. Throws real_name_required, payment_not_found. */
  setEnabled(userId: string, id: string, enabled: boolean): Promise<void>;
  /** Deletes the caller's method. Throws real_name_required, payment_not_found and the transaction password's codes. */
  remove(userId: string, id: string, transPassword: string): Promise<void>;
  /**
   * The user's method `id` as stored (the full card number, for the seller's details shown to an OTC buyer), or null
   * when the user has no such method. For the OTC service; never sent to the method's owner as is.
   */
  storedMethod(userId: bigint, id: bigint): Promise<StoredPaymentMethod | null>;
  /** The user's methods as stored, oldest first. For the OTC service. */
  storedMethods(userId: bigint): Promise<StoredPaymentMethod[]>;
}

/** A payment method as stored (payment.repository.ts PaymentRow): what the OTC service reads of a seller's method. */
export type StoredPaymentMethod = PaymentRow;

/** A payment method id: a positive decimal below 2^63; anything else is not found. */
function parseId(id: string): bigint {
  if (!/^[1-9][0-9]{0,18}$/.test(id) || BigInt(id) >= 2n ** 63n) throw new AppError('payment_not_found', 404);
  return BigInt(id);
}

function toWire(r: PaymentRow): PaymentMethod {
  const out: PaymentMethod = {
    id: r.id.toString(),
    payType: r.payType as PayType,
    realName: r.realName,
    bankName: r.bankName,
    branch: r.branch,
    cardNo: r.cardNo === '' ? '' : maskCardNo(r.cardNo),
    account: r.account,
    enabled: r.enabled,
    createdAt: r.createdAt.getTime(),
  };
  if (r.qrImageId) out.qrImageId = r.qrImageId;
  return out;
}

/**
 * Builds the payment service. `security` is read when a password is checked (the security service may be built
 * after this one); without it every save is refused (service_unavailable) rather than saved unchecked.
 */
export function createPaymentService(deps: {
  db: Db;
  kyc: Pick<KycService, 'verifiedRealName'>;
  uploads: Pick<UploadsService, 'ownImage'>;
  security: () => TransactionPasswordCheck | undefined;
  now?: () => number;
}): PaymentService {
  const repo = createPaymentRepository(deps.db);
  const now = deps.now ?? Date.now;
  /** One write of a user at a time, so that two adds of one user cannot both pass the limit. */
  const serial = createKeyedSerial();

  function realName(userId: string): string {
    const name = deps.kyc.verifiedRealName(userId);
    if (name === null) throw new AppError('real_name_required', 400);
    return name;
  }

  async function checkPassword(userId: string, transPassword: string): Promise<void> {
    const security = deps.security();
    if (!security) throw new AppError('service_unavailable', 503);
    await security.verifyTransactionPassword(userId, transPassword);
  }

  /**
   * The stored fields of `input` for `userId`, checked (the holder name from the journal). When editing (`existing`
   * of the same type), an empty card number or QR code keeps the stored one: the app only ever shows it masked.
   */
  async function fieldsOf(userId: string, name: string, input: AddPaymentBody, existing?: PaymentRow): Promise<PaymentFields> {
    const same = existing?.payType === input.payType ? existing : undefined;
    if (input.payType === 'BANK') {
      const keepCard = same !== undefined && (input.cardNo ?? '').trim() === '';
      return {
        payType: 'BANK',
        realName: name,
        bankName: parseBankText(input.bankName, 'bankName'),
        branch: parseBankText(input.branch, 'branch'),
        cardNo: keepCard ? same.cardNo : parseCardNo(input.cardNo),
        account: '',
        qrImageId: null,
      };
    }
    const account = parsePayAccount(input.account);
    const qr = same?.qrImageId && (input.qrImageId ?? '') === '' ? same.qrImageId : (input.qrImageId ?? '');
    if (!(await deps.uploads.ownImage(userId, qr, 'PAY_QR'))) throw new AppError('pay_qr_required', 400, 'qrImageId');
    return { payType: input.payType, realName: name, bankName: '', branch: '', cardNo: '', account, qrImageId: qr };
  }

  return {
    storedMethod: (userId, id) => repo.find(userId, id),
    storedMethods: (userId) => repo.list(userId),

    async list(userId) {
      realName(userId);
      return (await repo.list(BigInt(userId))).map(toWire);
    },

    add(userId, input) {
      return serial(userId, async () => {
        const name = realName(userId);
        if ((await repo.count(BigInt(userId))) >= MAX_PAYMENT_METHODS) throw new AppError('payment_limit', 400);
        const fields = await fieldsOf(userId, name, input);
        await checkPassword(userId, input.transPassword);
        const id = await repo.insert(BigInt(userId), fields, new Date(now()));
        return { id: id.toString() };
      });
    },

    async update(userId, input) {
      const name = realName(userId);
      const id = parseId(input.id);
      const existing = await repo.find(BigInt(userId), id);
      if (!existing) throw new AppError('payment_not_found', 404);
      const fields = await fieldsOf(userId, name, input, existing);
      await checkPassword(userId, input.transPassword);
      if (!(await repo.update(BigInt(userId), id, fields, new Date(now())))) throw new AppError('payment_not_found', 404);
    },

    async setEnabled(userId, id, enabled) {
      realName(userId);
      if (!(await repo.setEnabled(BigInt(userId), parseId(id), enabled, new Date(now())))) throw new AppError('payment_not_found', 404);
    },

    async remove(userId, id, transPassword) {
      realName(userId);
      const pid = parseId(id);
      if (!(await repo.find(BigInt(userId), pid))) throw new AppError('payment_not_found', 404);
      await checkPassword(userId, transPassword);
      if (!(await repo.remove(BigInt(userId), pid))) throw new AppError('payment_not_found', 404);
    },
  };
}
