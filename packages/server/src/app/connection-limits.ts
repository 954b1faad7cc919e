import type { FastifyServerOptions } from 'fastify';
import type { ServerOptionsParsed } from '../options/index.js';

/**
 * Fastify's socket options for the server's timeouts. Fastify's defaults
 * are no request timeout and no idle timeout: 2,000 clients sending a byte
 * every 10 s were held for minutes, and 30 clients that never read a 63 MiB
 * answer pinned 1.9 GB.
 *
 * - `headersTimeoutMs` / `requestTimeoutMs`: Node answers 408 and closes a
 *   connection whose headers, or whole request, take longer. Node checks
 *   every `connectionsCheckingInterval` (30 s by default, which would let a
 *   slow client run 30 s past its limit): here a quarter of the shorter
 *   limit, at most 1 s.
 * - `idleTimeoutMs` (the socket timeout): a connection with nothing read or
 *   written for that long is destroyed, which also ends an answer the client
 *   stopped reading and frees its buffer.
 * - `keepAliveTimeoutMs`: an idle keep-alive connection waits this long for
 *   the next request.
 */
export function connectionLimits(
  options: Pick<
    ServerOptionsParsed,
    'headersTimeoutMs' | 'requestTimeoutMs' | 'idleTimeoutMs' | 'keepAliveTimeoutMs'
  >,
): Pick<FastifyServerOptions, 'requestTimeout' | 'connectionTimeout' | 'keepAliveTimeout'> & {
  http: { headersTimeout: number; connectionsCheckingInterval: number };
} {
  const headersTimeout = Math.min(options.headersTimeoutMs, options.requestTimeoutMs);
  return {
    requestTimeout: options.requestTimeoutMs,
    connectionTimeout: options.idleTimeoutMs,
    keepAliveTimeout: options.keepAliveTimeoutMs,
    http: {
      headersTimeout,
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(headersTimeout / 4))),
    },
  };
}
