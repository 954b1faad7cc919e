import type { onRequestHookHandler } from 'fastify';
import { PayloadTooLargeError } from '../errors/index.js';

/**
 * Rejects a request whose declared `Content-Length` exceeds `maxBytes` with
 * 413 before a byte of its body is read. Bodies without a length (chunked)
 * are cut off at the same size by Fastify's own `bodyLimit`, which the app
 * sets to the same number.
 */
export function bodyLimit({ maxBytes }: { maxBytes: number }): onRequestHookHandler {
  return (request, _reply, done) => {
    const declared = request.headers['content-length'];
    const bytes = declared === undefined ? Number.NaN : Number(declared);
    done(bytes > maxBytes ? new PayloadTooLargeError(maxBytes, bytes) : undefined);
  };
}
