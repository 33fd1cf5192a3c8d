// Unit test of the inbox's words (message-text.ts): every kind the server can send (packages/api INBOX_KINDS) has a
// title and a text in both languages; messages render from their kind and parameters in the reader's language (a side,
// status, level, reason translated; an operator's reason taken in the reader's language); an unknown kind falls back to
// a generic text instead of a raw key; links lead to the screen of the order or record.
import { beforeAll, describe, expect, it } from 'vitest';
import { INBOX_KINDS, type InboxMessage } from '@exchange/api';
import { i18n } from '../../../shared/i18n';
import en from '../locales/en/inbox.json';
import zh from '../locales/zh/inbox.json';
import { linkOf, messageText } from './message-text';

const msg = (kind: string, params: Record<string, string>, category: InboxMessage['category'] = 'TRADE'): InboxMessage => ({
  id: '1',
  category,
  kind,
  params,
  ts: 0,
  read: false,
});
const fill = msg('SPOT_FILLED', {
  orderId: '42',
  pairsName: 'BTC/USDT',
  side: 'BUY',
  filledQty: '0.50000',
  filledQuote: '15000.00000000',
  avgPrice: '30000.00',
  baseCoin: 'BTC',
  quoteCoin: 'USDT',
  status: 'PARTIALLY_FILLED',
});
const kycNo = msg('KYC_REJECTED', { level: 'BASIC', reasonZh: '照片模糊', reasonEn: 'Blurred photo' }, 'ACCOUNT');

beforeAll(async () => {
  await i18n.loadNamespaces('inbox');
  await i18n.loadLanguages(['en', 'zh']);
});

const text = (m: InboxMessage, lang: 'en' | 'zh') => messageText(m, i18n.getFixedT(lang, 'inbox'), lang);

describe('inbox message text', () => {
  it('has a title and a text in en and zh for every kind', () => {
    for (const kind of Object.keys(INBOX_KINDS)) {
      for (const file of [en, zh]) {
        const k = (file.kinds as Record<string, { title?: string; body?: string }>)[kind];
        expect(k?.title, kind).toBeTruthy();
        expect(k?.body, kind).toBeTruthy();
      }
    }
    expect(Object.keys(en.kinds).sort()).toEqual(Object.keys(INBOX_KINDS).sort());
  });

  it('renders a fill in both languages from its parameters', () => {
    expect(text(fill, 'en')).toEqual({
      title: 'Spot order partially filled',
      body: 'Buy BTC/USDT: 0.5 BTC for 15,000.00 USDT, average price 30,000.',
      link: '/transaction/allTransaction',
    });
    expect(text(fill, 'zh')).toEqual({
      title: '币币委托部分成交',
      body: '买入 BTC/USDT：成交 0.5 BTC，成交额 15,000.00 USDT，均价 30,000。',
      link: '/transaction/allTransaction',
    });
  });

  it("takes an operator's reason in the reader's language and translates the level", () => {
    expect(text(kycNo, 'en').body).toBe('Your basic identity verification was rejected: Blurred photo. You may submit it again.');
    expect(text(kycNo, 'zh').body).toBe('您的初级身份认证未通过：照片模糊。您可以重新提交。');
    const cancelled = msg(
      'OTC_CANCELLED',
      { orderId: '7', coin: 'USDT', quantity: '100.00000000', fiat: 'CNY', fiatAmount: '720.00', reason: 'TIMEOUT' },
      'OTC',
    );
    expect(text(cancelled, 'en')).toEqual({
      title: 'P2P order cancelled',
      body: 'Order 7 was cancelled: it was not paid in time.',
      link: '/transaction/orderDetail?orderId=7',
    });
    expect(text(cancelled, 'zh').body).toBe('订单 7 已取消：超时未付款。');
  });

  it('falls back to a generic text for a kind this app does not know, and links security messages to the activity log', () => {
    expect(text(msg('SOMETHING_NEW', {}), 'en')).toEqual({ title: 'Notification', body: 'Please update the app to read this message.', link: null });
    expect(linkOf(msg('LOGIN_NEW_DEVICE', { ip: '1.2.3.4', device: 'iPhone' }, 'ACCOUNT'))).toBe('/accountCenter/activity');
    expect(text(msg('LOGIN_NEW_DEVICE', { ip: '1.2.3.4', device: 'iPhone' }, 'ACCOUNT'), 'en').body).toBe(
      'Your account was logged in from iPhone (IP 1.2.3.4). If this was not you, change your password now.',
    );
  });
});
