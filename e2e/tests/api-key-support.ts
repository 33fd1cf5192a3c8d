/**
 * Helpers of the API key journeys (15, 15b): a signed request to the Binance-compatible API as a bot sends it
 * (docs/binance-api.md; Binance "SIGNED (TRADE and USER_DATA) Endpoint security": the HMAC-SHA256 of the query string
 * with the secret key, hex, as `signature`, the key in the X-MBX-APIKEY header), and the answer's status and body.
 */
import crypto from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';

/** The signed endpoint the journeys call with a key (USER_DATA, permission read). */
export const SIGNED_PATH = '/api/v3/account';

/** GET `path` signed with an HMAC key: { status, body } (body { code, msg } on a Binance error). */
export async function signedGet(
  request: APIRequestContext,
  path: string,
  key: { apiKey: string; secret: string },
): Promise<{ status: number; body: Record<string, unknown> }> {
  const query = `recvWindow=5000&timestamp=${Date.now()}`;
  const signature = crypto.createHmac('sha256', key.secret).update(query).digest('hex');
  const res = await request.get(`${path}?${query}&signature=${signature}`, { headers: { 'X-MBX-APIKEY': key.apiKey } });
  let body: Record<string, unknown> = {};
  try {
    body = (await res.json()) as Record<string, unknown>;
  } catch {
    /* not JSON */
  }
  return { status: res.status(), body };
}
