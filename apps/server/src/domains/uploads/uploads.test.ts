/**
 * Proves the upload routes through app.inject on PGlite (PostgreSQL with DATABASE_URL): a JPEG, PNG and WebP are
 * accepted, re-encoded without EXIF/GPS and served back to their owner only (another user and an unknown id get
 * the same 404); and each bad file gets its own clear error in zh and en with nothing stored (no row,
 * no file): a non-image renamed .jpg, an SVG with a script, a 6 MB file, a 100x100 image, a 20000x20000 PNG bomb,
 * a truncated JPEG; plus a missing file, a wrong purpose, a non-multipart body and no credentials.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { count } from 'drizzle-orm';
import { errorText, type ErrorCode } from '@exchange/api';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { uploads } from './uploads.tables';
import { jpeg, loginUser, png, pngBomb, uploadRequest, webp, type TestUser } from '../kyc/kyc-test-support';

/**
 * The image checks, held while `held` is set: each check that starts logs the size of its upload and waits for its
 * release, so a test decides when a check ends instead of the machine's load. Otherwise the real check runs at once.
 */
const checks = vi.hoisted(() => ({ held: false, started: [] as number[], releases: [] as Array<() => void> }));
vi.mock('./image', async (importOriginal) => {
  const real = await importOriginal<typeof import('./image')>();
  return {
    ...real,
    cleanImage: async (input: Buffer) => {
      if (checks.held) {
        checks.started.push(input.length);
        await new Promise<void>((release) => checks.releases.push(release));
      }
      return real.cleanImage(input);
    },
  };
});

let t: TestApp;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  t = await makeTestApp(NO_RATE_LIMITS);
  alice = await loginUser(t, 'alice@uploads.test');
  bob = await loginUser(t, 'bob@uploads.test');
}, 60_000);
afterAll(async () => {
  await t?.close();
});

/** Files under the upload storage directory. */
function storedFiles(): string[] {
  const dir = path.join(t.dataDir, 'uploads');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
}

async function uploadRows(): Promise<number> {
  const [r] = await t.ctx.db.select({ n: count() }).from(uploads);
  return Number(r!.n);
}

function getImage(user: TestUser | null, imageId: string) {
  return t.app.inject({
    method: 'GET',
    url: `/api/member/upload/image?imageId=${encodeURIComponent(imageId)}`,
    headers: { lang: 'en', ...(user?.headers ?? {}) },
  });
}

