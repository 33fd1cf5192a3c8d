/**
 * Multipart upload of one file to the app API with progress: fetch cannot report upload
 * progress, so this one call uses XMLHttpRequest. Same headers and envelope handling as apiPost: SUCCEED resolves
 * with `result`; FAILED throws ApiError(errorCode) with the server's message (the caller shows the spec's
 * "upload failed" toast with it); 401 / SYS.0015 clear the session like every other call.
 */
import { useAppStore } from '../storage';
import { t } from '../i18n';
import { ApiError } from './api-error';
import { httpAlertText } from './alerts';
import { API_BASE, REQUEST_TIMEOUT_MS, endSession } from './client';
import { navigateTo } from '../navigation';

/** The parts of an answer envelope read here. */
interface UploadEnvelope {
  status?: string;
  errorCode?: string;
  errorMessage?: string;
  result?: unknown;
}

function parseEnvelope(text: string): UploadEnvelope | null {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' ? (v as UploadEnvelope) : null;
  } catch {
    return null;
  }
}

/** Options of apiUpload. */
export interface UploadOptions {
  /** Called with the fraction sent so far (0..1). */
  onProgress?: (fraction: number) => void;
  /** Cancels the upload. */
  signal?: AbortSignal;
}

/**
 * POST `/api/<path>` as multipart/form-data: `file` under the field name `file`, `fields` as text parts.
 * Resolves with the envelope's result; throws ApiError ('NETWORK', 'TIMEOUT', 'HTTP_<status>', or the errorCode).
 */
export function apiUpload<T>(path: string, file: Blob, fields: Record<string, string>, opts: UploadOptions = {}): Promise<T> {
  const { token, userId, currentLangue } = useAppStore.getState();
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', file, file instanceof File ? file.name : 'image.jpg');
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', API_BASE + path.replace(/^\/+/, ''));
    xhr.timeout = REQUEST_TIMEOUT_MS;
    xhr.setRequestHeader('lang', currentLangue);
    xhr.setRequestHeader('Accept', 'application/json');
    if (token) xhr.setRequestHeader('token', token);
    if (userId) xhr.setRequestHeader('userId', userId);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) opts.onProgress?.(e.loaded / e.total);
    };
    xhr.onerror = () => reject(new ApiError('NETWORK', httpAlertText(null), null));
    xhr.ontimeout = () => reject(new ApiError('TIMEOUT', httpAlertText(408), null));
    xhr.onabort = () => reject(new ApiError('ABORTED', httpAlertText(null), null));
    xhr.onload = () => {
      const env = parseEnvelope(xhr.responseText);
      if (xhr.status === 401 || env?.errorCode === 'SYS.0015') {
        endSession();
        setTimeout(() => navigateTo('/login', { replace: true }), 500);
        reject(new ApiError(env?.errorCode || 'HTTP_401', t('errors:loginExpired'), xhr.status));
        return;
      }
      if (env?.status === 'SUCCEED') resolve(env.result as T);
      else if (env?.status === 'FAILED') reject(new ApiError(env.errorCode || `HTTP_${xhr.status}`, env.errorMessage || httpAlertText(xhr.status), xhr.status));
      else reject(new ApiError(`HTTP_${xhr.status}`, httpAlertText(xhr.status >= 400 ? xhr.status : 500), xhr.status));
    };
    opts.signal?.addEventListener('abort', () => xhr.abort());
    opts.onProgress?.(0);
    xhr.send(form);
  });
}
