/**
 * The chat's cache updates (get-messages.ts): a pushed or sent message is added once, in id order, whatever order the
 * push and the answer arrive in; an older page goes before the current one without duplicates and carries its own
 * hasMore. Ids are compared as integers (a string compare would put "10" before "9").
 */
import { describe, expect, it } from 'vitest';
import type { SupportMessage } from '@exchange/api';
import { withMessage, withOlder } from './get-messages';

const msg = (id: string, text = `m${id}`): SupportMessage => ({
  id,
  conversationId: '1',
  from: 'USER',
  mine: true,
  text,
  imageUrl: '',
  operatorName: '',
  createdAt: Number(id),
});

describe('withMessage', () => {
  it('adds a message once, in id order (numeric), keeping hasMore', () => {
    const page = { messages: [msg('8'), msg('9')], hasMore: true };
    const once = withMessage(page, msg('10'));
    expect(once.messages.map((m) => m.id)).toEqual(['8', '9', '10']);
    expect(once.hasMore).toBe(true);
    // The push after the answer (or the other way round) does not add it twice; the newer copy wins.
    expect(withMessage(once, msg('10', 'again')).messages.map((m) => [m.id, m.text])).toEqual([
      ['8', 'm8'],
      ['9', 'm9'],
      ['10', 'again'],
    ]);
    expect(withMessage(undefined, msg('1'))).toEqual({ messages: [msg('1')], hasMore: false });
  });
});

describe('withOlder', () => {
  it('puts an older page first without duplicates and takes its hasMore', () => {
    const page = { messages: [msg('51'), msg('52')], hasMore: true };
    const merged = withOlder(page, { messages: [msg('50'), msg('51')], hasMore: false });
    expect(merged).toEqual({ messages: [msg('50'), msg('51'), msg('52')], hasMore: false });
  });
});
