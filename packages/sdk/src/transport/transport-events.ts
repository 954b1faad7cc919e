import { channel } from 'node:diagnostics_channel';
import { debuglog } from 'node:util';
import type { CircuitState } from './circuit-breaker.js';

/**
 * What the transport publishes on the `weft:transport` diagnostics channel.
 * Subscribing costs nothing when nobody listens (`hasSubscribers` is checked
 * first), and gives tools a structured feed instead of parsing warnings.
 */
export type TransportEvent =
  | { type: 'retry'; project: string; attempt: number; delayMs: number; records: number; reason: string }
  | { type: 'circuit'; project: string; state: CircuitState; previous: CircuitState }
  | { type: 'spill'; project: string; records: number; reason: string }
  | { type: 'failed'; project: string; records: number; code: string };

/** `diagnostics_channel.subscribe(TRANSPORT_CHANNEL, (event) => …)` receives every {@link TransportEvent}. */
export const TRANSPORT_CHANNEL = 'weft:transport';

const transportChannel = channel(TRANSPORT_CHANNEL);
const debug = debuglog('weft');

/** Publishes `event` to subscribers and, with `NODE_DEBUG=weft`, logs it. */
export function publishTransportEvent(event: TransportEvent): void {
  if (transportChannel.hasSubscribers) transportChannel.publish(event);
  if (debug.enabled) debug('transport %s %j', event.type, event);
}
