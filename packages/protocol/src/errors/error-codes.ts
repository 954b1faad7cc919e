/**
 * Every `code` a Weft error carries, whichever package raises it; the server
 * sends its codes in error bodies (`error.code`). Stable across releases:
 * branch on them with `hasCode(error, code)`. docs/errors.md has one line
 * per code (a test holds the two lists together).
 */
export const WEFT_ERROR_CODES = [
  // The SDK: using the client.
  'WEFT_NOT_INITIALIZED',
  'WEFT_INVALID_OPTIONS',
  'WEFT_CLIENT_CLOSED',
  'WEFT_INVALID_CLIENT',
  'WEFT_PUBLISH_FAILED',
  'WEFT_INVALID_FEEDBACK',
  'WEFT_STREAM_ABANDONED',
  'WEFT_INVALID_HOOK_RESULT',
  // Datasets and files.
  'WEFT_INVALID_DATASET_ROWS',
  'WEFT_INVALID_DATASET_SOURCE',
  'WEFT_DATASET_PARSE',
  'WEFT_FILE_UNREADABLE',
  'WEFT_FILE_UPLOAD_FAILED',
  // Talking to the server.
  'WEFT_SERVER_UNREACHABLE',
  'WEFT_HTTP_ERROR',
  'WEFT_NOT_FOUND',
  'WEFT_BAD_RESPONSE',
  'WEFT_RECORD_REJECTED',
  'WEFT_RECORD_TOO_LARGE',
  'WEFT_DELIVERY_FAILED',
  'WEFT_INVALID_RECORD',
  'WEFT_CLOSED',
  // The outbox.
  'WEFT_OUTBOX_UNAVAILABLE',
  'WEFT_OUTBOX_OPEN_FAILED',
  'WEFT_OUTBOX_READ_FAILED',
  'WEFT_OUTBOX_WRITE_FAILED',
  'WEFT_OUTBOX_INVALID_RECORD',
  'WEFT_OUTBOX_LOCKED',
  'WEFT_OUTBOX_CLOSED',
  'WEFT_OUTBOX_IN_USE',
  // Evaluations.
  'WEFT_RUN_NOT_FOUND',
  'WEFT_INVALID_SCORE',
  'WEFT_SCORER_FAILED',
  'WEFT_SCORER_INPUT',
  'WEFT_RATE_LIMITED',
  'WEFT_CHECKPOINT_OPEN_FAILED',
  'WEFT_CHECKPOINT_WRITE_FAILED',
  'WEFT_EVALUATION_RUN_INTERRUPTED',
  // OpenTelemetry.
  'WEFT_OTEL_FLUSH_INCOMPLETE',
  'WEFT_OTEL_NO_CLIENT',
  // The protocol.
  'WEFT_INVALID_REF',
  'WEFT_NOT_CANONICAL',
  // The server: its answers (with WEFT_NOT_FOUND, WEFT_INVALID_REF and
  // WEFT_NOT_CANONICAL above) and its own failures.
  'WEFT_INVALID_REQUEST',
  'WEFT_DIGEST_MISMATCH',
  'WEFT_UNAUTHORIZED',
  'WEFT_FORBIDDEN',
  'WEFT_ADMIN_REQUIRED',
  'WEFT_HOST_NOT_ALLOWED',
  'WEFT_CROSS_SITE_REQUEST',
  'WEFT_TOKEN_REQUIRED',
  'WEFT_METHOD_NOT_ALLOWED',
  'WEFT_REQUEST_TIMEOUT',
  'WEFT_PAYLOAD_TOO_LARGE',
  'WEFT_TOO_MANY_VALUES',
  'WEFT_UNSUPPORTED_MEDIA_TYPE',
  'WEFT_HEADERS_TOO_LARGE',
  'WEFT_STORAGE_CLOSED',
  'WEFT_STORAGE_UNAVAILABLE',
  'WEFT_STORAGE_FAILED',
  'WEFT_STORAGE_FULL',
  'WEFT_OVERLOADED',
  'WEFT_INTERNAL',
  'WEFT_LISTEN_FAILED',
  'WEFT_PROVIDER_ERROR',
  // Replay.
  'WEFT_REPLAY_DIVERGED',
  'WEFT_REPLAY_NOT_FOUND',
  // The CLI.
  'WEFT_USAGE',
  'WEFT_REPLAY_FAILED',
  'WEFT_OUTLINE_BUDGET',
] as const;

/** A code of {@link WEFT_ERROR_CODES}. */
export type WeftErrorCode = (typeof WEFT_ERROR_CODES)[number];

const KNOWN: ReadonlySet<string> = new Set(WEFT_ERROR_CODES);

/**
 * True for a string that is one of {@link WEFT_ERROR_CODES}: for a code that
 * arrives as data (a server's error body), which a newer server may extend.
 */
export function isWeftErrorCode(value: unknown): value is WeftErrorCode {
  return typeof value === 'string' && KNOWN.has(value);
}
