/**
 * Journey 14i (invite a friend through the link, the friend trades contracts, the job runs
 * (test-time clock control), the inviter sees the rebate; generate and save the poster). An inviter opens
 * /invitation: code and link. A friend opens the link logged out: the register page has the code filled in; the friend
 * signs up there (e-mail code from the demo outbox, slide puzzle), moves 1,000 USDT to the contract account and opens
 * and closes a 1-lot long at market (against the demo's liquidity). The inviter sees the friend (masked) and the
 * pending rebate. The test moves the server clock past the next 00:00 Asia/Shanghai (POST /api/demo/clock/advance,
 * demo mode and loopback only); the daily job (every 5 s) settles the day: the inviter is paid exactly the pending
 * rebate, floor(fees x 30%), shown in the totals, in "My rebates" (the day's fees and rebate) and at rank 1 of the
 * monthly ranking. Then the poster: the share-poster popup draws it, "Save poster" downloads a 750x1334 PNG on the web
 * ("Image saved"); the in-person invite shows the full-screen QR. Screenshots: docs/screenshots/invitation*.png.
 *
 * The clock only moves forward and every journey shares the server, so this journey runs in the `clock` lane after
 * every other (playwright.config.ts), after 13c (whose 16 minutes it does not need).
 */
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { apiGet, lookOf, phoneAs } from './otc-support';
import { apiPost, expectToast, freshEmail, outboxCode, recordToasts, registerByApi, solvePuzzle } from './support';

const SHOTS = path.resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots');
const PASSWORD = 'Journey14ipass';
const DAY_MS = 86_400_000;
const SHANGHAI_MS = 8 * 3_600_000;

type Summary = { welCode: string; inviteeCount: number; totalRebate: string; pendingRebate: string; qualified: boolean };
type RebateDays = { total: number; records: { day: string; fee: string; rebate: string; paid: string; invitees: number }[] };

/** A USDT decimal string (8 decimals) as integer units. */
const units = (s: string): bigint => {
  const [i, f = ''] = s.split('.');
  return BigInt(i!) * 100_000_000n + BigInt(f.padEnd(8, '0'));
};

/** A USDT amount as the page shows it: trailing zeros dropped, at least 2 decimals (amounts here are below 1,000). */
const shown = (s: string): string => {
  const [i, f = ''] = s.split('.');
  return `${i}.${f.replace(/0+$/, '').padEnd(2, '0')}`;
};

