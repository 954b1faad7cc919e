import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import { UnauthorizedError } from '../errors/index.js';
import { ALL_PROJECTS, type ProjectScope, TokenRegistry } from './token-registry.js';

// Scope of each authenticated request, kept beside the request rather than
// on it, so no token-derived state ends up in a serialized request.
const scopes = new WeakMap<FastifyRequest, ProjectScope>();

/**
 * What `request` may reach: the scope of the token it presented, or every
 * project when the server has no tokens (or the request skipped auth).
 */
export function requestScope(request: FastifyRequest): ProjectScope {
  return scopes.get(request) ?? ALL_PROJECTS;
}

/** True when the request presented a token the server accepted (false on a server without tokens). */
export function requestWasAuthenticated(request: FastifyRequest): boolean {
  return scopes.has(request);
}

/** Options of {@link requireToken}. */
export interface RequireTokenOptions {
  /** Admin token: every project. */
  token?: string | undefined;
  /** Per-project tokens: token → project names it may reach. */
  projectTokens?: Readonly<Record<string, readonly string[]>> | undefined;
}

/**
 * Requires `Authorization: Bearer <token>` with the admin token or one of the
 * per-project tokens, and records the token's scope for
 * {@link projectAccess}. Tokens are compared by SHA-256 hash in constant time
 * (see {@link TokenRegistry}). Messages never echo the header: a mistyped
 * token is still mostly a secret.
 */
export function requireToken(options: RequireTokenOptions): onRequestHookHandler {
  const registry = new TokenRegistry({ adminToken: options.token, projectTokens: options.projectTokens });
  return (request, _reply, done) => {
    const header = request.headers.authorization;
    if (header === undefined) {
      done(
        new UnauthorizedError(
          'Missing Authorization header; send "Authorization: Bearer <token>" with a server token.',
        ),
      );
      return;
    }
    const match = /^Bearer[ ]+(.+)$/i.exec(header.trim());
    const scope = match?.[1] ? registry.scopeOf(match[1]) : undefined;
    if (scope === undefined) {
      done(
        new UnauthorizedError(
          'Invalid bearer token; use the admin token or a project token the server was started with.',
        ),
      );
      return;
    }
    scopes.set(request, scope);
    done();
  };
}
