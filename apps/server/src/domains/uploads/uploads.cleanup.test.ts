/**
 * Proves the removal of unused uploads on a real database (PGlite; PostgreSQL with DATABASE_URL) and the real disk
 * storage: images uploaded through the API and referenced from every table that stores an upload id (the three KYC
 * photo columns, a payment method's QR code, a support message, an OTC chat message, an OTC order's payment proof and
 * appeal evidence in its `meta`) survive a cleanup run a day after their grace period, rows and files; unreferenced
 * ones are removed from both, and only once their 24 h grace period is over. The removal is bounded (at most
 * UNUSED_UPLOAD_BATCH x UNUSED_UPLOAD_BATCHES_PER_RUN rows a run), the periodic job counts what it removed in its
 * metrics and logs a summary; the quota counts only live images (fresh or referenced); an image left unreferenced
 * past UNUSED_UPLOAD_REFERABLE_MS can no longer be referenced. The referencing rows are written straight into their
 * tables (their services' own checks are tested in their domains): what is under test is which rows keep an image.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { Registry } from 'prom-client';
import { count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { jpeg, loginUser, uploadRequest, type TestUser } from '../kyc/kyc-test-support';
import { kycApplications } from '../kyc/kyc.tables';
import { otcMessages, otcOrders } from '../otc/otc.tables';
import { paymentMethods } from '../payment/payment.tables';
import { supportMessages } from '../support/support.tables';
import { uploads } from './uploads.tables';
import { startUploadsJobs } from './uploads.jobs';
import {
  UNUSED_UPLOAD_BATCH,
  UNUSED_UPLOAD_BATCHES_PER_RUN,
  UNUSED_UPLOAD_GRACE_MS,
  UNUSED_UPLOAD_REFERABLE_MS,
  UPLOADS_PER_USER_MAX,
} from './uploads.service';

const HOUR_MS = 3600_000;

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let photo: Buffer;

beforeAll(async () => {
  t = await makeTestApp(NO_RATE_LIMITS);
  alice = await loginUser(t, 'alice@cleanup.test');
  bob = await loginUser(t, 'bob@cleanup.test');
  photo = await jpeg(400, 400);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

/** Uploads one image of `purpose` for `user` through the API; its id. */
async function upload(user: TestUser, purpose: string): Promise<string> {
  const res = await uploadRequest(t.app, user, purpose, photo);
  if (res.json().status !== 'SUCCEED') throw new Error(`upload failed: ${res.body}`);
  return res.json().result.imageId as string;
}

/** The ids among `ids` that still have their row. */
async function rowsOf(ids: readonly string[]): Promise<string[]> {
  const rows = await t.ctx.db
    .select({ id: uploads.id })
    .from(uploads)
    .where(inArray(uploads.id, [...ids]));
  return rows.map((r) => r.id).sort();
}

/** The ids among `ids` whose file is still in the upload storage (`<dataDir>/uploads/<2 chars>/<id>.<ext>`). */
function filesOf(ids: readonly string[]): string[] {
  const dir = path.join(t.dataDir, 'uploads');
  const names = fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => e.name.replace(/\.[a-z]+$/, ''))
    : [];
  return ids.filter((id) => names.includes(id)).sort();
}

/** An OTC order row of `buyerId` and `sellerId` with the JSON fields `meta`. */
function otcOrderRow(id: bigint, buyerId: string, sellerId: string, meta: Record<string, string>): typeof otcOrders.$inferInsert {
  return {
    id,
    clientId: `c${id}`,
    adId: 1n,
    makerId: sellerId,
    takerId: buyerId,
    buyerId,
    sellerId,
    asset: 'USDT',
    fiat: 'CNY',
    price: '700',
    quantity: '100000000',
    fiatAmount: '700',
    state: 'APPEAL',
    createdTs: 1,
    deadlineTs: 2,
    meta: JSON.stringify(meta),
    updatedTs: 1,
    seq: 1,
  };
}

/** `n` upload rows of `userId` created at `createdAt` (no file: the quota and the reference checks read rows only). */
function uploadRows(prefix: string, userId: string, n: number, createdAt: Date): Array<typeof uploads.$inferInsert> {
  return Array.from({ length: n }, (_, i) => ({
    id: `${prefix}${String(i).padStart(22 - prefix.length, '0')}`,
    userId: BigInt(userId),
    purpose: 'SUPPORT',
    mime: 'image/jpeg',
    width: 400,
    height: 400,
    bytes: 1000,
    sha256: '0'.repeat(64),
    storageKey: `${prefix}${String(i).padStart(22 - prefix.length, '0')}.jpg`,
    createdAt,
  }));
}

