/**
 * Journey 12d (one source for a contract's ticker): the 24 h change and the last price of a perpetual
 * shown on the contract trade screen (/contract: contract/market/getMarket and the contractTicker push) and on the
 * pair detail (/quotes/quotesDetail?type=contract: getCoinInfo type CONTRACT and the ticker push) are the same
 * figures: both come from the contract market's own trades (the mark price before the first trade). The two
 * screens are open side by side; with the liquidity bots trading, both are read until they show the same moment.
 */
import { expect, test, type Page } from '@playwright/test';

const SYMBOL = 'BTC/USDT';

/** Opens `url` with the stored contract pair SYMBOL (spec section 3: pairsName1). */
async function openWithPair(page: Page, url: string): Promise<void> {
  await page.addInitScript((sym) => localStorage.setItem('pairsName1', sym), SYMBOL);
  await page.goto(url);
}

test('contract ticker: /contract and the pair detail show the same 24 h change and last price', async ({ page, context, request }) => {
  test.setTimeout(120_000);
  const res = await request.get(`/api/contract/market/getMarket?symbol=${encodeURIComponent(SYMBOL)}`);
  const m = ((await res.json()) as { result: { change24h: string; markPrice: string } }).result;
  expect(m.change24h).toMatch(/^-?\d+\.\d{2}$/);

  await openWithPair(page, '/contract');
  const contractChange = page.locator('.ct-header-chg');
  const contractLast = page.locator('.ct-book-last-price');
  await expect(contractChange).toHaveText(/^[+-]?\d+\.\d{2}%$/);
  await expect(contractLast).toHaveText(/^\d[\d,]*\.\d{2}$/);

  const detail = await context.newPage();
  await openWithPair(detail, `/quotes/quotesDetail?type=contract&pairsName=${encodeURIComponent(SYMBOL)}`);
  const detailChange = detail.getByTestId('change-24h');
  const detailLast = detail.getByTestId('last-price');
  await expect(detailChange).toHaveText(/^[+-]?\d+\.\d{2}%$/);

  // The same moment on both screens: change and last price equal together (each screen follows its own pushes, so
  // a bot's trade may reach one a moment before the other).
  let seen = { change: '', last: '' };
  await expect(async () => {
    const [c1, l1, c2, l2] = await Promise.all([
      contractChange.textContent(),
      contractLast.textContent(),
      detailChange.textContent(),
      detailLast.textContent(),
    ]);
    seen = { change: c1 ?? '', last: l1 ?? '' };
    expect({ change: c2, last: l2 }).toEqual({ change: c1, last: l1 });
  }).toPass({ timeout: 30_000, intervals: [250] });
  expect(seen.change).toMatch(/^[+-]?\d+\.\d{2}%$/);
  expect(seen.last).not.toBe('--');

  // The quotes list shows the same change as the API's contract ticker (one source): its pair and the market agree.
  await expect(async () => {
    const [pairs, market] = await Promise.all([
      request
        .get('/api/data/data/getPairsByMainCur?mainCur=USDT&type=CONTRACT')
        .then((r) => r.json() as Promise<{ result: Array<{ pairsName: string; updown: string; price: string; high: string; low: string; volume: string }> }>),
      request
        .get(`/api/contract/market/getMarket?symbol=${encodeURIComponent(SYMBOL)}`)
        .then(
          (r) =>
            r.json() as Promise<{ result: { change24h: string; lastPrice: string; markPrice: string; high24h: string; low24h: string; volume24h: string } }>,
        ),
    ]);
    const p = pairs.result.find((x) => x.pairsName === SYMBOL)!;
    const mk = market.result;
    expect({ change: p.updown, last: p.price, high: p.high, low: p.low, volume: p.volume }).toEqual({
      change: mk.change24h,
      last: mk.lastPrice || mk.markPrice,
      high: mk.high24h,
      low: mk.low24h,
      volume: mk.volume24h,
    });
  }).toPass({ timeout: 30_000, intervals: [250] });
  await detail.close();
});
