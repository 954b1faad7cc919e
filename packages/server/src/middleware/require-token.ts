import { createHash, timingSafeEqual } from 'node:crypto';
import type { onRequestHookHandler } from 'fastify';
import { UnauthorizedError } from '../errors/unauthorized-error.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/**
 * Requires `Authorization: Bearer <token>`. Both sides are hashed first, so
 * `timingSafeEqual` compares equal-length buffers and the comparison time
 * says nothing about the token's length or prefix.
 */
export function requireToken({ token }: { token: string }): onRequestHookHandler {
  const expected = sha256(token);
  return (request, _reply, done) => {
    const header = request.headers.authorization;
    if (header === undefined) {
      done(new UnauthorizedError('Missing Authorization header; send "Authorization: Bearer <token>" with the server token.'));
      return;
    }
    const match = /^Bearer[ ]+(.+)$/i.exec(header.trim());
    if (!match?.[1] || !timingSafeEqual(sha256(match[1]), expected)) {
      done(new UnauthorizedError('Invalid bearer token; use the token the server was started with.'));
      return;
    }
    done();
  };
}
