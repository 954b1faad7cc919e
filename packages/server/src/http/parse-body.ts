import { countJsonNodes, countMsgpackNodes, decodeMsgpack } from '@weft/protocol';
import type { FastifyRequest } from 'fastify';
import { InvalidRequestError, TooManyValuesError } from '../errors/index.js';
import { setNodeBudget } from './node-budget.js';

/**
 * A JSON body, its values counted before `JSON.parse` materialises them
 * (past `maxNodes`: 413 `WEFT_TOO_MANY_VALUES`). Used by the API's parser
 * and by OTLP JSON's.
 */
export function parseJsonBody(request: FastifyRequest, body: Buffer, maxNodes: number): unknown {
  if (body.byteLength === 0) throw malformed('the body is empty; send a JSON object');
  const count = countJsonNodes(body, { maxNodes });
  if (count.status === 'over') throw new TooManyValuesError(maxNodes);
  setNodeBudget(request, maxNodes, count.nodes);
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    // JSON.parse's message quotes the text around the error, which may be a secret.
    throw malformed("Body is not valid JSON but content-type is set to 'application/json'");
  }
}

/** A msgpack body, its values counted from the headers before it is decoded (as {@link parseJsonBody}). */
export function parseMsgpackBody(request: FastifyRequest, body: Buffer, maxNodes: number): unknown {
  const count = countMsgpackNodes(body, { maxNodes });
  if (count.status === 'over') throw new TooManyValuesError(maxNodes);
  if (count.status === 'malformed') throw malformed(`malformed msgpack (${count.reason})`);
  if (count.status === 'within') setNodeBudget(request, maxNodes, count.nodes);
  try {
    return decodeMsgpack(body);
  } catch (error) {
    // msgpackr decodes recursively: absurd nesting overflows the stack,
    // which is the body's fault, not a malformed byte.
    const reason =
      error instanceof RangeError
        ? 'nested too deeply to decode'
        : ((error as Error)?.message ?? String(error));
    throw malformed(`malformed msgpack (${reason})`);
  }
}

function malformed(message: string): InvalidRequestError {
  return new InvalidRequestError([{ path: '', message }], 'body');
}
