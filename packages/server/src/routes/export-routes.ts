import { Readable } from 'node:stream';
import { callExportParams, routes } from '@weft/protocol';
import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../errors/index.js';
import { EXPORT_CONTENT_TYPE, EXPORT_EXTENSION, exportCalls } from '../lifecycle/index.js';
import { validate } from '../middleware/index.js';
import type { Storage } from '../storage/index.js';

const parseParams = validate(callExportParams, 'query');

/**
 * `GET /v1/calls/export`: the calls of any calls query as JSON Lines or
 * Parquet, streamed (pulled a page at a time as the client reads).
 */
export function registerExportRoutes(app: FastifyInstance, { storage }: { storage: Storage }): void {
  app.get(routes.callExport(), async (request, reply) => {
    const { project, format, values, query } = parseParams(request.query);
    const known = (await storage.listProjects()).some((p) => p.name === project);
    if (!known) throw new NotFoundError(`No project "${project}" on this server; nothing to export.`);
    reply
      .header('content-type', EXPORT_CONTENT_TYPE[format])
      .header('content-disposition', `attachment; filename="${project}-calls.${EXPORT_EXTENSION[format]}"`);
    return reply.send(Readable.from(exportCalls(storage, { project, query, values }, format)));
  });
}
