import type { FastifyRequest, preHandlerHookHandler } from 'fastify';
import { AdminRequiredError } from './admin-required-error.js';
import { requestScope, requestWasAuthenticated } from './require-token.js';

/**
 * A route's `preHandler` that refuses a project-scoped token with 403
 * `WEFT_ADMIN_REQUIRED` naming `action`: for what changes or removes data
 * of a project beyond adding to it. A server without tokens (loopback only)
 * lets every request through.
 */
export function requireAdmin(action: string): preHandlerHookHandler {
  return (request, _reply, done) => {
    done(requestScope(request).kind === 'all' ? undefined : new AdminRequiredError(action));
  };
}

/** Who made an admin request, for the deletion log: the admin token, or a server without tokens. */
export function adminActor(request: FastifyRequest): string {
  return requestWasAuthenticated(request) ? 'admin token' : 'no token (loopback server)';
}
