/**
 * Journey 14s (a support chat between the app and the console): a new user in the app (390x844, en, day)
 * opens customer service (/customer, then "Chat now" to /kefuWebview), writes a text and sends a picture. The demo
 * operator, in the console (1280x800, en), adds a canned reply, sees the conversation at the head of the support queue
 * (Waiting, 2 unread), opens it (the text and the picture), inserts the canned reply in the user's language and sends
 * it: the user sees it in the open chat within seconds (the WebSocket push; the chat's fallback poll is 15 s). Then
 * offline: the operator logs out (the chat says no operator is online), the user writes and leaves; the operator logs
 * in again, answers the waiting conversation from the Waiting filter; the user's home header shows the unread reply,
 * and the chat (zh, night) shows it under "新回复". Screenshots: docs/screenshots/support-{customer,chat}.png,
 * support-{customer,chat}-zh-night.png, console-support-{queue,canned}.png.
 */
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { lookOf, phoneAs } from './otc-support';
import { freshEmail, operatorLogin, registerByApi } from './support';

const SHOTS = path.resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots');
/** A picture to send: a screenshot of the repo (a PNG well above the 300 px minimum, under 5 MB). */
const PICTURE = path.join(SHOTS, 'home-day.png');

test.use({ viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false, deviceScaleFactor: 1, locale: 'en-US' });

