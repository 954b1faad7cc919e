import protobuf from 'protobufjs';
import { InvalidRequestError } from '../errors/index.js';
import { OTLP_DESCRIPTOR } from './otlp-descriptor.js';

const root = protobuf.Root.fromJSON(OTLP_DESCRIPTOR).resolveAll();
/** The request message type (resolved: each message field knows its type). */
export const ExportTraceRequest = root.lookupType(
  'opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest',
);
const ExportResponse = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse');
const RpcStatus = root.lookupType('google.rpc.Status');

/** OTLP/HTTP's binary media type. */
export const CONTENT_TYPE_PROTOBUF = 'application/x-protobuf';

/**
 * Decodes an `ExportTraceServiceRequest` with the official definitions
 * (protobufjs over the vendored .proto files). The result keeps protobufjs'
 * shapes: ids and `bytesValue` as `Uint8Array`, 64-bit integers as `Long`;
 * `spansOfOtlp` reads those as well as OTLP JSON's. Bytes that are not a
 * request are the client's fault: 400 naming why.
 */
export function decodeTraceRequest(bytes: Uint8Array): unknown {
  try {
    return ExportTraceRequest.decode(bytes);
  } catch (error) {
    // The decoder recurses per nested message and stops at protobufjs'
    // `recursionLimit` ("max depth exceeded"); each array or kvlist level of
    // an attribute value is three messages deep.
    const message = (error as Error).message;
    const reason =
      error instanceof RangeError || message === 'max depth exceeded'
        ? 'nested too deeply to decode; flatten deeply nested attribute values'
        : message;
    throw new InvalidRequestError(
      [{ path: '', message: `not an OTLP ExportTraceServiceRequest (${reason})` }],
      'body',
    );
  }
}

/** OTLP's answer to an export: `partialSuccess` only when some spans were rejected. */
export interface TraceExportResult {
  rejectedSpans: number;
  errorMessage: string;
}

/** The `ExportTraceServiceResponse` for `result`, as protobuf bytes. */
export function encodeTraceResponse(result: TraceExportResult): Uint8Array {
  const body = result.rejectedSpans === 0 && result.errorMessage === '' ? {} : { partialSuccess: result };
  return ExportResponse.encode(ExportResponse.fromObject(body)).finish();
}

/** The same answer in OTLP JSON (int64 as a decimal string, as proto3 JSON spells it). */
export function traceResponseJson(result: TraceExportResult): Record<string, unknown> {
  if (result.rejectedSpans === 0 && result.errorMessage === '') return {};
  return {
    partialSuccess: { rejectedSpans: String(result.rejectedSpans), errorMessage: result.errorMessage },
  };
}

/** A `google.rpc.Status` (OTLP/HTTP's error body) as protobuf bytes. */
export function encodeRpcStatus(status: { code: number; message: string }): Uint8Array {
  return RpcStatus.encode(RpcStatus.fromObject(status)).finish();
}

/** Reads a `google.rpc.Status` back (for tests and clients of this server). */
export function decodeRpcStatus(bytes: Uint8Array): { code: number; message: string } {
  const status = RpcStatus.toObject(RpcStatus.decode(bytes), { defaults: true });
  return { code: Number(status.code), message: String(status.message) };
}

/** Reads an `ExportTraceServiceResponse` back (for tests and clients of this server). */
export function decodeTraceResponse(bytes: Uint8Array): {
  partialSuccess?: { rejectedSpans: string; errorMessage: string };
} {
  return ExportResponse.toObject(ExportResponse.decode(bytes), { longs: String });
}
