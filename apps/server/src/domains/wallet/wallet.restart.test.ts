/**
 * Proves that the wallet's records survive the loss of the database: on a real data directory (PGlite files, or a
 * PostgreSQL database of its own when DATABASE_URL is set, + journal) a user transfers, requests withdrawals, an operator approves one and rejects another with a reason in
 * both languages; the database is lost and the server starts again; wallet_withdrawals (states, approvals,
 * reasons zh/en), wallet_transfers and the operators' audit rows come back identical from the journal, and the
 * balances (the hold of the approved one) are the engine's as before.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { asc, inArray } from 'drizzle-orm';
import { durableTestSetup, type DurableTestSetup, type TestApp } from '../../../test/helpers';
import { auditLog } from '../../platform/db/schema/audit';
import { walletTransfers, walletWithdrawals } from './wallet.tables';
import { listOutbox } from '../verification/outbox.repository';
import { passPuzzle } from '../member/member-test-app';
import { loginUser, mainlandId, setTransPassword, verifyBasic, type TestUser } from '../kyc/kyc-test-support';

const setups: DurableTestSetup[] = [];
afterAll(async () => {
  for (const s of setups) await s.dispose();
});

const MAIL = 'bob@wallet-restart.test';
const PW = '975310';
const DEST = '0x52908400098527886E0F7030069857D2E4169EE7';

async function code(t: TestApp, u: TestUser): Promise<string> {
  const pass = await passPuzzle(t);
  const sent = await t.app.inject({ method: 'POST', url: '/api/data/sms/sendCode', headers: u.headers, payload: { type: 'VERIFY', ...pass } });
  expect(sent.json().status, sent.body).toBe('SUCCEED');
  return (await listOutbox(t.ctx.db, MAIL))[0]!.code;
}

async function rows(t: TestApp) {
  const w = await t.ctx.db.select().from(walletWithdrawals).orderBy(asc(walletWithdrawals.id));
  const tr = await t.ctx.db.select().from(walletTransfers).orderBy(asc(walletTransfers.id));
  const audits = await t.ctx.db
    .select({ action: auditLog.action, operatorEmail: auditLog.operatorEmail, after: auditLog.after, engineSeq: auditLog.engineSeq })
    .from(auditLog)
    .where(inArray(auditLog.action, ['withdrawal_approve', 'withdrawal_reject']))
    .orderBy(asc(auditLog.engineSeq));
  return { w, tr, audits };
}

describe('wallet records after a lost database', () => {
  it('are rebuilt from the journal', async () => {
    const setup = await durableTestSetup('exch-wallet-restart-');
    setups.push(setup);
    let t = await setup.open({ codeResendMs: 0 });
    let before: Awaited<ReturnType<typeof rows>>;
    let bob: TestUser;
    try {
      bob = await loginUser(t, MAIL);
      await verifyBasic(t, bob, '赵磊', mainlandId('19900909', '031'));
      await setTransPassword(t, bob, MAIL, PW);
      expect(
        (
          await t.ctx.host.submit({
            type: 'deposit',
            userId: bob.userId,
            asset: 'USDT',
            account: 'ASSETS',
            amount: 1000n * 10n ** 8n,
            from: '@faucet',
            ref: 'restart',
          })
        ).code,
      ).toBe('ok');
      const post = async (p: string, payload: Record<string, string>, headers: Record<string, string> = bob.headers) => {
        const r = await t.app.inject({ method: 'POST', url: `/api/${p}`, headers: { ...headers, lang: 'en' }, payload });
        expect(r.json().status, r.body).toBe('SUCCEED');
        return r.json().result as { id: string };
      };
      await post('asset/wallet/transfer', { coin: 'USDT', from: 'ASSETS', to: 'SPOT', amount: '100.5', clientId: 'r-t1' });
      await post('asset/wallet/transfer', { coin: 'USDT', from: 'SPOT', to: 'OTC', amount: '0.5', clientId: 'r-t2' });
      const w1 = await post('asset/wallet/withdraw', {
        coin: 'USDT',
        chain: 'ETH',
        address: DEST,
        amount: '200',
        transPassword: PW,
        code: await code(t, bob),
        clientId: 'r-w1',
      });
      const w2 = await post('asset/wallet/withdraw', {
        coin: 'USDT',
        chain: 'ETH',
        address: DEST,
        amount: '300',
        transPassword: PW,
        code: await code(t, bob),
        clientId: 'r-w2',
      });
      const op = await t.ctx.admin.createOperator(null, { email: 'fin@wallet-restart.test', name: 'fin', role: 'finance' });
      const actor = { id: BigInt(op.operator.id), email: 'fin@wallet-restart.test', ip: '127.0.0.1', userAgent: 'test' };
      await t.ctx.wallet.approve(actor, w1.id);
      await t.ctx.wallet.reject(actor, w2.id, '金额异常', 'Unusual amount');
      await t.ctx.host.projected();
      before = await rows(t);
      expect(before.w.map((r) => [r.status, r.reasonZh, r.reasonEn, r.approvals.length])).toEqual([
        ['APPROVED', '', '', 1],
        ['REJECTED', '金额异常', 'Unusual amount', 0],
      ]);
      expect(before.tr.map((r) => [r.fromAccount, r.toAccount, r.amount])).toEqual([
        ['ASSETS', 'SPOT', '10050000000'],
        ['SPOT', 'OTC', '50000000'],
      ]);
      expect(before.audits.map((a) => a.action)).toEqual(['withdrawal_approve', 'withdrawal_reject']);
    } finally {
      await t.close();
    }

    await setup.loseDatabase();
    t = await setup.open({ codeResendMs: 0 });
    try {
      await t.ctx.host.projected();
      const after = await rows(t);
      expect(after).toEqual(before);
      expect(t.ctx.host.engine.balance(bob.userId, 'ASSETS', 'USDT')).toEqual({
        available: 1000n * 10n ** 8n - 10_050_000_000n - 200n * 10n ** 8n,
        frozen: 200n * 10n ** 8n,
      });
      // the reason, in the user's language, after the rebuild
      const again = await loginUser(t, MAIL);
      const zh = await t.app.inject({
        method: 'GET',
        url: `/api/asset/wallet/getRecordDetail?type=withdrawCoin&id=${after.w[1]!.id}`,
        headers: { ...again.headers, lang: 'zh' },
      });
      expect(zh.json().result.withdrawal).toMatchObject({ status: 'REJECTED', reason: '金额异常' });
    } finally {
      await t.close();
    }
  });
});
