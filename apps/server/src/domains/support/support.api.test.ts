/**
 * API and WebSocket test of customer service through app.inject() and a real socket on PGlite: alice
 * writes text and an image (purpose SUPPORT) while no operator is online, the conversation waits in the queue
 * (oldest waiting first, unread counts), a support operator claims it, replies (the reply arrives live on alice's
 * private channel `supportChat`, and counts as unread until she reads the chat), closes it (her next message opens a
 * new conversation); an admin assigns; canned replies are created, edited and deleted; every operator action has its
 * audit row. Cross-user: bob never reads alice's messages or image (same 404 as an unknown id); a compliance or
 * finance operator gets 403 on every support route; visitors get 401. Bad input: empty message, a foreign or
 * KYC-purpose image, an unknown conversation, a closed one, an invalid assignee, each in zh and en. Rate limit: the
 * 11th message within 10 s is refused (429) and writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, count, eq, like } from 'drizzle-orm';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { auditLog } from '../../platform/db/schema/audit';
import { supportMessages } from './support.tables';
import { totpAt } from '../admin/totp';
import { loginUser, uploadOk, uploadRequest, type TestUser } from '../kyc/kyc-test-support';
import { Client } from '../../gateways/ws/ws-test-support';
import { PRESENCE_MS } from './support.service';

const real = Date.now.bind(Date);
let offset = 0;
vi.spyOn(Date, 'now').mockImplementation(() => real() + offset);

let t: TestApp;
let wsUrl = '';
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
const ops: Record<'sam' | 'ada' | 'cleo' | 'fin', { id: string; token: string }> = {} as never;

type Body = { status: string; errorCode: string; errorMessage: string; result: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

async function user(
  who: TestUser | null,
  method: 'GET' | 'POST',
  p: string,
  data: Record<string, string> = {},
  lang = 'en',
): Promise<{ status: number; body: Body }> {
  const headers: Record<string, string> = { lang, ...(who ? who.headers : {}) };
  const res =
    method === 'GET'
      ? await t.app.inject({ method, url: `/api/support/chat/${p}?${new URLSearchParams(data).toString()}`, headers })
      : await t.app.inject({
          method,
          url: `/api/support/chat/${p}`,
          headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams(data).toString(),
        });
  return { status: res.statusCode, body: res.json() };
}
async function admin(
  op: keyof typeof ops | null,
  method: 'GET' | 'POST',
  p: string,
  data: Record<string, string> = {},
  lang = 'en',
): Promise<{ status: number; body: Body }> {
  const headers: Record<string, string> = { lang, ...(op ? { 'x-admin-token': ops[op].token } : {}) };
  const res =
    method === 'GET'
      ? await t.app.inject({ method, url: `/api/admin/support/${p}?${new URLSearchParams(data).toString()}`, headers })
      : await t.app.inject({
          method,
          url: `/api/admin/support/${p}`,
          headers: { ...headers, 'content-type': 'application/json' },
          payload: JSON.stringify(data),
        });
  return { status: res.statusCode, body: res.json() };
}
/** The result of a call that must succeed. */
function okOf(r: { status: number; body: Body }) {
  expect(r.body.status, JSON.stringify(r.body)).toBe('SUCCEED');
  return r.body.result;
}
/** A call refused with `code` and HTTP `status`, with different messages in zh and en. */
async function refused(call: (lang: string) => Promise<{ status: number; body: Body }>, code: string, status = 400) {
  const en = await call('en');
  const zh = await call('zh');
  expect([en.status, en.body.errorCode], JSON.stringify(en.body)).toEqual([status, code]);
  expect(zh.body.errorCode).toBe(code);
  expect(zh.body.errorMessage).not.toBe(en.body.errorMessage);
  expect(zh.body.errorMessage).not.toBe('');
}
async function auditRows(action: string): Promise<Array<typeof auditLog.$inferSelect>> {
  return t.ctx.db.select().from(auditLog).where(eq(auditLog.action, action));
}

