import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import { HostNotAllowedError } from '../errors/index.js';
import { isLoopbackHost } from '../options/index.js';

/** Options of {@link hostGuard}. */
export interface HostGuardOptions {
  /** The address the server listens on. */
  listenHost: string;
  /** More host names to answer (without port), e.g. the name a reverse proxy forwards. */
  allowedHosts?: readonly string[] | undefined;
}

/**
 * Answers a request only when its `Host` names this server: a loopback name
 * (`localhost`, 127.0.0.0/8, `[::1]`), the address the connection arrived
 * at, or one of `allowedHosts`. Against DNS rebinding: a page at
 * `http://rebind.example:7420` whose name an attacker pointed at 127.0.0.1
 * is same-origin with a loopback server, so the browser lets it read every
 * answer; its requests carry `Host: rebind.example:7420` and are refused
 * (403 `WEFT_HOST_NOT_ALLOWED`). Checked whenever the server listens on a
 * loopback address (with or without tokens), and beyond loopback when
 * `allowedHosts` is given; a request without `Host` (HTTP/1.0, never a
 * browser) passes.
 */
export function hostGuard({ listenHost, allowedHosts }: HostGuardOptions): onRequestHookHandler {
  const allowed = new Set((allowedHosts ?? []).map((name) => name.trim().toLowerCase()));
  const active = isLoopbackHost(listenHost) || allowedHosts !== undefined;
  return (request, _reply, done) => {
    const host = request.headers.host;
    if (!active || host === undefined || isAllowed(request, host, allowed)) done();
    else done(new HostNotAllowedError(host));
  };
}

function isAllowed(request: FastifyRequest, host: string, allowed: ReadonlySet<string>): boolean {
  const name = hostnameOf(host);
  if (name === undefined) return false;
  if (isLoopbackHost(name) || allowed.has(name)) return true;
  const local = request.socket.localAddress?.replace(/^::ffff:(?=\d+\.)/, '');
  return local !== undefined && name === local.toLowerCase();
}

/** The name of a `Host` header, lower-case, without port or IPv6 brackets; `undefined` when it is not one. */
export function hostnameOf(host: string): string | undefined {
  try {
    return new URL(`http://${host.trim()}`).hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  } catch {
    return undefined;
  }
}
