/**
 * The words of an inbox message in the reader's language: the title and the text come from the locale
 * (inbox.json kinds.<KIND>.title / .body) with the message's parameters, never from stored prose; the values that are
 * words themselves (a side, an order status, a trade type, a reason) are translated too, and a reason an operator
 * wrote in both languages is taken in the reader's. Also where a message leads (the screen of its order or record).
 */
import type { TFunction } from 'i18next';
import type { InboxMessage } from '@exchange/api';
import { formatCoin, groupThousands, trimZeros } from '../../../shared/format';

/** What the list shows of a message. */
export interface MessageText {
  title: string;
  body: string;
  /** the screen the message is about (opened from the expanded message), or null */
  link: string | null;
}

/** Where a message leads, by kind. */
export function linkOf(m: InboxMessage): string | null {
  switch (m.kind) {
    case 'DEPOSIT_CREDITED':
      return '/assets/capitalRecords?type=coinCharging';
    case 'WITHDRAWAL_COMPLETED':
    case 'WITHDRAWAL_REJECTED':
    case 'WITHDRAWAL_FAILED':
      return '/assets/capitalRecords?type=withdrawCoin';
    case 'SPOT_FILLED':
      return '/transaction/allTransaction';
    case 'CONTRACT_FILLED':
    case 'LIQUIDATED':
      return '/contract/allContract';
    case 'KYC_APPROVED':
    case 'KYC_REJECTED':
      return '/personalCenter';
    default:
      if (m.kind.startsWith('OTC_') && m.params.orderId) return `/transaction/orderDetail?orderId=${encodeURIComponent(m.params.orderId)}`;
      if (m.category === 'ACCOUNT') return '/accountCenter/activity';
      return null;
  }
}

/** The title, text and link of `m` in the language of `t` (`lang` picks an operator's reason). */
export function messageText(m: InboxMessage, t: TFunction, lang: 'zh' | 'en'): MessageText {
  const p = m.params;
  const amt = (v: string | undefined, coin: string | undefined) => (v ? `${formatCoin(v, coin ?? '', { exact: true })} ${coin ?? ''}`.trim() : '--');
  const price = (v: string | undefined) => (v ? groupThousands(trimZeros(v)) : '--');
  const values: Record<string, string> = {
    ...p,
    amount: amt(p.amount, p.coin),
    fee: amt(p.fee, p.coin),
    filled: amt(p.filledQty, p.baseCoin),
    total: amt(p.filledQuote, p.quoteCoin),
    avgPrice: price(p.avgPrice),
    size: amt(p.size, p.baseCoin),
    markPrice: price(p.markPrice),
    quantity: amt(p.quantity, p.coin),
    fiatAmount: p.fiatAmount ? `${groupThousands(p.fiatAmount)} ${p.fiat ?? ''}`.trim() : '--',
    side: p.side ? t(`side.${p.side}`, { defaultValue: p.side }) : '',
    status: p.status ? t(`status.${p.status}`, { defaultValue: p.status }) : '',
    tradeType: p.tradeType ? t(`tradeType.${p.tradeType}`, { defaultValue: p.tradeType }) : '',
    level: p.level ? t(`level.${p.level}`, { defaultValue: p.level }) : '',
    reason: (lang === 'zh' ? p.reasonZh : p.reasonEn) || (p.reason ? t(`otcReason.${p.reason}`, { defaultValue: p.reason }) : '') || t('noReason'),
    outcome: p.outcome ? t(`outcome.${p.outcome}`, { defaultValue: p.outcome }) : '',
    detail: p.detail ? t(`bound.${p.detail}`, { defaultValue: p.detail }) : '',
    device: p.device || t('unknownDevice'),
    ip: p.ip || '--',
  };
  const opts = { ...values, interpolation: { escapeValue: false } };
  const known = t(`kinds.${m.kind}.title`, { ...opts, defaultValue: '' });
  return {
    title: known || t('unknownKind.title'),
    body: known ? t(`kinds.${m.kind}.body`, opts) : t('unknownKind.body'),
    link: linkOf(m),
  };
}
