import { CONTENT_TYPE_MSGPACK, CONTENT_TYPE_OCTET_STREAM, decodeMsgpack } from '@weft/protocol';
import type { FastifyInstance } from 'fastify';
import { InvalidRequestError } from '../errors/index.js';

/**
 * Body parsers beyond Fastify's JSON: msgpack (the SDK's wire format, under
 * both common media types) and raw bytes for file uploads. A body that does
 * not decode is the client's fault: 400, never a 5xx.
 */
export function registerContentParsers(app: FastifyInstance): void {
  app.addContentTypeParser(
    [CONTENT_TYPE_MSGPACK, 'application/x-msgpack'],
    { parseAs: 'buffer' },
    (_request, body, done) => {
      try {
        done(null, decodeMsgpack(body as Buffer));
      } catch (error) {
        // msgpackr decodes recursively: absurd nesting overflows the stack,
        // which is the body's fault, not a malformed byte.
        const reason =
          error instanceof RangeError
            ? 'nested too deeply to decode'
            : ((error as Error)?.message ?? String(error));
        done(new InvalidRequestError([{ path: '', message: `malformed msgpack (${reason})` }], 'body'));
      }
    },
  );
  app.addContentTypeParser(CONTENT_TYPE_OCTET_STREAM, { parseAs: 'buffer' }, (_request, body, done) => {
    done(null, body);
  });
}
