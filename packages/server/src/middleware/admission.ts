import { routes } from '@weft/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { OverloadedError } from '../errors/index.js';
import type { HandlerLifetime } from '../http/index.js';
import { DrainRate } from './drain-rate.js';

/** Options of {@link admission}. */
export interface AdmissionOptions {
  /** Most requests in progress. */
  maxRequests: number;
  /** Most body bytes of the requests in progress. */
  maxBodyBytes: number;
  /** What a body of unknown length (chunked) counts: the server's body limit. */
  bodyLimitBytes: number;
  /** When each request's handler runs: its slot is held until it has finished. */
  handling: HandlerLifetime;
}

/** Answered whatever the load, and cheap: liveness probes and version checks. */
const EXEMPT = new Set([routes.health(), routes.version()]);
/** Ingest: the requests that outrun storage under load, counted apart so reads keep a share of their own. */
const INGEST = new Set([routes.callBatch(), routes.otlpTraces()]);

/** The two kinds of request, each with its own `maxRequests`. */
type RequestKind = 'ingest' | 'other';

/** An admitted request's share of the limits, given back once. */
interface Admitted {
  kind: RequestKind;
  body: number;
  /** The route's handler is running (its storage work may be). */
  handling: boolean;
  /** The connection closed or the answer was written. */
  closed: boolean;
  released: boolean;
}

/**
 * Admission control: a request starts only while fewer than `maxRequests`
 * of its kind are in progress — ingest (call batches, OTLP traces) and the
 * rest (reads) each have that many, so a flood of ingest never refuses a
 * read — and the declared bodies of all total at most `maxBodyBytes` (one
 * request is always admitted); otherwise it is answered at once, before
 * its body is parsed (Node reads and drops it), with 503 `WEFT_OVERLOADED`
 * and a `Retry-After` from the measured drain rate ({@link DrainRate}).
 *
 * A request stays counted until its answer is written or its connection
 * closes, and in either case until its handler has finished: a client that
 * gives up on a slow batch (its timeout) and sends it again must not get a
 * second storage write going beside the first, or the storage's queue would
 * grow with every timeout. `/health` and `/version` are never counted nor
 * refused, so a liveness probe answers while the server is busy: with 200
 * clients sending 1 MB batches at once, `/health` took 11 s without this.
 */
export function admission(
  app: FastifyInstance,
  { maxRequests, maxBodyBytes, bodyLimitBytes, handling }: AdmissionOptions,
): void {
  const requests: Record<RequestKind, number> = { ingest: 0, other: 0 };
  const drain: Record<RequestKind, DrainRate> = { ingest: new DrainRate(), other: new DrainRate() };
  let bytes = 0;
  const admitted = new WeakMap<FastifyRequest, Admitted>();
  const release = (entry: Admitted) => {
    if (entry.released || !entry.closed || entry.handling) return;
    entry.released = true;
    requests[entry.kind]--;
    bytes -= entry.body;
    drain[entry.kind].completed();
  };

  app.addHook('onRequest', (request, reply, done) => {
    const path = request.url.split('?', 1)[0] as string;
    if (EXEMPT.has(path)) {
      done();
      return;
    }
    const kind: RequestKind = request.method === 'POST' && INGEST.has(path) ? 'ingest' : 'other';
    const inProgress = requests.ingest + requests.other;
    const declared = Number(request.headers['content-length'] ?? Number.NaN);
    const body = Number.isFinite(declared)
      ? Math.min(declared, bodyLimitBytes)
      : request.headers['transfer-encoding'] === undefined
        ? 0
        : bodyLimitBytes;
    const full = requests[kind] >= maxRequests;
    if (full || (inProgress > 0 && bytes + body > maxBodyBytes)) {
      drain[kind].refused();
      // The connection stays open: Node reads the unread body and drops it,
      // so a client still uploading gets this answer, not a reset socket.
      done(
        new OverloadedError(
          full
            ? `${requests[kind]} ${kind === 'ingest' ? 'ingest ' : ''}requests in progress, the limit is ${maxRequests}`
            : `${bytes + body} bytes of request bodies in progress, the limit is ${maxBodyBytes}`,
          { retryAfterMs: drain[kind].retryAfterSeconds(requests[kind]) * 1_000 },
        ),
      );
      return;
    }
    requests[kind]++;
    bytes += body;
    const entry: Admitted = { kind, body, handling: false, closed: false, released: false };
    admitted.set(request, entry);
    reply.raw.once('close', () => {
      entry.closed = true;
      release(entry);
    });
    done();
  });
  handling.listen({
    started(request) {
      const entry = admitted.get(request);
      if (entry !== undefined) entry.handling = true;
    },
    ended(request) {
      const entry = admitted.get(request);
      if (entry === undefined) return;
      entry.handling = false;
      release(entry);
    },
  });
}
