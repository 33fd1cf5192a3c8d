/**
 * What the order detail shows for an order and the caller (pure, tested): the caller's role (buyer or seller), the
 * screen of the state (spec section 2's fiat order screens: pending payment, pending release, appeal, completed,
 * cancelled) and which actions are open now. The engine's transitions (packages/core otc/types.ts) decide:
 * the buyer marks paid or cancels while PENDING_PAYMENT before the deadline; the seller releases once PAID; either
 * side appeals a PAID order from appealableAt; the appellant withdraws an appeal.
 */
import type { OtcChatMessage, OtcOrderDetail } from '@exchange/api';

/** The screens of the order detail. */
export type OrderScreen = 'PAY' | 'WAIT_PAY' | 'WAIT_RELEASE' | 'RELEASE' | 'APPEAL' | 'COMPLETED' | 'CANCELLED';

/** The view of an order for the caller at `now`. */
export interface OrderView {
  iAmBuyer: boolean;
  screen: OrderScreen;
  /** the buyer may mark paid and cancel */
  canPay: boolean;
  canCancel: boolean;
  canRelease: boolean;
  /** an appeal may be opened now; `appealIn` ms until it may (0 when open or not applicable) */
  canAppeal: boolean;
  appealIn: number;
  canCancelAppeal: boolean;
  /** the other side's real name (the seller's for the buyer: whom to pay; the buyer's for the seller: who pays) */
  counterpartyRealName: string;
  /** the payment deadline passed (the time-out job cancels the order) */
  expired: boolean;
}

/** The view of `o` for the caller at `now` (Unix ms). */
export function orderView(o: OtcOrderDetail, now: number): OrderView {
  const iAmBuyer = o.mySide === 'BUY';
  const expired = o.state === 'PENDING_PAYMENT' && o.deadline > 0 && now >= o.deadline;
  let screen: OrderScreen;
  switch (o.state) {
    case 'PENDING_PAYMENT':
      screen = iAmBuyer ? 'PAY' : 'WAIT_PAY';
      break;
    case 'PAID':
      screen = iAmBuyer ? 'WAIT_RELEASE' : 'RELEASE';
      break;
    case 'APPEAL':
      screen = 'APPEAL';
      break;
    case 'COMPLETED':
      screen = 'COMPLETED';
      break;
    default:
      screen = 'CANCELLED';
  }
  const paid = o.state === 'PAID';
  const appealIn = paid ? Math.max(0, o.appealableAt - now) : 0;
  const myAppealRole = iAmBuyer ? 'BUYER' : 'SELLER';
  return {
    iAmBuyer,
    screen,
    canPay: screen === 'PAY' && !expired,
    canCancel: iAmBuyer && (o.state === 'PENDING_PAYMENT' || o.state === 'PAID') && !expired,
    canRelease: !iAmBuyer && paid,
    canAppeal: paid && appealIn === 0,
    appealIn,
    canCancelAppeal: o.state === 'APPEAL' && o.appeal?.by === myAppealRole && !o.appeal.outcome,
    counterpartyRealName: iAmBuyer ? o.sellerRealName : o.buyerRealName,
    expired,
  };
}

/**
 * Whether a chat message pushed live adds to the order's unread count: the other side's and operators' messages, not
 * the caller's own nor the SYSTEM notes of the order's changes (the server's `unread` counts the same, otc.service).
 */
export function countsAsUnread(m: Pick<OtcChatMessage, 'mine' | 'from'>): boolean {
  return !m.mine && m.from !== 'SYSTEM';
}
