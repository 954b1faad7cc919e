import type { FastifyReply, FastifyRequest } from 'fastify';
import { answerable, logError, setRetryAfter, toErrorResponse } from '../http/index.js';
import { CONTENT_TYPE_PROTOBUF, encodeRpcStatus } from './otlp-codec.js';

/** gRPC status codes for HTTP statuses, as OTLP/HTTP's `google.rpc.Status` carries them. */
function grpcCode(status: number): number {
  if (status === 401) return 16; // UNAUTHENTICATED
  if (status === 403) return 7; // PERMISSION_DENIED
  if (status === 413) return 8; // RESOURCE_EXHAUSTED
  if (status === 503) return 14; // UNAVAILABLE
  if (status >= 500) return 13; // INTERNAL
  return 3; // INVALID_ARGUMENT
}

/** True when the request body is OTLP protobuf (so its answers are protobuf too). */
export function isProtobufRequest(request: FastifyRequest): boolean {
  return (
    String(request.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim()
      .toLowerCase() === CONTENT_TYPE_PROTOBUF
  );
}

/**
 * `/v1/traces` errors as the OTLP/HTTP spec asks: a `google.rpc.Status` in
 * the request's encoding — protobuf for a protobuf request; otherwise JSON
 * `{ code, message }`, which also carries Weft's usual `error` object so
 * every route's JSON errors read alike. Statuses and logging are the shared
 * error handler's.
 */
export function otlpErrorHandler(
  raised: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const error = answerable(raised);
  const { status, body } = toErrorResponse(error);
  logError(error, request, status, body.error.code);
  setRetryAfter(error, reply);
  reply.code(status);
  if (!isProtobufRequest(request)) {
    return reply
      .type('application/json')
      .send({ code: grpcCode(status), message: body.error.message, ...body });
  }
  const rpcStatus = encodeRpcStatus({
    code: grpcCode(status),
    message: `${body.error.code}: ${body.error.message}`,
  });
  return reply.type(CONTENT_TYPE_PROTOBUF).send(Buffer.from(rpcStatus));
}
