/** POST admin/auth/login: e-mail, password and TOTP code in one step; stores the session. */
import { useMutation } from '@tanstack/react-query';
import { ADMIN_PATHS, type AdminSession } from '@exchange/api';
import { apiPost } from '../../../shared/api';
import { setSession } from '../../../shared/session';

/** The login form's values. */
export interface LoginInput {
  email: string;
  password: string;
  totp: string;
}

/** Logs in and stores the session. */
export async function login(input: LoginInput): Promise<AdminSession> {
  const s = await apiPost<AdminSession>(ADMIN_PATHS.login, { ...input });
  setSession({ token: s.token, operator: s.operator });
  return s;
}

/** The login mutation. */
export function useLogin() {
  return useMutation({ mutationFn: login });
}
