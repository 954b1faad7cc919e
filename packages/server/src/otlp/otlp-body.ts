import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { InvalidRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../errors/index.js';
import { parseJsonBody } from '../http/index.js';
import { CONTENT_TYPE_PROTOBUF } from './otlp-codec.js';
import { spansOfOtlp } from './otlp-spans.js';
import { spansOfOtlpProtobuf } from './otlp-wire-spans.js';

const gunzipAsync = promisify(gunzip);

/**
 * The body parsers of `/v1/traces`, and only them (the plugin's other
 * parsers are removed, so msgpack or raw bytes get 415 like any other type):
 * OTLP protobuf and OTLP JSON, each plain or gzip-compressed. Both end as
 * the same neutral spans (protobuf read straight from its wire format by
 * `spansOfOtlpProtobuf`, JSON by `spansOfOtlp`), so the route never sees a format.
 * `maxBytes` bounds the body after decompression too (a gzip bomb is a 413),
 * and `maxNodes` the fields or values it holds (413 `WEFT_TOO_MANY_VALUES`),
 * counted before decoding (JSON) or as it is read, before more is built (protobuf).
 */
export function registerOtlpBodyParsers(
  app: FastifyInstance,
  { maxBytes, maxNodes }: { maxBytes: number; maxNodes: number },
): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    CONTENT_TYPE_PROTOBUF,
    { parseAs: 'buffer' },
    async (request: FastifyRequest, body: Buffer) => {
      const bytes = await decoded(request, body, maxBytes);
      return spansOfOtlpProtobuf(bytes, maxNodes);
    },
  );
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer' },
    async (request: FastifyRequest, body: Buffer) =>
      spansOfOtlp(parseJsonBody(request, await decoded(request, body, maxBytes), maxNodes)),
  );
}

/** The body with its `Content-Encoding` undone: none, `identity` or `gzip`. */
async function decoded(request: FastifyRequest, body: Buffer, maxBytes: number): Promise<Buffer> {
  const encoding = String(request.headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();
  if (encoding === 'identity' || encoding === '') return body;
  if (encoding !== 'gzip') {
    throw new UnsupportedMediaTypeError(
      `Content-Encoding "${encoding.slice(0, 40)}" is not supported on /v1/traces; send gzip or no encoding.`,
    );
  }
  try {
    return await gunzipAsync(body, { maxOutputLength: maxBytes });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      throw new PayloadTooLargeError(maxBytes);
    throw new InvalidRequestError(
      [
        {
          path: '',
          message: `Content-Encoding is gzip but the body is not valid gzip (${(error as Error).message})`,
        },
      ],
      'body',
    );
  }
}
