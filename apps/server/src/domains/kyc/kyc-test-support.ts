/**
 * Test support of the uploads, KYC and payment modules: users logged in through the API, multipart upload
 * requests built by hand, real images made with sharp (and a hand-made 20000x20000 PNG bomb), a valid mainland ID
 * number for a birth date, and an operator's decision through `ctx.kyc.decide`.
 */
import zlib from 'node:zlib';
import sharp from 'sharp';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../../../test/helpers';
import { listOutbox } from '../verification/outbox.repository';
import { passPuzzle } from '../member/member-test-app';

/** A logged-in user: the headers its requests carry. */
export interface TestUser {
  userId: string;
  token: string;
  headers: { token: string; userId: string };
}

/** Creates (or reuses) the e-mail user `mail` and logs it in through the API. */
export async function loginUser(t: TestApp, mail: string, password = 'secret-pass-1'): Promise<TestUser> {
  await t.ctx.members.ensureEmailUser(mail, password, mail.split('@')[0]!.slice(0, 20));
  const res = await t.app.inject({ method: 'POST', url: '/api/member/member/login', payload: { account: mail, password } });
  const body = res.json<{ status: string; result: { userId: string; token: string } }>();
  if (body.status !== 'SUCCEED') throw new Error(`login failed: ${res.body}`);
  return { ...body.result, headers: { token: body.result.token, userId: body.result.userId } };
}

/** A multipart/form-data body of text fields and one file (name, content type, bytes). */
export function multipart(
  fields: Record<string, string>,
  file?: { field?: string; name: string; type: string; bytes: Buffer },
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----h2test${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
    );
    parts.push(file.bytes, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** POSTs an upload of `bytes` as `purpose` for `user`. */
export function uploadRequest(
  app: FastifyInstance,
  user: TestUser | null,
  purpose: string,
  bytes: Buffer | null,
  o: { name?: string; type?: string; lang?: 'zh' | 'en' } = {},
): Promise<LightMyRequestResponse> {
  const body = multipart({ purpose }, bytes ? { name: o.name ?? 'photo.jpg', type: o.type ?? 'image/jpeg', bytes } : undefined);
  return app.inject({
    method: 'POST',
    url: '/api/member/upload/image',
    payload: body.payload,
    headers: { ...body.headers, lang: o.lang ?? 'en', ...(user?.headers ?? {}) },
  });
}

/** Uploads a fresh 400x400 JPEG as `purpose` for `user`; returns its id. */
export async function uploadOk(app: FastifyInstance, user: TestUser, purpose: string): Promise<string> {
  const res = await uploadRequest(app, user, purpose, await jpeg(400, 400));
  const body = res.json<{ status: string; result: { imageId: string } }>();
  if (body.status !== 'SUCCEED') throw new Error(`upload failed: ${res.body}`);
  return body.result.imageId;
}

/** A `w` x `h` JPEG of noise-free colour, optionally with EXIF (including GPS) written into it. */
export async function jpeg(w: number, h: number, o: { exif?: boolean } = {}): Promise<Buffer> {
  let img = sharp({ create: { width: w, height: h, channels: 3, background: { r: 200, g: 40, b: 40 } } });
  if (o.exif) img = img.withExif({ IFD0: { Copyright: 'secret-owner', Make: 'PhoneMaker' }, IFD3: { GPSLatitudeRef: 'N', GPSLongitudeRef: 'E' } });
  return img.jpeg({ quality: 90 }).toBuffer();
}

/** A `w` x `h` PNG. */
export function png(w: number, h: number): Promise<Buffer> {
  return sharp({ create: { width: w, height: h, channels: 4, background: { r: 0, g: 120, b: 200, alpha: 1 } } })
    .png()
    .toBuffer();
}

/** A `w` x `h` WebP. */
export function webp(w: number, h: number): Promise<Buffer> {
  return sharp({ create: { width: w, height: h, channels: 3, background: { r: 20, g: 160, b: 20 } } })
    .webp()
    .toBuffer();
}

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(typed) >>> 0);
  return Buffer.concat([len, typed, crc]);
}

/**
 * A real, decodable 20000 x 20000 PNG (400 megapixels, 1-bit grey, all black) of about 50 KB: a decompression
 * bomb (50 MB of pixel rows once inflated, 1.2 GB as RGB), made directly rather than by sharp (seconds of CPU).
 */
export function pngBomb(side = 20_000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const rows = Buffer.alloc((1 + Math.ceil(side / 8)) * side);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', zlib.deflateSync(rows, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A valid 18-character mainland ID number for birth date `yyyymmdd` (region 110101, sequence `seq`). */
export function mainlandId(yyyymmdd: string, seq = '123'): string {
  const body = `110101${yyyymmdd}${seq}`;
  const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(body[i]) * w[i]!;
  return body + '10X98765432'[sum % 11]!;
}

/** The id of the user's latest application at `level`, read through the console's port. */
export async function latestApplicationId(t: TestApp, userId: string, level: 'BASIC' | 'ADVANCED'): Promise<string> {
  const page = await t.ctx.kyc.listApplications({ userId, level, page: 1, pageSize: 1 });
  if (!page.rows[0]) throw new Error(`no ${level} application of user ${userId}`);
  return page.rows[0].id;
}

/** The audit record a test operator passes to decide. */
export const TEST_AUDIT = { operatorId: '1', action: 'kyc_decide' };

/** Submits a valid basic verification for `user` (an adult mainland ID number) and approves it. */
export async function verifyBasic(t: TestApp, user: TestUser, realName = '张三', idNumber = mainlandId('19900307')): Promise<void> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/member/kyc/submitBasic',
    headers: user.headers,
    payload: { realName, idType: 'ID_CARD', idNumber },
  });
  if (res.json<{ status: string }>().status !== 'SUCCEED') throw new Error(`submitBasic failed: ${res.body}`);
  await t.ctx.kyc.decide(await latestApplicationId(t, user.userId, 'BASIC'), { approve: true }, TEST_AUDIT);
}

/**
 * Sets the transaction password of `user` (e-mail `mail`, no Google authenticator) through the API as the app does:
 * a VERIFY code to the user's own address (read back from the demo outbox), then member/security/setTransPassword.
 */
export async function setTransPassword(t: TestApp, user: TestUser, mail: string, transPassword: string): Promise<void> {
  const pass = await passPuzzle(t);
  const sent = await t.app.inject({ method: 'POST', url: '/api/data/sms/sendCode', headers: user.headers, payload: { type: 'VERIFY', ...pass } });
  if (sent.json<{ status: string }>().status !== 'SUCCEED') throw new Error(`sendCode VERIFY failed: ${sent.body}`);
  const [latest] = await listOutbox(t.ctx.db, mail);
  if (!latest) throw new Error(`no code in the outbox for ${mail}`);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/member/security/setTransPassword',
    headers: user.headers,
    payload: { transPassword, confirmTransPassword: transPassword, verifyCode: latest.code },
  });
  if (res.json<{ status: string }>().status !== 'SUCCEED') throw new Error(`setTransPassword failed: ${res.body}`);
}