describe('accepted images', () => {
  it('stores a JPEG re-encoded without its EXIF and GPS, and serves it to its owner only', async () => {
    const original = await jpeg(640, 480, { exif: true });
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const res = await uploadRequest(t.app, alice, 'ID_FRONT', original);
    expect(res.statusCode).toBe(200);
    const imageId = res.json().result.imageId as string;
    expect(imageId).toMatch(/^[A-Za-z0-9_-]{22}$/);

    const own = await getImage(alice, imageId);
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('image/jpeg');
    expect(own.headers['cache-control']).toBe('private, no-store');
    const meta = await sharp(own.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 640, 480]);
    expect(meta.exif).toBeUndefined();
    expect(own.rawPayload.includes(Buffer.from('secret-owner'))).toBe(false);

    // Bob, an unknown id and no credentials: the same answers as for an image that does not exist.
    const other = await getImage(bob, imageId);
    expect([other.statusCode, other.json().errorCode]).toEqual([404, 'not_found']);
    const unknown = await getImage(alice, 'A'.repeat(22));
    expect([unknown.statusCode, unknown.json().errorCode]).toEqual([404, 'not_found']);
    const anonymous = await getImage(null, imageId);
    expect([anonymous.statusCode, anonymous.json().errorCode]).toEqual([401, 'unauthorized']);
    // The console (operators) reads any image through the KYC service; a user only their own.
    expect((await t.ctx.kyc.imageFor(imageId, { operatorId: '1' })).mime).toBe('image/jpeg');
    await expect(t.ctx.kyc.imageFor(imageId, { userId: bob.userId })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('accepts PNG and WebP by their bytes whatever the file is called, and keeps their format', async () => {
    for (const [bytes, format, mime] of [
      [await png(300, 300), 'png', 'image/png'],
      [await webp(500, 320 + 100), 'webp', 'image/webp'],
    ] as const) {
      const res = await uploadRequest(t.app, alice, 'PAY_QR', bytes, { name: 'qr.jpg', type: 'image/jpeg' });
      expect(res.json().status).toBe('SUCCEED');
      const img = await getImage(alice, res.json().result.imageId);
      expect(img.headers['content-type']).toBe(mime);
      expect((await sharp(img.rawPayload).metadata()).format).toBe(format);
    }
  });
});

describe('rejected uploads: a clear zh/en error, nothing stored', () => {
  const cases: Array<{ what: string; bytes: () => Promise<Buffer> | Buffer; code: ErrorCode; name?: string; type?: string }> = [
    { what: 'a text file renamed .jpg', bytes: () => Buffer.from('this is not an image at all, just text '.repeat(40)), code: 'upload_not_image' },
    {
      what: 'an SVG with a script',
      bytes: () =>
        Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><script>alert(document.cookie)</script><rect width="400" height="400"/></svg>',
        ),
      code: 'upload_not_image',
      name: 'evil.svg',
      type: 'image/svg+xml',
    },
    { what: 'a 6 MB file', bytes: async () => Buffer.concat([await jpeg(400, 400), Buffer.alloc(6 * 1024 * 1024, 7)]), code: 'upload_too_large' },
    { what: 'a 100x100 image', bytes: () => jpeg(100, 100), code: 'upload_too_small' },
    { what: 'a 299x1000 image', bytes: () => png(299, 1000), code: 'upload_too_small' },
    { what: 'a 20000x20000 PNG bomb', bytes: () => pngBomb(), code: 'upload_too_many_pixels', name: 'bomb.png', type: 'image/png' },
    { what: 'a truncated JPEG', bytes: async () => (await jpeg(800, 800)).subarray(0, 700), code: 'upload_damaged' },
    {
      what: 'a PNG with its pixel data cut off',
      bytes: async () => (await png(600, 600)).subarray(0, 120),
      code: 'upload_damaged',
      name: 'x.png',
      type: 'image/png',
    },
  ];
  for (const c of cases) {
    it(`${c.what}: ${c.code}`, async () => {
      const before = [await uploadRows(), storedFiles().length];
      const bytes = await c.bytes();
      for (const lang of ['zh', 'en'] as const) {
        const res = await uploadRequest(t.app, alice, 'ID_FRONT', bytes, { name: c.name, type: c.type, lang });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ status: 'FAILED', errorCode: c.code, errorMessage: errorText(c.code, lang, 'file'), result: null });
      }
      expect([await uploadRows(), storedFiles().length]).toEqual(before);
    });
  }

  it('no file, an unknown purpose, a non-multipart body, no or forged credentials', async () => {
    const before = [await uploadRows(), storedFiles().length];
    const noFile = await uploadRequest(t.app, alice, 'ID_FRONT', null);
    expect(noFile.json().errorCode).toBe('upload_no_file');
    const purpose = await uploadRequest(t.app, alice, 'SELFIE', await jpeg(400, 400));
    expect(purpose.json().errorCode).toBe('upload_purpose_invalid');
    const form = await t.app.inject({
      method: 'POST',
      url: '/api/member/upload/image',
      headers: { ...alice.headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'purpose=ID_FRONT',
    });
    expect([form.statusCode, form.json().errorCode]).toEqual([400, 'upload_no_file']);
    const anonymous = await uploadRequest(t.app, null, 'ID_FRONT', await jpeg(400, 400));
    expect([anonymous.statusCode, anonymous.json().errorCode]).toEqual([401, 'unauthorized']);
    const forged = await uploadRequest(t.app, { ...alice, headers: { token: alice.token, userId: bob.userId } }, 'ID_FRONT', await jpeg(400, 400));
    expect([forged.statusCode, forged.json().errorCode]).toEqual([401, 'SYS.0015']);
    expect([await uploadRows(), storedFiles().length]).toEqual(before);
  });
});

