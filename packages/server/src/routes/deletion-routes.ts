import { callDeleteRequest, routes } from '@weft/protocol';
import type { FastifyInstance } from 'fastify';
import { type DeletionAudit, deleteCalls } from '../lifecycle/index.js';
import { adminActor, requireAdmin, validate } from '../middleware/index.js';
import type { Storage } from '../storage/index.js';

const parseRequest = validate(callDeleteRequest, 'body');

/** Deletion on request (`DELETE /v1/calls`, admin token only): whole traces, with a dry run. */
export function registerDeletionRoutes(
  app: FastifyInstance,
  { storage, audit }: { storage: Storage; audit: DeletionAudit },
): void {
  app.delete(routes.callDelete(), { preHandler: requireAdmin('Deleting calls') }, async (request) =>
    deleteCalls(storage, audit, parseRequest(request.body), adminActor(request)),
  );
}