beforeAll(async () => {
  t = await makeTestApp(NO_RATE_LIMITS);
  wsUrl = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws') + '/ws/websocket?lang=en';
  alice = await loginUser(t, 'alice@support.test');
  bob = await loginUser(t, 'bob@support.test');
  carol = await loginUser(t, 'carol@support.test');
  for (const [k, role] of [
    ['sam', 'support'],
    ['ada', 'admin'],
    ['cleo', 'compliance'],
    ['fin', 'finance'],
  ] as const) {
    const email = `${k}@support.test`;
    const op = await t.ctx.admin.createOperator(null, { email, name: k === 'sam' ? 'Sam' : k, role });
    const r = await t.app.inject({
      method: 'POST',
      url: '/api/admin/auth/login',
      payload: { email, password: op.password, totp: totpAt(op.totpSecret, Math.floor(Date.now() / 30_000)) },
    });
    expect(r.json().status, r.body).toBe('SUCCEED');
    ops[k] = { id: r.json().result.operator.id, token: r.json().result.token };
  }
}, 180_000);
afterAll(async () => {
  await t?.close();
});

describe('a support chat', () => {
  let conversationId = '';
  let imageId = '';
  let ws: Client;

  it('a visitor gets 401 on every user route; an empty chat has no conversation', async () => {
    for (const [m, p] of [
      ['GET', 'getState'],
      ['GET', 'getMessages'],
      ['POST', 'sendMessage'],
      ['GET', 'image'],
    ] as const) {
      expect((await user(null, m, p, { text: 'hi', imageId: 'x' })).status).toBe(401);
    }
    const s = okOf(await user(alice, 'GET', 'getState'));
    expect(s).toEqual({ conversationId: '', unread: 0, operatorName: '', waiting: false, operatorsOnline: false });
    expect(okOf(await user(alice, 'GET', 'getMessages'))).toEqual({ messages: [], hasMore: false });
  });

  it('alice writes text and an image while no operator is online: a conversation waits in the queue', async () => {
    ws = await Client.open(wsUrl);
    ws.send({ op: 'auth', token: alice.token, userId: alice.userId });
    expect(await ws.next((m) => m.channel === 'auth')).toMatchObject({ ok: true });
    const first = okOf(await user(alice, 'POST', 'sendMessage', { text: '  My deposit has not arrived  ' }, 'zh'));
    expect(first).toMatchObject({ from: 'USER', mine: true, text: 'My deposit has not arrived', imageUrl: '', operatorName: '' });
    conversationId = first.conversationId;
    // The user's own message reaches their other sockets too.
    expect((await ws.next((m) => m.channel === 'supportChat')).data).toMatchObject({ id: first.id, from: 'USER' });
    imageId = await uploadOk(t.app, alice, 'SUPPORT');
    const pic = okOf(await user(alice, 'POST', 'sendMessage', { imageId }));
    expect(pic.conversationId).toBe(conversationId);
    expect(pic.imageUrl).toBe(`/api/support/chat/image?imageId=${imageId}`);
    const s = okOf(await user(alice, 'GET', 'getState'));
    expect(s).toEqual({ conversationId, unread: 0, operatorName: '', waiting: true, operatorsOnline: false });
    // Her image, to her only.
    const img = await t.app.inject({ method: 'GET', url: pic.imageUrl, headers: alice.headers });
    expect([img.statusCode, img.headers['content-type']]).toEqual([200, 'image/jpeg']);
  });

  it("bob never reads alice's conversation or image; bad messages are refused in zh and en and write nothing", async () => {
    expect(okOf(await user(bob, 'GET', 'getMessages'))).toEqual({ messages: [], hasMore: false });
    expect(okOf(await user(bob, 'GET', 'getState')).conversationId).toBe('');
    await refused((lang) => user(bob, 'GET', 'image', { imageId }, lang), 'not_found', 404);
    await refused((lang) => user(alice, 'GET', 'image', { imageId: 'A'.repeat(22) }, lang), 'not_found', 404);
    // Bob cannot send alice's image, nor his own KYC photo, nor nothing.
    await refused((lang) => user(bob, 'POST', 'sendMessage', { imageId }, lang), 'support_image_invalid');
    const kycImage = await uploadOk(t.app, bob, 'ID_FRONT');
    await refused((lang) => user(bob, 'POST', 'sendMessage', { imageId: kycImage }, lang), 'support_image_invalid');
    await refused((lang) => user(bob, 'POST', 'sendMessage', { text: '   ' }, lang), 'support_message_empty');
    await refused((lang) => user(bob, 'POST', 'sendMessage', { text: 'x'.repeat(1001) }, lang), 'validation_failed');
    const [n] = await t.ctx.db
      .select({ n: count() })
      .from(supportMessages)
      .where(eq(supportMessages.userId, BigInt(bob.userId)));
    expect(Number(n!.n)).toBe(0);
    // An upload with the support purpose is an ordinary upload: the same checks (not an image -> refused).
    const bad = await uploadRequest(t.app, bob, 'SUPPORT', Buffer.from('not an image '.repeat(50)), { lang: 'en' });
    expect(bad.json().errorCode).toBe('upload_not_image');
  });

  it('the console: only roles with support; the queue lists the waiting conversation with its unread count', async () => {
    for (const op of ['cleo', 'fin'] as const) {
      for (const [m, p, data] of [
        ['GET', 'conversations', {}],
        ['GET', 'conversation', { conversationId }],
        ['POST', 'reply', { conversationId, text: 'hi' }],
        ['POST', 'assign', { conversationId }],
        ['POST', 'close', { conversationId }],
        ['GET', 'image', { conversationId, imageId }],
        ['GET', 'agents', {}],
        ['GET', 'cannedReplies', {}],
        ['POST', 'saveCannedReply', { title: 't', textZh: 'z', textEn: 'e' }],
        ['POST', 'deleteCannedReply', { id: '1' }],
      ] as const) {
        const r = await admin(op, m, p, data);
        expect([r.status, r.body.errorCode], `${op} ${p}`).toEqual([403, 'admin_forbidden']);
      }
    }
    expect((await admin(null, 'GET', 'conversations')).status).toBe(401);
    // A user's token never opens the console.
    const asUser = await t.app.inject({ method: 'GET', url: '/api/admin/support/conversations', headers: { ...alice.headers } });
    expect(asUser.statusCode).toBe(401);

    const q = okOf(await admin('sam', 'GET', 'conversations'));
    expect(q.waiting).toBe(1);
    expect(q.records).toHaveLength(1);
    expect(q.records[0]).toMatchObject({
      id: conversationId,
      userId: alice.userId,
      account: 'alice@support.test',
      lang: 'en',
      status: 'WAITING',
      unread: 2,
      lastMessage: '[image]',
      assignedOperatorName: '',
    });
    // Sam's console is open now: alice sees an operator online.
    expect(okOf(await user(alice, 'GET', 'getState')).operatorsOnline).toBe(true);
  });

  it('the oldest waiting conversation comes first', async () => {
    offset += 1000;
    okOf(await user(carol, 'POST', 'sendMessage', { text: 'carol here' }));
    const q = okOf(await admin('sam', 'GET', 'conversations', { filter: 'WAITING' }));
    expect(q.records.map((c: { userId: string }) => c.userId)).toEqual([alice.userId, carol.userId]);
    expect(q.waiting).toBe(2);
  });

  it('sam claims and reads it (unread 0), replies: alice gets it live and unread until she reads the chat', async () => {
    const claimed = okOf(await admin('sam', 'POST', 'assign', { conversationId }));
    expect(claimed).toMatchObject({ status: 'ASSIGNED', assignedOperatorId: ops.sam.id, assignedOperatorName: 'Sam' });
    expect((await auditRows('support_claim')).map((r) => [r.operatorId?.toString(), r.targetUserId?.toString()])).toEqual([[ops.sam.id, alice.userId]]);
    const detail = okOf(await admin('sam', 'GET', 'conversation', { conversationId }));
    expect(detail.messages.map((m: { from: string; text: string; mine: boolean }) => [m.from, m.text, m.mine])).toEqual([
      ['USER', 'My deposit has not arrived', false],
      ['USER', '', false],
    ]);
    expect(detail.messages[1].imageUrl).toBe(`/api/admin/support/image?conversationId=${conversationId}&imageId=${imageId}`);
    const img = await t.app.inject({ method: 'GET', url: detail.messages[1].imageUrl, headers: { 'x-admin-token': ops.sam.token } });
    expect([img.statusCode, img.headers['content-type']]).toEqual([200, 'image/jpeg']);
    // The image is not reachable through another conversation.
    const carolConv = okOf(await admin('sam', 'GET', 'conversations', { filter: 'WAITING' })).records.find(
      (c: { userId: string }) => c.userId === carol.userId,
    ).id;
    expect((await admin('sam', 'GET', 'image', { conversationId: carolConv, imageId })).status).toBe(404);
    expect(okOf(await admin('sam', 'GET', 'conversations', { filter: 'MINE' })).records[0]).toMatchObject({ id: conversationId, unread: 0 });

    const reply = okOf(await admin('sam', 'POST', 'reply', { conversationId, text: 'We are checking your deposit.' }));
    expect(reply).toMatchObject({ from: 'OPERATOR', operatorName: 'Sam', mine: false });
    const live = await ws.next((m) => m.channel === 'supportChat' && (m.data as { from: string }).from === 'OPERATOR');
    expect(live.data).toMatchObject({ id: reply.id, conversationId, text: 'We are checking your deposit.', operatorName: 'Sam', mine: false, imageUrl: '' });
    expect(okOf(await user(alice, 'GET', 'getState'))).toMatchObject({ unread: 1, waiting: false, operatorName: 'Sam' });
    const audit = await auditRows('support_reply');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      operatorEmail: 'sam@support.test',
      targetUserId: BigInt(alice.userId),
      after: { conversationId, text: 'We are checking your deposit.' },
    });
    // Bob's socket hears nothing of it; alice reads, the badge goes.
    const page = okOf(await user(alice, 'GET', 'getMessages'));
    expect(page.messages.map((m: { from: string }) => m.from)).toEqual(['USER', 'USER', 'OPERATOR']);
    expect(okOf(await user(alice, 'GET', 'getMessages', { afterId: page.messages[1].id })).messages.map((m: { id: string }) => m.id)).toEqual([reply.id]);
    expect(okOf(await user(alice, 'GET', 'getState')).unread).toBe(0);
  });

  it("an admin assigns carol's conversation to sam; an invalid assignee or unknown conversation is refused", async () => {
    const carolConv = okOf(await admin('ada', 'GET', 'conversations', { filter: 'WAITING' })).records[0].id;
    await refused((lang) => admin('ada', 'POST', 'assign', { conversationId: carolConv, operatorId: ops.cleo.id }, lang), 'support_operator_invalid');
    await refused((lang) => admin('ada', 'POST', 'assign', { conversationId: carolConv, operatorId: '999999' }, lang), 'support_operator_invalid');
    await refused((lang) => admin('ada', 'POST', 'assign', { conversationId: '999999' }, lang), 'support_conversation_not_found', 404);
    await refused((lang) => admin('ada', 'GET', 'conversation', { conversationId: '999999' }, lang), 'support_conversation_not_found', 404);
    const r = okOf(await admin('ada', 'POST', 'assign', { conversationId: carolConv, operatorId: ops.sam.id }));
    expect(r).toMatchObject({ assignedOperatorId: ops.sam.id, status: 'ASSIGNED' });
    const rows = await auditRows('support_assign');
    expect(rows.map((x) => [x.operatorEmail, x.after])).toEqual([['ada@support.test', { conversationId: carolConv, assignedOperatorId: ops.sam.id }]]);
    const agents = okOf(await admin('ada', 'GET', 'agents'));
    expect(agents.map((a: { name: string; online: boolean }) => [a.name, a.online])).toEqual([
      ['Sam', true],
      ['ada', true],
    ]);
  });

  it('closing: a SYSTEM note pushed to alice, replies refused, her next message opens a new conversation', async () => {
    const closed = okOf(await admin('sam', 'POST', 'close', { conversationId }));
    expect(closed.status).toBe('CLOSED');
    expect((await ws.next((m) => m.channel === 'supportChat' && (m.data as { from: string }).from === 'SYSTEM')).data).toMatchObject({
      text: 'CLOSED',
      conversationId,
    });
    await refused((lang) => admin('sam', 'POST', 'reply', { conversationId, text: 'late' }, lang), 'support_conversation_closed');
    await refused((lang) => admin('sam', 'POST', 'close', { conversationId }, lang), 'support_conversation_closed');
    expect((await auditRows('support_close')).length).toBe(1);
    expect(okOf(await admin('sam', 'GET', 'conversations', { filter: 'CLOSED' })).records.map((c: { id: string }) => c.id)).toEqual([conversationId]);
    const again = okOf(await user(alice, 'POST', 'sendMessage', { text: 'Another question' }));
    expect(again.conversationId).not.toBe(conversationId);
    // History spans both conversations.
    expect(okOf(await user(alice, 'GET', 'getMessages')).messages.map((m: { text: string }) => m.text)).toEqual([
      'My deposit has not arrived',
      '',
      'We are checking your deposit.',
      'CLOSED',
      'Another question',
    ]);
  });

  it('offline: after the operators leave, a message waits and is answered later; alice sees it unread next time', async () => {
    ws.close();
    // The admin logs out (offline at once); sam's presence runs out.
    await t.app.inject({ method: 'POST', url: '/api/admin/auth/logout', headers: { 'x-admin-token': ops.ada.token } });
    offset += PRESENCE_MS + 1000;
    expect(okOf(await user(alice, 'GET', 'getState')).operatorsOnline).toBe(false);
    okOf(await user(alice, 'POST', 'sendMessage', { text: 'Anyone there?' }));
    expect(okOf(await user(alice, 'GET', 'getState'))).toMatchObject({ waiting: true, unread: 0, operatorsOnline: false });
    // Later, sam comes back and answers.
    const q = okOf(await admin('sam', 'GET', 'conversations', { filter: 'WAITING' }));
    const mine = q.records.find((c: { userId: string }) => c.userId === alice.userId);
    expect(mine).toMatchObject({ status: 'WAITING', unread: 2, lastMessage: 'Anyone there?' });
    okOf(await admin('sam', 'POST', 'reply', { conversationId: mine.id, text: 'Yes, sorry for the wait.' }));
    expect(okOf(await user(alice, 'GET', 'getState'))).toMatchObject({ waiting: false, unread: 1, operatorsOnline: true });
  });

  it('rate limit: the 11th message within 10 s is refused in zh and en and writes nothing', async () => {
    for (let i = 0; i < 10; i++) okOf(await user(carol, 'POST', 'sendMessage', { text: `burst ${i}` }));
    const before = await t.ctx.db.select({ n: count() }).from(supportMessages).where(like(supportMessages.text, 'burst%'));
    await refused((lang) => user(carol, 'POST', 'sendMessage', { text: 'one too many' }, lang), 'support_rate_limited', 429);
    const after = await t.ctx.db.select({ n: count() }).from(supportMessages).where(like(supportMessages.text, 'burst%'));
    expect([Number(before[0]!.n), Number(after[0]!.n)]).toEqual([10, 10]);
    offset += 10_001;
    okOf(await user(carol, 'POST', 'sendMessage', { text: 'after the window' }));
  });
});