describe('removal of unused uploads', () => {
  it('keeps every image referenced from each referencing table, removes the unreferenced ones past their grace period, rows and files', async () => {
    const ref = {
      kycFront: await upload(alice, 'ID_FRONT'),
      kycBack: await upload(alice, 'ID_BACK'),
      kycHandheld: await upload(alice, 'ID_HANDHELD'),
      payQr: await upload(alice, 'PAY_QR'),
      support: await upload(alice, 'SUPPORT'),
      otcChat: await upload(bob, 'OTC'),
      otcProof: await upload(bob, 'OTC'),
      otcAppeal1: await upload(alice, 'OTC'),
      otcAppeal2: await upload(alice, 'OTC'),
    };
    const unused = [await upload(alice, 'ID_FRONT'), await upload(bob, 'OTC'), await upload(alice, 'SUPPORT')];
    const referenced = Object.values(ref);
    const all = [...referenced, ...unused];

    const db = t.ctx.db;
    await db.insert(kycApplications).values({
      userId: BigInt(alice.userId),
      level: 'ADVANCED',
      state: 'REJECTED',
      frontImageId: ref.kycFront,
      backImageId: ref.kycBack,
      handheldImageId: ref.kycHandheld,
      submittedAt: new Date(),
    });
    await db.insert(paymentMethods).values({ userId: BigInt(alice.userId), payType: 'ALIPAY', realName: 'Alice', account: 'a@pay', qrImageId: ref.payQr });
    await db.insert(supportMessages).values({ conversationId: 1n, userId: BigInt(alice.userId), sender: 'USER', text: '', imageId: ref.support, createdTs: 1 });
    // bob buys from alice: his proof and chat image; alice's appeal evidence
    await db
      .insert(otcOrders)
      .values(otcOrderRow(9001n, bob.userId, alice.userId, { paidWith: '1', proof: ref.otcProof, appealImages: `${ref.otcAppeal1},${ref.otcAppeal2}` }));
    await db.insert(otcMessages).values({ orderId: 9001n, sender: 'BUYER', authorId: bob.userId, text: '', imageId: ref.otcChat, createdTs: 1 });
    expect(await rowsOf(all)).toEqual([...all].sort());
    expect(filesOf(all)).toEqual([...all].sort());

    // within the grace period (one hour before its end) nothing is removed
    const fresh = await t.ctx.uploads.removeUnused(Date.now() + UNUSED_UPLOAD_GRACE_MS - HOUR_MS);
    expect(fresh).toEqual({ removed: 0, bytes: 0, storageErrors: 0, more: false });
    expect(await rowsOf(all)).toEqual([...all].sort());

    // a day after the grace period: the three unreferenced images go, rows and files; every referenced one stays
    const [sizes] = await db.select({ n: count() }).from(uploads).where(inArray(uploads.id, unused));
    expect(Number(sizes!.n)).toBe(3);
    const unusedBytes = (await db.select({ b: uploads.bytes }).from(uploads).where(inArray(uploads.id, unused))).reduce((s, r) => s + r.b, 0);
    const later = await t.ctx.uploads.removeUnused(Date.now() + 2 * UNUSED_UPLOAD_GRACE_MS);
    expect(later).toEqual({ removed: 3, bytes: unusedBytes, storageErrors: 0, more: false });
    expect(await rowsOf(all)).toEqual([...referenced].sort());
    expect(filesOf(all)).toEqual([...referenced].sort());
    // the owner no longer gets a removed image; a referenced one is still served
    const gone = await t.app.inject({ method: 'GET', url: `/api/member/upload/image?imageId=${unused[0]}`, headers: alice.headers });
    expect(gone.statusCode).toBe(404);
    const kept = await t.app.inject({ method: 'GET', url: `/api/member/upload/image?imageId=${ref.kycFront}`, headers: alice.headers });
    expect(kept.statusCode).toBe(200);

    // a reference removed (the payment method deleted) makes its image unused: removed at the next run
    await db.delete(paymentMethods).where(eq(paymentMethods.qrImageId, ref.payQr));
    const after = await t.ctx.uploads.removeUnused(Date.now() + 2 * UNUSED_UPLOAD_GRACE_MS);
    expect(after.removed).toBe(1);
    expect(await rowsOf(referenced)).toEqual(referenced.filter((id) => id !== ref.payQr).sort());
    expect(filesOf(referenced)).toEqual(referenced.filter((id) => id !== ref.payQr).sort());
  }, 60_000);

  it('removes at most a bounded number of rows a run, oldest first, and the rest at the next runs', async () => {
    const carol = await loginUser(t, 'carol@cleanup.test');
    const perRun = UNUSED_UPLOAD_BATCH * UNUSED_UPLOAD_BATCHES_PER_RUN;
    const old = new Date(Date.now() - 3 * UNUSED_UPLOAD_GRACE_MS);
    const rows = uploadRows('b', carol.userId, perRun + 5, old);
    for (let i = 0; i < rows.length; i += 500) await t.ctx.db.insert(uploads).values(rows.slice(i, i + 500));
    const first = await t.ctx.uploads.removeUnused(Date.now());
    expect([first.removed, first.more]).toEqual([perRun, true]);
    const second = await t.ctx.uploads.removeUnused(Date.now());
    expect([second.removed, second.more]).toEqual([5, false]);
    expect(await rowsOf(rows.map((r) => r.id!))).toEqual([]);
  }, 60_000);

  it('the periodic job removes them, counts them in its metrics and logs a summary', async () => {
    const dave = await loginUser(t, 'dave@cleanup.test');
    const ids = [await upload(dave, 'OTC'), await upload(dave, 'OTC')];
    const registry = new Registry();
    const lines: Array<{ fields: unknown; msg: unknown }> = [];
    const log = {
      info: (fields: unknown, msg: unknown) => lines.push({ fields, msg }),
      error: (fields: unknown, msg: unknown) => lines.push({ fields, msg }),
    } as unknown as FastifyBaseLogger;
    const stop = startUploadsJobs(
      { config: { chainJobs: true }, uploads: t.ctx.uploads, log, metrics: { registry } },
      60_000,
      () => Date.now() + 2 * UNUSED_UPLOAD_GRACE_MS,
    );
    try {
      for (let i = 0; i < 100 && lines.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    } finally {
      stop();
    }
    expect(await rowsOf(ids)).toEqual([]);
    expect(filesOf(ids)).toEqual([]);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.msg).toBe('uploads: unused images removed');
    expect(lines[0]!.fields).toMatchObject({ removed: 2, storageErrors: 0, more: false });
    const text = await registry.metrics();
    expect(text).toMatch(/^exchange_uploads_removed_total 2$/m);
    expect(text).toMatch(/^exchange_uploads_remove_errors_total 0$/m);
    expect(text).toMatch(/^exchange_uploads_removed_bytes_total [1-9][0-9]*$/m);
    // no job in a process that does not run the chain jobs
    const none = startUploadsJobs({ config: { chainJobs: false }, uploads: t.ctx.uploads, log, metrics: { registry: new Registry() } });
    none();
  }, 60_000);
});

