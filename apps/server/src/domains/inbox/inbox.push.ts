/**
 * The inbox's private WebSocket push (packages/api ws.ts 'inbox'): a user with a socket whom a batch of events gives
 * an inbox message (inbox.projection.ts `inboxRows`) is told once the batch is written, when the message is readable;
 * the app then refreshes its unread count.
 */
import type { WsServerMessage } from '@exchange/api';
import type { DomainPushes } from '../../platform/shared/private-push';
import { inboxRows } from './inbox.projection';

export const inboxPushes: DomainPushes = {
  afterProjection(events, wanted) {
    const users = new Set<string>();
    for (const r of inboxRows(0, events)) if (wanted(String(r.userId))) users.add(String(r.userId));
    return [...users].map((userId) => ({ userId, message: { channel: 'inbox' } satisfies WsServerMessage }));
  },
};
