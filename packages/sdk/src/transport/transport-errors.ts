import { WeftError } from '@weft/protocol';

/** A transport option is invalid; the message names the option and the value. */
export class InvalidTransportOptionsError extends WeftError {
  constructor(message: string) {
    super({ code: 'WEFT_INVALID_OPTIONS', message });
  }
}

/** No HTTP answer at all: connection refused or reset, DNS failure, timeout. */
export class ServerUnreachableError extends WeftError {
  /** The server address that could not be reached. */
  readonly url: string;
  readonly isRetryable = true;

  constructor(url: string, cause: unknown) {
    const why = describeCause(cause);
    super({
      code: 'WEFT_SERVER_UNREACHABLE',
      message: `Weft server unreachable at ${url} (${why}). Start it with \`weft serve\`, or point WEFT_URL (or init({ url })) at a running server.`,
      cause,
    });
    this.url = url;
  }
}

/** Facts about a non-2xx HTTP answer. */
export interface HttpErrorDetails {
  method: string;
  url: string;
  statusCode: number;
  /** The `error.code` of the server's error body, when it sent one. */
  serverCode?: string | undefined;
  /** The `error.message` of the server's error body, when it sent one. */
  serverMessage?: string | undefined;
  /** The `error.path` of the server's error body: the offending field. */
  path?: string | undefined;
  /** For batches: the index of the rejected item, from the server's error body. */
  index?: number | undefined;
  /** From `Retry-After`, when the server sent one. */
  retryAfterMs?: number | undefined;
}

/** The server answered with a status other than 2xx. */
export class HttpError extends WeftError {
  readonly statusCode: number;
  readonly serverCode: string | undefined;
  readonly serverMessage: string | undefined;
  readonly path: string | undefined;
  readonly index: number | undefined;
  readonly retryAfterMs: number | undefined;
  /** True for 408, 429 and 5xx: the same request may succeed later. */
  readonly isRetryable: boolean;

  constructor(details: HttpErrorDetails, code: 'WEFT_HTTP_ERROR' | 'WEFT_NOT_FOUND' = 'WEFT_HTTP_ERROR') {
    const what = details.serverMessage ? `: ${details.serverMessage}` : '';
    const where = details.path ? ` (at ${details.path})` : '';
    super({
      code,
      message: `${details.method} ${details.url} answered ${details.statusCode}${what}${where}`,
    });
    this.statusCode = details.statusCode;
    this.serverCode = details.serverCode;
    this.serverMessage = details.serverMessage;
    this.path = details.path;
    this.index = details.index;
    this.retryAfterMs = details.retryAfterMs;
    this.isRetryable = isRetryableStatus(details.statusCode);
  }
}

/** The server answered 404: the call, object or route does not exist. */
export class NotFoundError extends HttpError {
  constructor(details: HttpErrorDetails) {
    super(details, 'WEFT_NOT_FOUND');
  }
}

/** The server answered 2xx with a body that does not parse or does not match the expected schema. */
export class BadResponseError extends WeftError {
  constructor(method: string, url: string, reason: string, cause?: unknown) {
    super({
      code: 'WEFT_BAD_RESPONSE',
      message: `${method} ${url} returned a response Weft cannot read: ${reason}. Is WEFT_URL pointing at a Weft server of a compatible version?`,
      cause,
    });
  }
}

/** The server refused one record as invalid; it is reported once and not retried. */
export class RecordRejectedError extends WeftError {
  readonly callId: string;
  readonly statusCode: number;

  constructor(callId: string, cause: HttpError) {
    super({
      code: 'WEFT_RECORD_REJECTED',
      message: `The server rejected the record of call ${callId} as invalid (${cause.statusCode}${cause.serverMessage ? `: ${cause.serverMessage}` : ''}${cause.path ? `, at ${cause.path}` : ''}); it is not retried.`,
      cause,
    });
    this.callId = callId;
    this.statusCode = cause.statusCode;
  }
}

/** One record is larger than the server accepts (413 even when sent alone). */
export class RecordTooLargeError extends WeftError {
  readonly callId: string;
  readonly bytes: number;

  constructor(callId: string, bytes: number, cause: unknown) {
    super({
      code: 'WEFT_RECORD_TOO_LARGE',
      message: `The record of call ${callId} (${bytes} bytes encoded) is larger than the server accepts (413), even sent alone; it is not retried. Reduce the size of its inputs or output, or raise the server's body limit.`,
      cause,
    });
    this.callId = callId;
    this.bytes = bytes;
  }
}

/** A record could not be delivered and there is no outbox to keep it in. */
export class DeliveryFailedError extends WeftError {
  constructor(reason: string, cause?: unknown) {
    super({
      code: 'WEFT_DELIVERY_FAILED',
      message: `${reason}; no outbox is configured, so the record is lost. Enable the outbox to keep records on disk until the server is back.`,
      cause,
    });
  }
}

/** Appending to the outbox failed (disk full, permissions). */
export class OutboxWriteError extends WeftError {
  constructor(records: number, cause: unknown) {
    super({
      code: 'WEFT_OUTBOX_WRITE_FAILED',
      message: `Could not write ${records} record(s) to the outbox (${describeCause(cause)}); they are lost. Free disk space or fix the outbox folder's permissions.`,
      cause,
    });
  }
}

/** A record handed to the batcher has no encoded bytes (a pipeline bug); it is failed, never sent. */
export class InvalidRecordError extends WeftError {
  constructor(callId: unknown) {
    super({
      code: 'WEFT_INVALID_RECORD',
      message: `The record of call ${String(callId)} has no encoded bytes (expected a non-empty Uint8Array); it is not sent.`,
    });
  }
}

/** A record was handed to a batcher that was already closed. */
export class BatcherClosedError extends WeftError {
  constructor() {
    super({
      code: 'WEFT_CLOSED',
      message: 'The batcher is closed (the client was shut down); records added after shutdown are not sent.',
    });
  }
}

/** 408 Request Timeout, 429 Too Many Requests and every 5xx may succeed when repeated. */
export function isRetryableStatus(statusCode: number): boolean {
  return statusCode === 408 || statusCode === 429 || statusCode >= 500;
}

function describeCause(cause: unknown): string {
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return typeof code === 'string' ? `${code}: ${cause.message}` : cause.message;
  }
  return String(cause);
}
