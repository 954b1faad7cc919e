import { debuglog } from 'node:util';
import { type ErrorResponse, WeftError } from '@weft/protocol';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DigestMismatchError, InvalidRequestError, StorageFullError } from '../errors/index.js';
import { codeForStatus, ERROR_STATUS } from './error-status.js';

const log = debuglog('weft');

/**
 * The one place errors become responses: a `WeftError` maps by code to its
 * status, a framework error keeps its 4xx status (malformed JSON, too large,
 * unsupported media type) under a Weft code, and anything else is a 500. The
 * body is always `errorResponse` JSON, with the offending field's `path`.
 */
export function errorHandler(raised: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const error = answerable(raised);
  const { status, body } = toErrorResponse(error);
  logError(error, request, status, body.error.code);
  setRetryAfter(error, reply);
  return reply.code(status).type('application/json').send(body);
}

/**
 * The error a raised one is answered as: a full disk (`SQLITE_FULL`,
 * `ENOSPC`, from whichever store) becomes `WEFT_STORAGE_FULL`; anything else
 * is answered as it is. Used by every error handler.
 */
export function answerable(error: unknown): unknown {
  return StorageFullError.of(error) ?? error;
}

/** Logs an answered error. Used by every error handler, so all log alike. */
export function logError(error: unknown, request: FastifyRequest, status: number, code: string): void {
  // The log gets the code, never the message or the request: messages of
  // framework errors may quote the body, and headers hold credentials.
  if (status >= 500) {
    log('%s %s failed: %s', request.method, request.url, (error as Error)?.stack ?? error);
    request.log.error({ code, err: error }, 'request failed');
  } else {
    request.log.info({ code, statusCode: status }, 'request refused');
  }
}

/**
 * Sets `Retry-After` on the answer to an error that says when to come back
 * (a storage outage, a full disk, a busy server: each carries
 * `retryAfterMs`), so clients back off by it (the SDK and OTLP exporters
 * honour it) instead of hammering. Used by every error handler.
 */
export function setRetryAfter(error: unknown, reply: FastifyReply): void {
  const retryAfterMs = WeftError.isInstance(error)
    ? (error as { retryAfterMs?: unknown }).retryAfterMs
    : undefined;
  if (typeof retryAfterMs === 'number') reply.header('retry-after', String(Math.ceil(retryAfterMs / 1_000)));
}

/** The status and body an error is answered with. */
export function toErrorResponse(error: unknown): {
  status: number;
  body: ErrorResponse & Record<string, unknown>;
} {
  if (WeftError.isInstance(error)) {
    const status = ERROR_STATUS[error.code] ?? 500;
    const body: ErrorResponse['error'] & Record<string, unknown> = {
      code: error.code,
      message: error.message,
    };
    if (InvalidRequestError.isInstance(error)) {
      body.path = error.path;
      if (error.index !== undefined) body.index = error.index;
      if (error.issues.length > 1) body.issues = error.issues;
    } else if (DigestMismatchError.isInstance(error)) {
      body.path = error.path;
      body.expected = error.expected;
      body.actual = error.actual;
      if (error.index !== undefined) body.index = error.index;
    } else if ('path' in error && Array.isArray(error.path)) {
      body.path = error.path.join('.');
    }
    return { status, body: { error: body } };
  }
  const fastifyError = error as Partial<FastifyError>;
  const status = fastifyError.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    return {
      status,
      body: {
        error: { code: codeForStatus(status), message: fastifyError.message ?? 'Bad request', path: '' },
      },
    };
  }
  return {
    status: 500,
    body: {
      error: {
        code: 'WEFT_INTERNAL',
        message: `Internal server error: ${(error as Error)?.message ?? String(error)}`,
      },
    },
  };
}
