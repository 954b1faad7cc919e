import { callBatch, callQuery, routes } from '@weft/protocol';
import type { FastifyInstance } from 'fastify';
import { routePattern } from '../app/route-pattern.js';
import { NotFoundError } from '../errors/not-found-error.js';
import { validate } from '../middleware/validate.js';
import type { Storage } from '../storage/storage.js';
import { callParams } from './params.js';

const parseBatch = validate(callBatch, 'body');
const parseQuery = validate(callQuery, 'body');
const parseCallParams = validate(callParams, 'params');

/** Call ingest (idempotent upsert), paged queries and point reads. */
export function registerCallRoutes(app: FastifyInstance, { storage }: { storage: Storage }): void {
  app.post(routes.callBatch(), async (request) => {
    const batch = parseBatch(request.body);
    return storage.ingestCalls(batch.project, batch.items);
  });

  app.post(routes.callQuery(), async (request) => storage.queryCalls(parseQuery(request.body)));

  app.get(routePattern(routes.call, 'project', 'id'), async (request) => {
    const { project, id } = parseCallParams(request.params);
    const call = await storage.readCall(project, id);
    if (call === undefined) {
      throw new NotFoundError(`No call ${id} in project ${project} (or its start has not arrived yet).`);
    }
    return call;
  });
}
