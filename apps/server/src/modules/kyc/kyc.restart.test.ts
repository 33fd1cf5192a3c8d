/**
 * Proves that a verification survives the loss of the database (issue 10: "the verification result is journaled"):
 * on a real data directory (PGlite files + journal) a user is verified, the database folder is deleted and the
 * server starts again; the user, rebuilt from the journal, is still verified (getMember cardNo/cardState, getKyc
 * PASS with the real name), may add payment methods, and the ID number still cannot verify anybody else.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openTestApp } from '../../../test/helpers';
import { loginUser, mainlandId, verifyBasic } from './kyc-test-support';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** Opens context + app on `dataDir` with PGlite (never DATABASE_URL: this test owns its database files). */
const open = (dataDir: string) => openTestApp(dataDir, { databaseUrl: undefined });

describe('verification after a lost database', () => {
  it('is rebuilt from the journal', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exch-kyc-restart-'));
    dirs.push(dataDir);
    const idNumber = mainlandId('19870715', '321');
    let t = await open(dataDir);
    const alice = await loginUser(t, 'alice@kyc-restart.test');
    await verifyBasic(t, alice, '周杰', idNumber);
    await t.close();

    fs.rmSync(path.join(dataDir, 'pglite'), { recursive: true, force: true });
    t = await open(dataDir);
    try {
      await t.ctx.host.projected();
      const again = await loginUser(t, 'alice@kyc-restart.test');
      expect(again.userId).toBe(alice.userId);
      const member = (await t.app.inject({ method: 'GET', url: '/api/member/member/getMember', headers: again.headers })).json().result;
      const masked = `${idNumber.slice(0, 3)}***********${idNumber.slice(-4)}`;
      expect(member).toMatchObject({ cardNo: masked, cardState: 'PASS' });
      const kyc = (await t.app.inject({ method: 'GET', url: '/api/member/kyc/getKyc', headers: again.headers })).json().result;
      expect(kyc.basic).toMatchObject({ state: 'PASS', realName: '周杰', idNumber: masked, country: 'CN', idType: 'ID_CARD' });
      expect(t.ctx.kyc.verifiedRealName(alice.userId)).toBe('周杰');
      const bob = await loginUser(t, 'bob@kyc-restart.test');
      const taken = await t.app.inject({ method: 'POST', url: '/api/member/kyc/submitBasic', headers: { ...bob.headers, lang: 'en' }, payload: { realName: '周杰', idType: 'ID_CARD', idNumber } });
      expect(taken.json().errorCode).toBe('id_number_taken');
    } finally {
      await t.close();
    }
  });
});
