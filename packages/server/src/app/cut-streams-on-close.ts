import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

/**
 * Bounds how long closing the server waits for streamed answers (an
 * export pulled a page at a time as the client reads). Closing waits for
 * every answer in progress, and a streamed one to a client that stopped
 * reading never ends on its own: close() hung until the idle timeout cut
 * the client, or for good with a long one. Answers still streaming
 * `closeTimeoutMs` after close began are destroyed (their source stops
 * with them); answers that end sooner are left to end.
 */
export function cutStreamsOnClose(app: FastifyInstance, closeTimeoutMs: number): void {
  const streaming = new Set<ServerResponse>();
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (isStream(payload)) {
      const response = reply.raw;
      streaming.add(response);
      response.once('close', () => streaming.delete(response));
    }
    done(null, payload);
  });
  app.addHook('preClose', (done) => {
    if (streaming.size > 0) {
      // unref: a close that ends sooner leaves nothing holding the process.
      setTimeout(() => {
        for (const response of streaming) response.destroy();
      }, closeTimeoutMs).unref();
    }
    done();
  });
}

function isStream(payload: unknown): boolean {
  return typeof (payload as { pipe?: unknown } | null)?.pipe === 'function';
}
