import { routes } from '@weft/protocol';
import type { preHandlerHookHandler } from 'fastify';
import { projectParams } from '../http/index.js';
import { ForbiddenError } from './forbidden-error.js';
import { requestScope } from './require-token.js';
import { validate } from './validate.js';

/** Where a /v1 route names its project; `route`: the route checks its projects itself. */
export type ProjectLocation = 'params' | 'body' | 'query' | 'none' | 'route';

/**
 * The one rule every /v1 route follows: reads and files carry the project as
 * the `:project` path parameter; every other route is a POST (or the
 * deletion's DELETE) whose body has a `project` field (callBatch, callQuery,
 * objectCreate, tableCreate, tableAppend, callDelete); an export, a GET,
 * names it in its query string. A route with none names no project, and
 * project-scoped tokens are refused there (fail closed).
 */
export function projectLocation(method: string, pattern: string): ProjectLocation {
  // OTLP ingest: one request may carry several resources, each naming its project.
  if (pattern === routes.otlpTraces()) return 'route';
  // An export is a GET whose calls query travels in the query string.
  if (pattern === routes.callExport()) return 'query';
  if (/\/:project(\/|$)/.test(pattern)) return 'params';
  // A deletion names its project in its body, like a POST.
  if (['POST', 'DELETE'].includes(method.toUpperCase())) return 'body';
  return 'none';
}

// The same project-name rule the routes apply, read from body or path.
const parseBodyProject = validate(projectParams, 'body');
const parseParamsProject = validate(projectParams, 'params');
const parseQueryProject = validate(projectParams, 'query');

/**
 * Refuses a request whose token is scoped to other projects with 403
 * `WEFT_FORBIDDEN`, naming the project. Runs as a `preHandler` hook, after
 * the body is parsed: the project field is first validated with the
 * protocol's schema (a bad one is the same 400 the route would give), then
 * checked against the token's scope, before the handler touches storage.
 * Admin tokens and servers without tokens pass straight through.
 */
export function projectAccess(): preHandlerHookHandler {
  const locations = new Map<string, ProjectLocation>();
  return (request, _reply, done) => {
    const scope = requestScope(request);
    if (scope.kind === 'all') {
      done();
      return;
    }
    const pattern = request.routeOptions.url;
    // No route matched: the 404 handler answers, nothing to protect.
    if (pattern === undefined) {
      done();
      return;
    }
    const key = `${request.method} ${pattern}`;
    let location = locations.get(key);
    if (location === undefined) {
      location = projectLocation(request.method, pattern);
      locations.set(key, location);
    }
    if (location === 'route') {
      done();
      return;
    }
    try {
      const project =
        location === 'params'
          ? parseParamsProject(request.params).project
          : location === 'body'
            ? parseBodyProject(request.body).project
            : location === 'query'
              ? parseQueryProject(request.query).project
              : undefined;
      done(project !== undefined && scope.projects.has(project) ? undefined : new ForbiddenError(project));
    } catch (error) {
      done(error as Error);
    }
  };
}
