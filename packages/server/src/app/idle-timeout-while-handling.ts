import type { FastifyInstance } from 'fastify';

/**
 * Pauses the socket's idle timeout while the server itself works on a
 * request, and arms it again when the answer starts. The idle timeout
 * (`idleTimeoutMs`) is there to cut clients that stop sending or stop
 * reading; a request the server is still handling (a batch waiting for a
 * busy database, a long query) is neither, and Node counts that wait as
 * idleness too — a loaded server cut its own slow ingests with "other side
 * closed". The request's own receipt stays bounded by `requestTimeoutMs`.
 */
export function idleTimeoutWhileHandling(app: FastifyInstance, idleTimeoutMs: number): void {
  // preHandler: the body has been read (its receipt is bounded by requestTimeoutMs).
  app.addHook('preHandler', (request, _reply, done) => {
    setIdleTimeout(request.raw.socket, 0);
    done();
  });
  app.addHook('onSend', (request, _reply, payload, done) => {
    setIdleTimeout(request.raw.socket, idleTimeoutMs);
    done(null, payload);
  });
}

/** `app.inject()` requests have a stand-in socket without timers: nothing to pause there. */
function setIdleTimeout(socket: { setTimeout?: unknown } | null | undefined, ms: number): void {
  if (typeof socket?.setTimeout === 'function')
    (socket as { setTimeout(ms: number): unknown }).setTimeout(ms);
}
