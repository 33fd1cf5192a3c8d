/**
 * Journey 14-activity (activities): the demo operator defines a trading competition in the console (1280x800,
 * en): title, rules, prizes 100 / 50 / 20 USDT, budget 170, the default period (now to a week on). A new user (demo
 * funds, a nickname) opens home's activity centre button, finds the competition under Ongoing, opens it and joins
 * (toast); a second user joins and buys 2,000 USDT of BTC at market through the API; the first buys 1,000 USDT of BTC
 * at market on the trade screen of the app. The details page's live leaderboard then lists the second user first and
 * the first user second, marked "You", with the rank-2 prize of 50 USDT, matching the API. The operator sees the
 * ranking in the console and ends the competition early; the payout job pays within seconds: the console shows it paid
 * (150 USDT: two ranked users, the third prize stays in the budget), the first user's funding account grows by exactly 50 USDT, the app's history shows the reward paid.
 * The clock is not moved (an early end instead): the journey runs in the operator lane. Screenshots:
 * docs/screenshots/activity{,-details,-history}.png (en/day), activity-details-zh-night.png, console-activities.png.
 */
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiGet, lookOf, phoneAs, type Session } from './otc-support';
import { apiPost, freshEmail, operatorLogin, registerByApi } from './support';

const SHOTS = path.resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots');

test.use({ viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false, deviceScaleFactor: 1, locale: 'en-US' });

/** A new user with demo funds and a nickname. */
async function trader(request: APIRequestContext, tag: string): Promise<Session & { nickName: string }> {
  const s = await registerByApi(request, freshEmail(tag), 'Journey14activity');
  const nickName = `${tag}${Date.now() % 100_000}`;
  await apiPost(request, 'member/member/setNickName', { member: s.userId, nickName }, s);
  return { ...s, nickName };
}

/** The user's USDT available in the funding (ASSETS) account, as a decimal string. */
async function fundingUsdt(request: APIRequestContext, s: Session): Promise<string> {
  const a = await apiGet<{ accounts: { type: string; items: { coin: string; available: string }[] }[] }>(request, 'asset/asset/getAssets', s);
  return a.accounts.find((x) => x.type === 'ASSETS')?.items.find((i) => i.coin === 'USDT')?.available ?? '0.00000000';
}
const units = (s: string) => BigInt(s.replace('.', ''));

