export { ingestTraces, type TraceIngestRequest } from './ingest-traces.js';
export { registerOtlpBodyParsers } from './otlp-body.js';
export {
  CONTENT_TYPE_PROTOBUF,
  decodeRpcStatus,
  decodeTraceRequest,
  decodeTraceResponse,
  encodeRpcStatus,
  encodeTraceResponse,
  type TraceExportResult,
  traceResponseJson,
} from './otlp-codec.js';
export { isProtobufRequest, otlpErrorHandler } from './otlp-error-handler.js';
export { type OtlpResourceSpans, spansOfOtlp } from './otlp-spans.js';
export {
  headerProject,
  PROJECT_ATTRIBUTE,
  PROJECT_HEADER,
  projectOfResource,
  type TraceProject,
} from './trace-project.js';
