import { CONTENT_TYPE_OCTET_STREAM, digestBytes, routes } from '@weft/protocol';
import type { FastifyInstance } from 'fastify';
import { digestParams, projectParams, routePattern } from '../http/index.js';
import { InvalidRequestError, NotFoundError } from '../errors/index.js';
import { validate } from '../middleware/index.js';
import type { Storage } from '../storage/index.js';

const parseProject = validate(projectParams, 'params');
const parseDigestParams = validate(digestParams, 'params');

/** Content-addressed files: raw bytes in (`application/octet-stream`), digest out, and back. */
export function registerFileRoutes(app: FastifyInstance, { storage }: { storage: Storage }): void {
  app.post(routePattern(routes.fileCreate, 'project'), async (request) => {
    const { project } = parseProject(request.params);
    if (!Buffer.isBuffer(request.body)) {
      throw new InvalidRequestError(
        [{ path: '', message: 'send the file as raw bytes with Content-Type: application/octet-stream' }],
        'body',
      );
    }
    const digest = digestBytes(request.body);
    await storage.putFile(project, digest, request.body);
    return { digest, size: request.body.byteLength };
  });

  app.get(routePattern(routes.fileRead, 'project', 'digest'), async (request, reply) => {
    const { project, digest } = parseDigestParams(request.params);
    const bytes = await storage.readFile(project, digest);
    if (bytes === undefined) throw new NotFoundError(`No file ${digest} in project ${project}.`);
    // Content-addressed: the bytes under a digest never change. `private`:
    // a file is a project's data, which a shared cache (a proxy in front of
    // a server with tokens) must not hand to someone else.
    return reply
      .type(CONTENT_TYPE_OCTET_STREAM)
      .header('cache-control', 'private, max-age=31536000, immutable')
      .header('etag', `"${digest}"`)
      .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  });
}