test('support chat: text and a picture from the app, a canned reply live from the console, an offline message answered later', async ({
  browser,
  page,
  request,
}) => {
  test.setTimeout(300_000);
  const email = freshEmail('j14s');
  const user = await registerByApi(request, email, 'Journey14spass');
  const canned = {
    title: 'Deposit check',
    en: 'We are checking your deposit, it usually arrives after 12 confirmations.',
    zh: '我们正在核实您的充值，通常在12个区块确认后到账。',
  };

  // --- The operator adds a canned reply (zh and en) in the console ---
  await operatorLogin(page);
  await page.getByRole('menuitem', { name: 'Canned replies' }).click();
  await page.getByRole('button', { name: 'New canned reply' }).click();
  const modal = page.getByRole('dialog').filter({ hasText: 'New canned reply' });
  await modal.getByLabel('Title').fill(canned.title);
  await modal.getByLabel('Chinese text').fill(canned.zh);
  await modal.getByLabel('English text').fill(canned.en);
  await modal.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('row').filter({ hasText: canned.title })).toBeVisible();
  await page.screenshot({ path: path.join(SHOTS, 'console-support-canned.png') });
  // The support queue is open in the console (its polling is the operator's presence).
  await page.getByRole('menuitem', { name: 'Support chat' }).click();

  // --- The user opens customer service and writes ---
  const app = await phoneAs(browser, user);
  await app.goto('/customer');
  await expect(app.getByRole('heading', { name: 'Online support' })).toBeVisible();
  await expect(app.getByText('An operator is online: usually replies in minutes')).toBeVisible();
  await expect(app.getByText('My deposit has not arrived')).toBeVisible();
  await app.screenshot({ path: path.join(SHOTS, 'support-customer.png') });
  // A common question opens the help centre's search for its topic.
  await app.getByText('My deposit has not arrived').click();
  await expect(app).toHaveURL(/\/helpCenterDetail3\?q=deposit$/);
  // Journey 14h (same lane, earlier) retitles this article "How do I deposit coins? (<stamp>)": match its start.
  await expect(app.getByText(/^How do I deposit/).first()).toBeVisible();
  await app.goBack();
  await expect(app).toHaveURL(/\/customer$/);
  await app.getByRole('button', { name: 'Chat now' }).click();
  await expect(app).toHaveURL(/\/kefuWebview$/);
  await expect(app.getByText('Hello! Describe your question and an operator will reply here.')).toBeVisible();
  await app.getByRole('textbox', { name: 'Type a message' }).fill('My USDT deposit has not arrived yet');
  await app.getByRole('button', { name: 'Send', exact: true }).click();
  const chat = app.getByRole('list', { name: 'Messages' });
  await expect(chat.getByRole('listitem', { name: 'You' }).filter({ hasText: 'My USDT deposit has not arrived yet' })).toBeVisible();
  await app.locator('input[type=file]').setInputFiles(PICTURE);
  await expect(chat.getByRole('listitem', { name: 'You' }).locator('img[alt="Picture"]')).toBeVisible({ timeout: 20_000 });
  await expect(app.locator('.sup-status')).toHaveText(/Waiting for an operator/);

  // --- The operator finds it at the head of the queue and answers with the canned reply ---
  const row = page.getByRole('listitem', { name: `Conversation with ${email} · UID` }).first();
  await expect(page.locator('.support-row').first()).toContainText(email, { timeout: 15_000 });
  await expect(row).toContainText('Waiting');
  await expect(row.locator('.ant-badge-count')).toHaveText('2');
  await page.screenshot({ path: path.join(SHOTS, 'console-support-queue.png') });
  await row.click();
  const messages = page.getByRole('list', { name: 'Messages' });
  await expect(messages.getByRole('listitem', { name: 'Message from the user' }).filter({ hasText: 'My USDT deposit has not arrived yet' })).toBeVisible();
  await expect(messages.locator('img[alt="Picture"]')).toBeVisible();
  await page.getByRole('combobox', { name: 'Canned reply' }).click();
  await page.locator('.ant-select-item-option', { hasText: canned.title }).click();
  await expect(page.getByRole('textbox', { name: 'Reply to the user' })).toHaveValue(canned.en);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(messages.getByRole('listitem', { name: /^Reply by / }).filter({ hasText: canned.en })).toBeVisible();
  await expect(page.getByText('Assigned to', { exact: false }).first()).toBeVisible();
  await page.screenshot({ path: path.join(SHOTS, 'console-support-conversation.png') });

  // The user sees it live (the push; the chat's own poll is 15 s).
  await expect(chat.getByRole('listitem', { name: /^Operator / }).filter({ hasText: canned.en })).toBeVisible({ timeout: 8_000 });
  await expect(app.locator('.sup-status')).toHaveText(/is helping you/);
  await app.screenshot({ path: path.join(SHOTS, 'support-chat.png') });

  // --- Offline: the operator logs out; the user's message waits ---
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/admin\/login$/);
  await app.goto('/');
  await app.goto('/kefuWebview');
  await app.getByRole('textbox', { name: 'Type a message' }).fill('Any news about my deposit?');
  await app.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(chat.getByRole('listitem', { name: 'You' }).filter({ hasText: 'Any news about my deposit?' })).toBeVisible();
  await app.goto('/');
  await expect(app.getByRole('button', { name: 'Customer service', exact: true })).toBeVisible();

  // --- Later: the operator is back and answers the waiting conversation ---
  await operatorLogin(page);
  await page.getByRole('menuitem', { name: 'Support chat' }).click();
  await page.locator('.ant-segmented-item', { hasText: 'Waiting' }).click();
  const waiting = page.getByRole('listitem', { name: `Conversation with ${email} · UID` }).first();
  await expect(waiting).toContainText('Any news about my deposit?');
  await waiting.click();
  await page.getByRole('textbox', { name: 'Reply to the user' }).fill('Your deposit has arrived: 12 confirmations reached.');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(
    page
      .getByRole('list', { name: 'Messages' })
      .getByRole('listitem', { name: /^Reply by / })
      .filter({ hasText: 'Your deposit has arrived' }),
  ).toBeVisible();

  // --- Next time in the app: the unread reply on the header icon, then in the chat (zh, night) ---
  await lookOf(app, 'zh', 'night');
  await expect(app.getByRole('button', { name: '在线客服，1 条未读' })).toBeVisible({ timeout: 20_000 });
  await app.getByRole('button', { name: '在线客服，1 条未读' }).click();
  await expect(app).toHaveURL(/\/kefuWebview$/);
  await expect(app.getByRole('separator')).toHaveText('新回复');
  await expect(app.getByRole('list', { name: '消息' }).getByText('Your deposit has arrived: 12 confirmations reached.')).toBeVisible();
  await app.screenshot({ path: path.join(SHOTS, 'support-chat-zh-night.png') });
  // Read: the header icon has no unread count any more.
  await app.goto('/customer');
  await expect(app.getByRole('button', { name: '立即咨询' })).toBeVisible();
  await app.screenshot({ path: path.join(SHOTS, 'support-customer-zh-night.png') });
  await app.goto('/');
  await expect(app.getByRole('button', { name: '在线客服', exact: true })).toBeVisible();
  await app.context().close();
});
