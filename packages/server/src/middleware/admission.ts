import { routes } from '@weft/protocol';
import type { onRequestHookHandler } from 'fastify';
import { OverloadedError } from '../errors/index.js';

/** Options of {@link admission}. */
export interface AdmissionOptions {
  /** Most requests in progress. */
  maxRequests: number;
  /** Most body bytes of the requests in progress. */
  maxBodyBytes: number;
  /** What a body of unknown length (chunked) counts: the server's body limit. */
  bodyLimitBytes: number;
}

/** Answered whatever the load, and cheap: liveness probes and version checks. */
const EXEMPT = new Set([routes.health(), routes.version()]);

/**
 * Admission control: a request starts only while fewer than `maxRequests`
 * are in progress and their declared bodies total at most `maxBodyBytes`
 * (one request is always admitted); otherwise it is answered at once, before
 * its body is parsed (Node reads and drops it), with 503 `WEFT_OVERLOADED`
 * and `Retry-After: 1`. A request stays counted until its answer is written
 * or its connection closes. `/health` and `/version` are never counted nor
 * refused, so a liveness probe answers while the server is busy: with 200
 * clients sending 1 MB batches at once, `/health` took 11 s without this.
 */
export function admission({
  maxRequests,
  maxBodyBytes,
  bodyLimitBytes,
}: AdmissionOptions): onRequestHookHandler {
  let requests = 0;
  let bytes = 0;
  return (request, reply, done) => {
    if (EXEMPT.has(request.url)) {
      done();
      return;
    }
    const declared = Number(request.headers['content-length'] ?? Number.NaN);
    const body = Number.isFinite(declared)
      ? Math.min(declared, bodyLimitBytes)
      : request.headers['transfer-encoding'] === undefined
        ? 0
        : bodyLimitBytes;
    if (requests >= maxRequests || (requests > 0 && bytes + body > maxBodyBytes)) {
      // The connection stays open: Node reads the unread body and drops it,
      // so a client still uploading gets this answer, not a reset socket.
      done(
        new OverloadedError(
          requests >= maxRequests
            ? `${requests} requests in progress, the limit is ${maxRequests}`
            : `${bytes + body} bytes of request bodies in progress, the limit is ${maxBodyBytes}`,
        ),
      );
      return;
    }
    requests++;
    bytes += body;
    reply.raw.once('close', () => {
      requests--;
      bytes -= body;
    });
    done();
  };
}