describe('the quota counts live images only', () => {
  it('a user at 200 rows may upload when they are past the grace period and unreferenced, not when they are referenced or fresh', async () => {
    const erin = await loginUser(t, 'erin@cleanup.test');
    const frank = await loginUser(t, 'frank@cleanup.test');
    const old = new Date(Date.now() - 2 * UNUSED_UPLOAD_GRACE_MS);
    await t.ctx.db.insert(uploads).values(uploadRows('e', erin.userId, UPLOADS_PER_USER_MAX, old));
    const frankRows = uploadRows('f', frank.userId, UPLOADS_PER_USER_MAX, old);
    await t.ctx.db.insert(uploads).values(frankRows);
    await t.ctx.db
      .insert(supportMessages)
      .values(frankRows.map((r, i) => ({ conversationId: 2n, userId: BigInt(frank.userId), sender: 'USER', text: '', imageId: r.id!, createdTs: i })));

    const erinUp = await uploadRequest(t.app, erin, 'SUPPORT', photo);
    expect([erinUp.statusCode, erinUp.json().status]).toEqual([200, 'SUCCEED']);
    const frankUp = await uploadRequest(t.app, frank, 'SUPPORT', photo);
    expect([frankUp.statusCode, frankUp.json().errorCode]).toEqual([400, 'upload_quota_exceeded']);
  }, 60_000);
});

describe('an image left unreferenced too long', () => {
  it('can no longer be referenced; a referenced image of the same age still can', async () => {
    const gina = await loginUser(t, 'gina@cleanup.test');
    const age = new Date(Date.now() - UNUSED_UPLOAD_REFERABLE_MS - 60_000);
    const [lonely, used] = uploadRows('g', gina.userId, 2, age);
    await t.ctx.db.insert(uploads).values([lonely!, used!]);
    await t.ctx.db
      .insert(supportMessages)
      .values({ conversationId: 3n, userId: BigInt(gina.userId), sender: 'USER', text: '', imageId: used!.id!, createdTs: 1 });
    expect(await t.ctx.uploads.ownImage(gina.userId, lonely!.id!, 'SUPPORT')).toBeNull();
    expect((await t.ctx.uploads.ownImage(gina.userId, used!.id!, 'SUPPORT'))?.id).toBe(used!.id);
    // a younger unreferenced image still can
    const [young] = uploadRows('h', gina.userId, 1, new Date(Date.now() - UNUSED_UPLOAD_REFERABLE_MS + 60_000));
    await t.ctx.db.insert(uploads).values(young!);
    expect((await t.ctx.uploads.ownImage(gina.userId, young!.id!, 'SUPPORT'))?.id).toBe(young!.id);
  });
});
