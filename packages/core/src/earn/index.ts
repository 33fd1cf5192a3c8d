/**
 * Fixed-term savings (`@exchange/core/earn`): the machine the host gives the engine (earnMachine), its commands,
 * events, reads and rules (types.ts).
 */
export * from './types';
export { EARN_COMMANDS, EARN_REJECT_CODES, earnMachine, earnTermsValid, EarnState, type EarnRejectCode, type EarnSnapshot } from './earn-engine';
