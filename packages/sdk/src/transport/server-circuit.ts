import { routes } from '@weft/protocol';
import type { ApiClient, SendResult } from './api-client.js';
import type { BackoffOptions } from './backoff.js';
import { CircuitBreaker, type ServerHealth } from './circuit-breaker.js';
import { serverSignal } from './delivery-rules.js';
import { systemTimers, type Timers } from './timers.js';

/** Options of {@link serverCircuit}. */
export interface ServerCircuitOptions {
  /** Consecutive failed requests that open the circuit. */
  failureThreshold: number;
  /** Spacing of probes while open (grows per failed probe). */
  backoff: BackoffOptions;
  /** @internal For tests: timers driven by hand. */
  timers?: Timers | undefined;
  /** @internal For tests: jitter source. */
  random?: (() => number) | undefined;
}

/**
 * The circuit breaker of one server: it probes `GET /health` through `api`
 * while open. A client makes one and shares it with the batcher, the uploads
 * beside it and the outbox replay, so all of them agree on whether the
 * server is up.
 */
export function serverCircuit(api: Pick<ApiClient, 'get'>, options: ServerCircuitOptions): CircuitBreaker {
  return new CircuitBreaker({
    failureThreshold: options.failureThreshold,
    backoff: options.backoff,
    timers: options.timers ?? systemTimers,
    random: options.random ?? Math.random,
    probe: async () => (await api.get(routes.health())).status !== 'retryable',
  });
}

/**
 * Tells the circuit what `result` says about the server ({@link serverSignal}):
 * a success for an answer it meant, a failure for an outage, nothing for an
 * overloaded server asking to slow down (it is up, but took nothing). Every
 * sender that shares the circuit records its answers through this.
 */
export function recordAnswer(
  health: Pick<ServerHealth, 'recordSuccess' | 'recordFailure'>,
  result: SendResult,
): void {
  switch (serverSignal(result)) {
    case 'up':
      health.recordSuccess();
      break;
    case 'failing':
      health.recordFailure();
      break;
    case 'overloaded':
      break;
  }
}
