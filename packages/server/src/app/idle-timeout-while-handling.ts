import type { HandlerLifetime } from '../http/index.js';

/**
 * Pauses the socket's idle timeout while the server itself works on a
 * request ({@link HandlerLifetime}), and arms it again when the answer
 * starts. The idle timeout (`idleTimeoutMs`) is there to cut clients that
 * stop sending or stop reading; a request the server is still handling (a
 * batch waiting for a busy database, a long query) is neither, and Node
 * counts that wait as idleness too — a loaded server cut its own slow
 * ingests with "other side closed". The request's own receipt stays bounded
 * by `requestTimeoutMs`.
 */
export function idleTimeoutWhileHandling(handling: HandlerLifetime, idleTimeoutMs: number): void {
  handling.listen({
    started: (request) => setIdleTimeout(request.raw.socket, 0),
    ended: (request) => setIdleTimeout(request.raw.socket, idleTimeoutMs),
  });
}

/** `app.inject()` requests have a stand-in socket without timers: nothing to pause there. */
function setIdleTimeout(socket: { setTimeout?: unknown } | null | undefined, ms: number): void {
  if (typeof socket?.setTimeout === 'function')
    (socket as { setTimeout(ms: number): unknown }).setTimeout(ms);
}
