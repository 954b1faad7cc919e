import type { onRequestHookHandler } from 'fastify';
import { CrossSiteRequestError } from '../errors/index.js';
import { hostnameOf } from './host-guard.js';

/** Methods that only read: a browser may send them from any page (it will not let that page read the answer). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses a request that changes data (any method but GET, HEAD, OPTIONS)
 * when a browser says it comes from a page of another site: `Sec-Fetch-Site`
 * other than `same-origin` or `none`, or an `Origin` whose host is neither
 * the request's `Host` nor one of `allowedHosts` (`Origin: null`, sent by
 * sandboxed frames and files, included). 403 `WEFT_CROSS_SITE_REQUEST`.
 * Programs (the SDK, curl, OTLP exporters) send neither header and pass;
 * so does the server's own web UI. With the host check it closes DNS
 * rebinding; alone it stops a page elsewhere from writing through the
 * user's browser (a form post, a `no-cors` fetch).
 */
export function crossSiteGuard({
  allowedHosts,
}: {
  allowedHosts?: readonly string[] | undefined;
} = {}): onRequestHookHandler {
  const allowed = new Set((allowedHosts ?? []).map((name) => name.trim().toLowerCase()));
  return (request, _reply, done) => {
    if (SAFE_METHODS.has(request.method)) {
      done();
      return;
    }
    const site = request.headers['sec-fetch-site'];
    const origin = request.headers.origin;
    if (site !== undefined && site !== 'same-origin' && site !== 'none') {
      done(
        new CrossSiteRequestError(
          `Sec-Fetch-Site: ${site}${origin === undefined ? '' : `, Origin: ${origin}`}`,
        ),
      );
      return;
    }
    if (origin !== undefined && !isOwnOrigin(origin, request.headers.host, allowed)) {
      done(new CrossSiteRequestError(`Origin: ${origin}`));
      return;
    }
    done();
  };
}

function isOwnOrigin(origin: string, host: string | undefined, allowed: ReadonlySet<string>): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (allowed.has(url.hostname.toLowerCase())) return true;
  if (host === undefined) return false;
  // The same host and port, the port spelled or implied by the origin's scheme.
  try {
    return new URL(`${url.protocol}//${host.trim()}`).host === url.host && hostnameOf(host) !== undefined;
  } catch {
    return false;
  }
}