test('invitation: a friend signs up through the link and trades contracts; the daily job pays the inviter 30%; the poster is saved', async ({
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const inviter = await registerByApi(request, freshEmail('j14i-a'), PASSWORD);

  // --- The inviter's code and link ---
  const a = await phoneAs(browser, inviter);
  await a.goto('/invitation');
  await expect(a.getByTestId('invite-code')).toHaveText(/^[A-Z2-9]{8}$/);
  const code = (await a.getByTestId('invite-code').textContent())!.trim();
  const origin = new URL(a.url()).origin;
  await expect(a.getByTestId('invite-link')).toHaveText(`${origin}/register?code=${code}`);
  await expect(a.getByTestId('invitee-count')).toHaveText('0');
  const me = await apiGet<Summary>(request, 'invite/invite/summary', inviter);
  expect(me).toMatchObject({ welCode: code, inviteeCount: 0, qualified: true });

  // --- The friend opens the link logged out: the code is filled in; signs up there ---
  const fctx = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: 'en-US' });
  const f = await fctx.newPage();
  await f.addInitScript(() => {
    if (!localStorage.getItem('currentLangue')) localStorage.setItem('currentLangue', 'en');
  });
  await recordToasts(f);
  await f.goto(`${origin}/register?code=${code}`);
  await expect(f.getByRole('heading', { name: 'Create account' })).toBeVisible();
  await expect(f.getByLabel('Invitation code', { exact: true })).toHaveValue(code);
  const friendEmail = freshEmail('j14i-f');
  await f.getByLabel('Email', { exact: true }).fill(friendEmail);
  const sentAfter = Date.now();
  await f.getByRole('button', { name: 'Send code' }).click();
  await solvePuzzle(f, 'Security verification', 'Drag the slider to complete the puzzle');
  await expectToast(f, 'Code sent');
  await f.getByLabel('Verification code', { exact: true }).fill(await outboxCode(request, friendEmail, sentAfter));
  await f.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await f.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
  await f.getByRole('checkbox', { name: 'I have read and agree' }).check();
  await f.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expectToast(f, 'Registered: 10,000 demo USDT are in your spot account');
  const friend = await f.evaluate(() => ({ token: localStorage.getItem('token')!, userId: localStorage.getItem('userId')! }));
  expect(friend.token).toBeTruthy();

  // --- The friend trades contracts: a 1-lot long opened and closed at market ---
  await apiPost(request, 'asset/wallet/transfer', { coin: 'USDT', from: 'SPOT', to: 'CONTRACT', amount: '1000', clientId: `j14i-${Date.now()}` }, friend);
  await apiPost(request, 'contract/contract/placeOrder', { symbol: 'BTC/USDT', side: 'BUY', orderType: 'MARKET', lots: '1' }, friend);
  await apiPost(request, 'contract/contract/placeOrder', { symbol: 'BTC/USDT', side: 'SELL', orderType: 'MARKET', lots: '1' }, friend);
  await fctx.close();

  // --- The inviter sees the friend and the pending rebate ---
  const pending = await apiGet<Summary>(request, 'invite/invite/summary', inviter);
  expect(pending.inviteeCount).toBe(1);
  expect(units(pending.pendingRebate)).toBeGreaterThan(0n);
  expect(pending.totalRebate).toBe('0.00000000');
  await a.reload();
  await expect(a.getByTestId('invitee-count')).toHaveText('1');
  const masked = `${friendEmail.slice(0, 3)}****${friendEmail.slice(-4)}`;
  await expect(a.getByRole('table', { name: 'My friends' })).toContainText(masked);

  // --- The day ends on the server: the clock moves past the next 00:00 Asia/Shanghai; the job settles ---
  const { now } = await apiPost<{ now: number }>(request, 'demo/clock/advance', { minutes: '1' });
  const nextMidnight = (Math.floor((now + SHANGHAI_MS) / DAY_MS) + 1) * DAY_MS - SHANGHAI_MS;
  const minutes = Math.ceil((nextMidnight - now) / 60_000) + 1;
  expect(minutes).toBeLessThanOrEqual(1440);
  await apiPost(request, 'demo/clock/advance', { minutes: String(minutes) });
  await expect
    .poll(async () => (await apiGet<Summary>(request, 'invite/invite/summary', inviter)).totalRebate, {
      timeout: 30_000,
      message: 'the daily settlement pays the inviter',
    })
    .toBe(pending.pendingRebate);
  const days = await apiGet<RebateDays>(request, 'invite/invite/rebates', inviter);
  expect(days.total).toBe(1);
  const day = days.records[0]!;
  // rebate = floor(fee x 30%) to the unit, all of it paid (the inviter holds the 10,000 demo USDT).
  expect(units(day.rebate)).toBe((units(day.fee) * 3n) / 10n);
  expect(day).toMatchObject({ paid: pending.pendingRebate, rebate: pending.pendingRebate, invitees: 1 });
  const settledDay = new Date(Math.floor((nextMidnight - 1 + SHANGHAI_MS) / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
  expect(day.day).toBe(settledDay);

  // --- The inviter sees the rebate in the app ---
  await a.reload();
  await expect(a.getByTestId('total-rebate')).toHaveText(shown(pending.pendingRebate));
  await a.getByRole('tab', { name: 'My rebates' }).click();
  const list = a.getByRole('list', { name: 'My rebates' });
  await expect(list).toContainText(settledDay);
  await a.getByRole('tab', { name: 'Ranking' }).click();
  // The settled day is in this month, or in last month when 00:00 began a new month.
  if (settledDay.slice(0, 7) !== new Date(nextMidnight + SHANGHAI_MS).toISOString().slice(0, 7)) await a.getByRole('tab', { name: 'Last month' }).click();
  await expect(a.getByRole('table', { name: 'Ranking' }).getByRole('row').nth(1)).toContainText('Me');
  await expect(a.getByTestId('ranking-mine')).toContainText('My rank: 1');
  await a.getByRole('tab', { name: 'My rebates' }).click();
  await a.screenshot({ path: path.join(SHOTS, 'invitation.png'), fullPage: true });

  // --- The poster: drawn in the popup, saved (a download on the web) ---
  await a.getByRole('button', { name: 'Poster', exact: true }).click();
  const sheet = a.getByRole('dialog', { name: 'Share poster' });
  await expect(sheet.getByTestId('poster-image')).toBeVisible();
  await a.screenshot({ path: path.join(SHOTS, 'invitation-poster.png') });
  const download = a.waitForEvent('download');
  await sheet.getByRole('button', { name: 'Save poster' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`invitation-${code}.png`);
  const png = await a.evaluate(
    async (src) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      return { w: img.naturalWidth, h: img.naturalHeight };
    },
    (await sheet.getByTestId('poster-image').getAttribute('src'))!,
  );
  expect(png).toEqual({ w: 750, h: 1334 });
  await expectToast(a, 'Image saved');
  await sheet.getByRole('button', { name: 'Cancel' }).click();

  // --- In-person invite: the full-screen QR with the code ---
  await a.getByRole('button', { name: 'In-person invite' }).click();
  const full = a.getByRole('dialog', { name: 'In-person invite' });
  await expect(full.getByTestId('inperson-code')).toHaveText(code);
  await expect(full.getByRole('img', { name: 'QR code of my invitation link' })).toBeVisible();
  await a.screenshot({ path: path.join(SHOTS, 'invitation-inperson.png') });
  await full.getByRole('button', { name: 'Close' }).click();
  await expect(full).toHaveCount(0);

  // --- Chinese, night ---
  await lookOf(a, 'zh', 'night');
  await expect(a.getByRole('heading', { name: '返佣规则' })).toBeVisible();
  await expect(a.getByTestId('invitee-count')).toHaveText('1');
  await a.screenshot({ path: path.join(SHOTS, 'invitation-zh-night.png'), fullPage: true });
  await a.getByRole('button', { name: '邀请海报', exact: true }).click();
  await expect(a.getByRole('dialog', { name: '分享海报' }).getByTestId('poster-image')).toBeVisible();
  await a.screenshot({ path: path.join(SHOTS, 'invitation-poster-zh-night.png') });
});
