import { routes } from '@weft/protocol';
import type { FastifyInstance } from 'fastify';
import { requestScope } from '../middleware/require-token.js';
import { CONTENT_TYPE_PROTOBUF, encodeTraceResponse, traceResponseJson } from '../otlp/otlp-codec.js';
import { isProtobufRequest } from '../otlp/otlp-error-handler.js';
import type { OtlpResourceSpans } from '../otlp/otlp-spans.js';
import { ingestTraces } from '../otlp/ingest-traces.js';
import { headerProject, PROJECT_HEADER } from '../otlp/trace-project.js';
import type { Storage } from '../storage/storage.js';

/**
 * OTLP/HTTP trace ingest: the body parsers (see `registerOtlpBodyParsers`)
 * turn protobuf or JSON into neutral spans; each span becomes a call; the
 * answer is an `ExportTraceServiceResponse` in the request's encoding.
 * The route checks the project of each resource against the token itself
 * (one request may carry several projects), so `projectAccess` skips it.
 */
export function registerOtlpRoutes(app: FastifyInstance, { storage }: { storage: Storage }): void {
  app.post(routes.otlpTraces(), async (request, reply) => {
    const result = await ingestTraces(
      { storage },
      {
        resourceSpans: request.body as OtlpResourceSpans[],
        project: headerProject(request.headers[PROJECT_HEADER]),
        scope: requestScope(request),
      },
    );
    if (!isProtobufRequest(request)) return reply.type('application/json').send(traceResponseJson(result));
    return reply.type(CONTENT_TYPE_PROTOBUF).send(Buffer.from(encodeTraceResponse(result)));
  });
}