test('an operator defines a competition, a user joins and trades in the app, sees the leaderboard, is paid once it ends', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const title = `Spring cup ${Date.now() % 100_000}`;

  // --- The operator defines the competition ---
  await operatorLogin(page);
  await page.getByRole('menuitem', { name: 'Activities' }).click();
  const form = page.locator('form');
  await form.getByLabel('Title (Chinese)').fill(`春季交易赛 ${title.slice(-5)}`);
  await form.getByLabel('Title (English)').fill(title);
  await form.getByLabel('Rules (Chinese)').fill('活动期间按币币和合约成交额（USDT）排名，前三名获得奖金。\n成交额相同时，先达到者排名在前。');
  await form
    .getByLabel('Rules (English)')
    .fill('Ranked by spot and futures volume (USDT) during the activity; the top three win.\nOn equal volume, whoever reached it first ranks higher.');
  await form.getByLabel('Prizes by rank').fill('100, 50, 20');
  await form.getByLabel('Budget').fill('170');
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText(/^Activity \d+ created$/)).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: title });
  await expect(row).toBeVisible();
  await expect(row.getByText('Ongoing')).toBeVisible();
  await expect(row).toContainText('100 / 50 / 20');
  await page.screenshot({ path: path.join(SHOTS, 'console-activities.png') });

  // --- A user opens the activity centre from home and joins ---
  const alice = await trader(request, 'j14act');
  const bob = await trader(request, 'j14bob');
  const p = await phoneAs(browser, alice);
  await p.goto('/');
  await p.getByRole('navigation', { name: 'Quick actions' }).getByRole('button', { name: 'Activities' }).click();
  await expect(p).toHaveURL(/\/activity$/);
  await expect(p.getByRole('heading', { level: 1, name: 'Activity centre' })).toBeVisible();
  const card = p.getByRole('list', { name: 'Ongoing' }).getByRole('button', { name: `Open ${title}` });
  await expect(card).toBeVisible();
  await p.screenshot({ path: path.join(SHOTS, 'activity.png') });
  await card.click();
  await expect(p).toHaveURL(/\/activityDetails\?activityId=\d+$/);
  const activityId = new URL(p.url()).searchParams.get('activityId')!;
  await expect(p.getByText('Join to take part')).toBeVisible();
  await p.getByRole('button', { name: 'Join now' }).click();
  await expect(p.getByText('You have joined the activity')).toBeVisible();
  await expect(p.getByRole('button', { name: 'Joined' })).toBeDisabled();
  await expect(p.getByTestId('act-participants')).toHaveText('1');

  // --- bob joins and buys 2,000 USDT at market (API); alice buys 1,000 USDT at market in the app ---
  await apiPost(request, 'activity/activity/join', { activityId }, bob);
  await apiPost(request, 'entrust/entrust/setEntrust', { pairsName: 'BTC/USDT', side: 'BUY', orderType: 'MARKET', total: '2000' }, bob);
  await p.getByRole('button', { name: 'Trade now' }).click();
  await expect(p).toHaveURL(/\/transaction$/);
  const asks = p.getByRole('region', { name: 'Order book' }).getByRole('list', { name: 'Sell' });
  await expect(asks.getByRole('button', { name: /^Use price / }).nth(2)).toBeVisible({ timeout: 60_000 });
  await p.getByRole('tablist', { name: 'Order type' }).getByRole('tab', { name: 'Market' }).click();
  await p.getByLabel('Total', { exact: true }).fill('1000');
  await p.getByRole('button', { name: 'Buy BTC' }).click();
  const result = p.getByRole('dialog', { name: /^Order (filled|partially filled)$/ });
  await expect(result).toBeVisible({ timeout: 30_000 });
  await result.getByRole('button', { name: 'OK' }).click();

  // --- The live leaderboard: bob first, alice second (marked), prizes by rank; the API agrees ---
  await p.goto(`/activityDetails?activityId=${activityId}`);
  const board = p.getByRole('region', { name: 'Leaderboard' }).getByRole('table');
  await expect(board.getByRole('row')).toHaveCount(3, { timeout: 20_000 });
  const api = await apiGet<{ records: { rank: number; name: string; progress: string; prize: string }[] }>(
    request,
    `activity/activity/leaderboard?activityId=${activityId}`,
    {},
  );
  expect(api.records.map((r) => [r.rank, r.name, r.prize])).toEqual([
    [1, bob.nickName, '100.00000000'],
    [2, alice.nickName, '50.00000000'],
  ]);
  expect(units(api.records[0]!.progress)).toBeGreaterThan(units(api.records[1]!.progress));
  expect(units(api.records[1]!.progress)).toBeGreaterThan(0n); // the market buy's filled total, at most 1,000
  const mine = board.getByRole('row').nth(2);
  await expect(mine).toContainText(alice.nickName);
  await expect(mine).toContainText('You');
  await expect(mine).toContainText('50');
  await expect(board.getByRole('row').nth(1)).toContainText(bob.nickName);
  await expect(p.getByTestId('act-my-rank')).toHaveText('#2');
  await p.screenshot({ path: path.join(SHOTS, 'activity-details.png'), fullPage: true });
  await lookOf(p, 'zh', 'night');
  await expect(p.getByRole('region', { name: '排行榜' }).getByRole('row')).toHaveCount(3);
  await expect(p.getByTestId('act-my-rank')).toHaveText('#2');
  await p.screenshot({ path: path.join(SHOTS, 'activity-details-zh-night.png'), fullPage: true });
  await lookOf(p, 'en', 'default');

  // --- The operator sees the ranking and ends the competition early; the job pays it once ---
  const before = await fundingUsdt(request, alice);
  await page.reload();
  const opRow = page.getByRole('row').filter({ hasText: title });
  await opRow.getByRole('button', { name: 'Ranking' }).click();
  const drawer = page.getByRole('dialog').filter({ hasText: title });
  await expect(drawer.getByRole('row').filter({ has: page.getByRole('cell', { name: alice.userId, exact: true }) })).toContainText('50');
  await drawer.getByRole('button', { name: 'Close' }).click();
  await opRow.getByRole('button', { name: 'End now' }).click();
  await page.locator('.ant-popconfirm').getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Activity ended')).toBeVisible();
  await expect(opRow.getByText('Paid 150')).toBeVisible({ timeout: 30_000 });
  const after = await fundingUsdt(request, alice);
  expect(units(after) - units(before)).toBe(50n * 10n ** 8n);
  // a second look later: still exactly 50 more (paid once)
  await page.waitForTimeout(6_000);
  expect(units(await fundingUsdt(request, alice)) - units(before)).toBe(50n * 10n ** 8n);

  // --- The history shows the reward paid ---
  await p.goto('/activityHistory');
  await expect(p.getByRole('heading', { level: 1, name: 'My activities' })).toBeVisible();
  const h = p.getByRole('list', { name: 'My activities' }).getByRole('listitem').filter({ hasText: title });
  await expect(h).toContainText('Rewards paid');
  await expect(h).toContainText('50 USDT');
  await p.screenshot({ path: path.join(SHOTS, 'activity-history.png') });
});
