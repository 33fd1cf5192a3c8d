/**
 * Query keys of customer service. Everything of a user's chat sits under ['support', userId]: the state
 * (shared/session/support.ts) and the messages.
 */
export { supportStateKey } from '../../../shared/session';

/** The support screens' query keys. */
export const supportKeys = {
  user: (userId: string) => ['support', userId] as const,
  messages: (userId: string) => ['support', userId, 'messages'] as const,
};
