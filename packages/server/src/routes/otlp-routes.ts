import { routes } from '@weft/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UnsupportedMediaTypeError } from '../errors/index.js';
import { requestScope } from '../middleware/index.js';
import {
  CONTENT_TYPE_PROTOBUF,
  encodeTraceResponse,
  headerProject,
  ingestTraces,
  isProtobufRequest,
  type OtlpResourceSpans,
  PROJECT_HEADER,
  traceResponseJson,
} from '../otlp/index.js';
import type { Storage } from '../storage/index.js';

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
        resourceSpans: parsedSpans(request),
        project: headerProject(request.headers[PROJECT_HEADER]),
        scope: requestScope(request),
      },
    );
    if (!isProtobufRequest(request)) return reply.type('application/json').send(traceResponseJson(result));
    return reply.type(CONTENT_TYPE_PROTOBUF).send(Buffer.from(encodeTraceResponse(result)));
  });
}

/**
 * The body parsers' spans. Fastify runs no parser for an empty body: that is
 * an empty export for protobuf (a message with no fields), and a 415 when
 * no content type says what the body is.
 */
function parsedSpans(request: FastifyRequest): OtlpResourceSpans[] {
  if (Array.isArray(request.body)) return request.body as OtlpResourceSpans[];
  if (request.body === undefined && isProtobufRequest(request)) return [];
  throw new UnsupportedMediaTypeError(
    'Send an OTLP ExportTraceServiceRequest with Content-Type application/x-protobuf or application/json.',
  );
}
