import type { FastifyLoggerOptions, FastifyRequest, RawServerDefault } from 'fastify';
import type { LogStream } from '../options/index.js';

/**
 * Headers that carry credentials. The request serializer below never logs
 * headers at all; redaction is the second line, for any log call that
 * passes a request or its headers by hand.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["proxy-authorization"]',
  'headers.authorization',
  'headers.cookie',
  'req.body',
  'body',
] as const;

/**
 * Fastify logger settings for the server: JSON lines to `stream`, requests
 * logged as method, URL and peer only (no headers, no body), credentials
 * redacted wherever they appear.
 */
export function loggerOptions({
  stream,
  level,
}: {
  stream: LogStream;
  level: string;
}): FastifyLoggerOptions<RawServerDefault> & {
  stream: LogStream;
  redact: { paths: string[]; censor: string };
} {
  return {
    level,
    stream,
    redact: { paths: [...REDACTED_PATHS], censor: '[redacted]' },
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: request.url,
        remoteAddress: request.ip,
      }),
    },
  };
}