describe('canned replies', () => {
  it('create, edit and delete (zh and en), each with its audit row; bad input refused', async () => {
    const a = okOf(
      await admin('sam', 'POST', 'saveCannedReply', { title: 'Greeting', textZh: '您好，请问有什么可以帮您？', textEn: 'Hello, how can I help you?' }),
    );
    const b = okOf(
      await admin('sam', 'POST', 'saveCannedReply', {
        title: 'Deposit delay',
        textZh: '充值到账需要区块确认，请稍候。',
        textEn: 'Deposits need block confirmations, please wait.',
      }),
    );
    expect(okOf(await admin('sam', 'GET', 'cannedReplies')).map((r: { title: string }) => r.title)).toEqual(['Deposit delay', 'Greeting']);
    const edited = okOf(await admin('sam', 'POST', 'saveCannedReply', { id: a.id, title: 'Greeting', textZh: '您好！', textEn: 'Hello!' }));
    expect(edited).toMatchObject({ id: a.id, textZh: '您好！', textEn: 'Hello!' });
    okOf(await admin('sam', 'POST', 'deleteCannedReply', { id: b.id }));
    expect(okOf(await admin('sam', 'GET', 'cannedReplies')).map((r: { id: string }) => r.id)).toEqual([a.id]);
    await refused((lang) => admin('sam', 'POST', 'deleteCannedReply', { id: b.id }, lang), 'support_canned_not_found', 404);
    await refused(
      (lang) => admin('sam', 'POST', 'saveCannedReply', { id: '999999', title: 'x', textZh: 'x', textEn: 'x' }, lang),
      'support_canned_not_found',
      404,
    );
    await refused((lang) => admin('sam', 'POST', 'saveCannedReply', { title: '  ', textZh: 'x', textEn: 'x' }, lang), 'validation_failed');
    const actions = await t.ctx.db
      .select({ action: auditLog.action, before: auditLog.before, after: auditLog.after })
      .from(auditLog)
      .where(and(like(auditLog.action, 'support_canned_%')));
    expect(actions.map((r) => r.action)).toEqual(['support_canned_create', 'support_canned_create', 'support_canned_update', 'support_canned_delete']);
    expect(actions[2]).toMatchObject({ before: { textEn: 'Hello, how can I help you?' }, after: { textEn: 'Hello!' } });
  });
});
