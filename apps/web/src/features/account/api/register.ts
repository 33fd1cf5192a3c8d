/** POST member/member/register (RegisterBody of packages/api): creates the account, returns a session. */
import { API_PATHS, type Session } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';

/** Registration form values as sent. */
export interface RegisterInput {
  registerType: 'EMAIL' | 'PHONE';
  account: string;
  areaCode: string;
  code: string;
  password: string;
  confirmPassword: string;
  invitationCode: string;
}

/** Registers; resolves with the new session. Throws ApiError (toasted) on FAILED. */
export function register(v: RegisterInput): Promise<Session> {
  return apiPost<Session>(API_PATHS.register, {
    registerType: v.registerType,
    mail: v.registerType === 'EMAIL' ? v.account : undefined,
    phone: v.registerType === 'PHONE' ? v.account : undefined,
    areaCode: v.registerType === 'PHONE' ? v.areaCode : undefined,
    code: v.code,
    password: v.password,
    confirmPassword: v.confirmPassword,
    invitationCode: v.invitationCode || undefined,
    agreement: 'true',
  });
}
