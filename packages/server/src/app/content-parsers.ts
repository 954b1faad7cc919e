import { CONTENT_TYPE_JSON, CONTENT_TYPE_MSGPACK, CONTENT_TYPE_OCTET_STREAM } from '@weft/protocol';
import type { FastifyInstance } from 'fastify';
import { parseJsonBody, parseMsgpackBody } from '../http/index.js';

/**
 * The body parsers: JSON and msgpack (the SDK's wire format, under both
 * common media types), each counting the body's values before decoding it
 * (past `maxBodyNodes`: 413 `WEFT_TOO_MANY_VALUES`, in milliseconds, with
 * nothing materialised), and raw bytes for file uploads. A body that does
 * not decode is the client's fault: 400, never a 5xx.
 *
 * Keys named `__proto__` or `constructor` are data in both formats: kept as
 * own properties (`JSON.parse` defines them; `decodeMsgpack` too), stored
 * and returned as sent, never assigned in a way that sets a prototype.
 * (Fastify's own JSON parser refused such bodies as "not valid JSON", while
 * msgpack kept them: one rule for both now.)
 */
export function registerContentParsers(
  app: FastifyInstance,
  { maxBodyNodes }: { maxBodyNodes: number },
): void {
  app.removeContentTypeParser(CONTENT_TYPE_JSON);
  app.addContentTypeParser(CONTENT_TYPE_JSON, { parseAs: 'buffer' }, (request, body, done) => {
    try {
      done(null, parseJsonBody(request, body as Buffer, maxBodyNodes));
    } catch (error) {
      done(error as Error);
    }
  });
  app.addContentTypeParser(
    [CONTENT_TYPE_MSGPACK, 'application/x-msgpack'],
    { parseAs: 'buffer' },
    (request, body, done) => {
      try {
        done(null, parseMsgpackBody(request, body as Buffer, maxBodyNodes));
      } catch (error) {
        done(error as Error);
      }
    },
  );
  app.addContentTypeParser(CONTENT_TYPE_OCTET_STREAM, { parseAs: 'buffer' }, (_request, body, done) => {
    done(null, body);
  });
}
