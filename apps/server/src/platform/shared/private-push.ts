/**
 * Private WebSocket pushes as a domain declares them (`DomainModule.pushes`, platform/domain-module.ts): the app's
 * WebSocket hub (gateways/ws/ws.hub.ts) sends them to the sockets a user has authenticated, and names no domain. Three
 * kinds, each optional:
 * - `event`: the message one engine event means for its user (a spot order's new state, a balance, a position),
 *   called for every event of every batch, in order;
 * - `afterProjection`: messages sent once a batch's events are written to the database (the inbox: the new messages
 *   are readable then);
 * - `source`: messages a domain service makes on its own (an OTC order's chat, a support reply), subscribed once.
 */
import type { EngineApi, EngineEvent } from '@exchange/core';

/** One user's private message (a packages/api WsServerMessage). */
export interface PrivatePush {
  userId: string;
  message: object;
}

/** Says whether a user has an authenticated socket (nothing need be computed for one without). */
export type WantsPush = (userId: string) => boolean;

/** Subscribes a listener to a service's pushes; returns the unsubscribe. */
export type PushSource = (listener: (p: PrivatePush) => void) => () => void;

/** A domain's private pushes (see the file comment); `Ctx` is what `source` reads the domain's service from. */
export interface DomainPushes<Ctx = object> {
  event?: (engine: EngineApi, e: EngineEvent, wanted: WantsPush) => PrivatePush | undefined;
  afterProjection?: (events: readonly EngineEvent[], wanted: WantsPush) => PrivatePush[];
  /** A method, so that a module typed over its own context still fits the list of every module (bivariant). */
  source?(ctx: Ctx): PushSource | undefined;
}
