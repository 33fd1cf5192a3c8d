/**
 * Journey 12f: a perpetual paused on a stale index (spec section 9, docs/index-price.md), at 390x844 on ETH/USDT (the
 * contract lane runs its journeys one at a time). A new user opens /contract; the test silences every index source of
 * the contract (POST demo/contract/silenceIndexSources, demo mode and loopback only), as if they had all stopped: within
 * seconds the screen says why trading is paused, the Open button is disabled and the index price's components list
 * every source stale; the API says the same (getMarket paused, pauseReason index_stale). Once the sources speak again
 * the banner goes and the button works. Screenshots: docs/screenshots/review/contract-paused-*.png (en day, zh night).
 */
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { lookOf, phoneAs } from './otc-support';
import { apiPost, freshEmail, registerByApi } from './support';

const SYMBOL = 'ETH/USDT';
const SHOTS = path.resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots', 'review');

interface Market {
  markPrice: string;
  paused?: boolean;
  pauseReason?: string;
}

async function market(request: APIRequestContext): Promise<Market> {
  const res = await request.get(`/api/contract/market/getMarket?symbol=${encodeURIComponent(SYMBOL)}`);
  const body = (await res.json()) as { status: string; result: Market };
  expect(body.status).toBe('SUCCEED');
  return body.result;
}
const silence = (request: APIRequestContext, silent: boolean) =>
  apiPost(request, 'demo/contract/silenceIndexSources', { symbol: SYMBOL, silent: String(silent) });

test('a contract paused on a stale index: the banner says why, Open is disabled, every source stale; then it resumes', async ({ browser, request }) => {
  test.setTimeout(180_000);
  const s = await registerByApi(request, freshEmail('j12f'), 'Journey12fpass');
  await apiPost(request, 'member/member/setNickName', { member: s.userId, nickName: `j12f${Date.now() % 1_000_000}` }, s);
  const m0 = await market(request);
  expect(m0.markPrice, 'the contract has a mark price').not.toBe('');
  expect(m0.paused ?? false).toBe(false);

  const p = await phoneAs(browser, s);
  await p.addInitScript((sym) => localStorage.setItem('pairsName1', sym), SYMBOL);
  await p.goto('/contract');
  // the order form's submit button (its name is the side's, in the page's language)
  const submit = p.locator('button.ct-submit[type="submit"]');
  await expect(p.getByTestId('mark-price')).not.toHaveText('--', { timeout: 30_000 });
  await expect(p.getByTestId('contract-paused')).toHaveCount(0);
  await expect(submit).toBeEnabled();

  try {
    // --- every source silent: the index is stale, the mark held, the contract paused ---
    await silence(request, true);
    await expect.poll(async () => (await market(request)).pauseReason ?? '', { timeout: 30_000, intervals: [500] }).toBe('index_stale');
    const held = (await market(request)).markPrice;
    const banner = p.getByTestId('contract-paused');
    await expect(banner).toContainText('Trading paused', { timeout: 30_000 });
    await expect(banner).toContainText(`The index price of ${SYMBOL} is stale`);
    await expect(submit).toBeDisabled();
    await expect(submit).toHaveAttribute('title', 'Paused: opening orders are not accepted');
    await p.screenshot({ path: path.join(SHOTS, 'contract-paused-en.png') });
    await p.getByRole('button', { name: 'Index price components' }).click();
    const sheet = p.getByRole('dialog', { name: 'Index price components' });
    await expect(sheet.getByTestId('index-stale')).toContainText('Stale: too few live sources', { timeout: 15_000 });
    await expect(sheet.getByTestId('index-source-reference')).toContainText('Stale');
    await p.screenshot({ path: path.join(SHOTS, 'contract-paused-components-en.png') });
    await p.keyboard.press('Escape');
    // the mark price holds while the index is stale
    await p.waitForTimeout(2_500);
    expect((await market(request)).markPrice).toBe(held);

    // the same in Chinese at night
    await lookOf(p, 'zh', 'night');
    await expect(p.getByTestId('contract-paused')).toContainText(SYMBOL, { timeout: 30_000 });
    await expect(submit).toBeDisabled();
    await p.screenshot({ path: path.join(SHOTS, 'contract-paused-zh-night.png') });
    await lookOf(p, 'en', 'default');

    // --- the sources speak again: the next tick resumes the contract ---
    await silence(request, false);
    await expect(banner).toHaveCount(0, { timeout: 30_000 });
    await expect(submit).toBeEnabled();
    expect((await market(request)).paused ?? false).toBe(false);
  } finally {
    await silence(request, false);
  }
});