describe('a burst of uploads', () => {
  it('is served in turn, every image stored once; one user may have 3 in flight, more are refused upload_busy (429)', async () => {
    const before = await uploadRows();
    // large enough that a check outlasts the others' arrival (turns.test.ts proves the limits without timing)
    const bytes = await jpeg(3000, 2400);
    const answers = await Promise.all(Array.from({ length: 6 }, () => uploadRequest(t.app, bob, 'ID_BACK', bytes)));
    const ok = answers.filter((r) => r.json().status === 'SUCCEED');
    const busy = answers.filter((r) => r.json().errorCode === 'upload_busy');
    expect(ok.length + busy.length).toBe(6);
    // the first three are in flight together (2 checked, 1 waiting) when the others arrive
    expect(ok.length).toBeGreaterThanOrEqual(3);
    expect(busy.length).toBeGreaterThanOrEqual(1);
    expect(busy.every((r) => r.statusCode === 429 && r.json().errorMessage === errorText('upload_busy', 'en'))).toBe(true);
    const ids = ok.map((r) => r.json().result.imageId as string);
    expect(new Set(ids).size).toBe(ok.length);
    expect(await uploadRows()).toBe(before + ok.length);
  });

  it("one user's flood does not hold another's upload back: it waits for her running checks only", async () => {
    const big = await jpeg(3000, 2400);
    const small = await jpeg(400, 400);
    expect(big.length).not.toBe(small.length);
    checks.held = true;
    checks.started.length = 0;
    checks.releases.length = 0;
    try {
      const answered: Array<{ status?: string; errorCode?: string }> = [];
      const flood = Array.from({ length: 6 }, () =>
        uploadRequest(t.app, alice, 'OTC', big).then((r) => {
          answered.push(r.json());
          return r;
        }),
      );
      // every check is held: alice has 3 in flight (2 checks running, 1 waiting for a turn), her 3 others are refused
      await vi.waitFor(
        () => {
          expect(checks.started).toHaveLength(2);
          expect(answered.map((a) => a.errorCode)).toEqual(['upload_busy', 'upload_busy', 'upload_busy']);
        },
        { timeout: 30_000, interval: 20 },
      );
      const bobAnswer = uploadRequest(t.app, bob, 'OTC', small);
      // alice's first check ends: her waiting upload takes the slot
      checks.releases[0]!();
      await vi.waitFor(() => expect(checks.started).toEqual([big.length, big.length, big.length]), { timeout: 30_000, interval: 20 });
      // her second ends: bob's check starts while her third still runs; he waited for her running checks, not her flood
      checks.releases[1]!();
      await vi.waitFor(() => expect(checks.started).toEqual([big.length, big.length, big.length, small.length]), {
        timeout: 30_000,
        interval: 20,
      });
      checks.releases[3]!();
      expect((await bobAnswer).json().status).toBe('SUCCEED');
      // stored while alice's third check is still held
      expect(answered.filter((a) => a.status === 'SUCCEED').length).toBeLessThanOrEqual(2);
      checks.releases[2]!();
      const answers = (await Promise.all(flood)).map((r) => r.json());
      expect(answers.filter((a) => a.status === 'SUCCEED')).toHaveLength(3);
      expect(answers.filter((a) => a.errorCode === 'upload_busy')).toHaveLength(3);
      expect(checks.started).toHaveLength(4);
    } finally {
      checks.held = false;
      for (const release of checks.releases) release();
    }
  });

  it('refuses a non-image at its first bytes and a user over the stored-image quota', async () => {
    const junk = Buffer.alloc(4 * 1024 * 1024, 0x41);
    const r = await uploadRequest(t.app, alice, 'OTC', junk, { name: 'junk.jpg' });
    expect([r.statusCode, r.json().errorCode]).toEqual([400, 'upload_not_image']);
    const carol = await loginUser(t, 'carol@uploads.test');
    const rows = Array.from({ length: 200 }, (_, i) => ({
      id: `q${String(i).padStart(21, '0')}`,
      userId: BigInt(carol.userId),
      purpose: 'OTC',
      mime: 'image/jpeg',
      width: 400,
      height: 400,
      bytes: 1,
      sha256: '0'.repeat(64),
      storageKey: `q${i}.jpg`,
    }));
    await t.ctx.db.insert(uploads).values(rows);
    const before = await uploadRows();
    const over = await uploadRequest(t.app, carol, 'OTC', await jpeg(400, 400), { lang: 'zh' });
    expect([over.statusCode, over.json().errorCode, over.json().errorMessage]).toEqual([
      400,
      'upload_quota_exceeded',
      errorText('upload_quota_exceeded', 'zh'),
    ]);
    expect(await uploadRows()).toBe(before);
  });
});
