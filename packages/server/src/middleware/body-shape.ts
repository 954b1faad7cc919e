import { MAX_CANONICAL_DEPTH } from '@weft/protocol';
import type { preValidationHookHandler } from 'fastify';
import { InvalidRequestError } from '../errors/index.js';

/**
 * Deepest body accepted: a value as deep as canonical JSON allows
 * (`MAX_CANONICAL_DEPTH`) plus the wire envelope around it
 * (body → items → item → inputs → value, with room to spare).
 */
export const MAX_BODY_DEPTH = MAX_CANONICAL_DEPTH + 8;

/** Path segments shown in a message; a 1,000-level path would drown it. */
const SHOWN_SEGMENTS = 8;

interface Frame {
  readonly value: unknown;
  readonly depth: number;
  readonly key: string | number;
  readonly parent: Frame | undefined;
}

/**
 * Refuses, with 400 naming the field, a decoded body that validation,
 * digesting, storage or the JSON answer could not handle safely: nesting
 * deeper than `maxDepth` (every later step recurses, and a stack overflow
 * would be a 500), msgpack 64-bit integers decoded as `bigint` (JSON has
 * no form for them; send a number or a string) and msgpack `bin` anywhere
 * but a value item's bytes. The walk is iterative, so the check itself
 * cannot overflow the stack.
 */
export function bodyShape({
  maxDepth = MAX_BODY_DEPTH,
}: {
  maxDepth?: number;
} = {}): preValidationHookHandler {
  return (request, _reply, done) => {
    const body = request.body;
    if (body === null || typeof body !== 'object' || ArrayBuffer.isView(body)) {
      done(typeof body === 'bigint' ? bigintError(undefined) : undefined);
      return;
    }
    done(findProblem(body, maxDepth));
  };
}

function findProblem(body: object, maxDepth: number): InvalidRequestError | undefined {
  // Frames only for containers: leaves (most of a body) are checked in place,
  // so the walk allocates per object or array, not per value.
  const stack: Frame[] = [{ value: body, depth: 1, key: '', parent: undefined }];
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    const { value, depth } = frame;
    if (depth > maxDepth) {
      // `path` names the top-level field or list item (as validation does);
      // the message says where inside it the nesting went too deep.
      const keys = keysOf(frame);
      const field = typeof keys[1] === 'number' ? keys.slice(0, 2) : keys.slice(0, 1);
      return issue(
        field,
        `nested deeper than ${maxDepth} levels (at ${shown(keys)}); flatten the value or send it as a string`,
      );
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const problem = visit(value[i], i, frame, stack);
        if (problem) return problem;
      }
    } else {
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const problem = visit(record[key], key, frame, stack);
        if (problem) return problem;
      }
    }
  }
  return undefined;
}

/** Checks a leaf in place, or queues a container; a bigint and misplaced bytes are the bad leaves. */
function visit(
  child: unknown,
  key: string | number,
  parent: Frame,
  stack: Frame[],
): InvalidRequestError | undefined {
  if (typeof child === 'bigint') return bigintError({ value: child, depth: parent.depth + 1, key, parent });
  if (child === null || typeof child !== 'object') return undefined;
  if (ArrayBuffer.isView(child)) {
    const keys = keysOf({ value: child, depth: parent.depth + 1, key, parent });
    return isBytesField(keys) ? undefined : issue(keys, BYTES_MESSAGE);
  }
  stack.push({ value: child, depth: parent.depth + 1, key, parent });
  return undefined;
}

/**
 * Where a body may carry bytes (msgpack `bin`): a batch's value items,
 * `items.N.bytes` and `items.N.items.M`. Anywhere else bytes are refused:
 * the SDK sends them as files or as `{ _weft: 'binary', base64 }`, and
 * readers would walk a stored byte array one key per byte (a 16 MiB `bin`
 * once took 11 s to ingest and 11 s for every read of its call).
 */
function isBytesField(keys: readonly (string | number)[]): boolean {
  if (keys[0] !== 'items' || typeof keys[1] !== 'number') return false;
  return keys.length === 3
    ? keys[2] === 'bytes'
    : keys.length === 4 && keys[2] === 'items' && typeof keys[3] === 'number';
}

const BYTES_MESSAGE =
  'binary data (msgpack bin) is not accepted here; upload bytes as a file (POST /v1/files/<project>) and refer to it, or send them as base64 text';

function bigintError(frame: Frame | undefined): InvalidRequestError {
  const message =
    'a 64-bit integer beyond what JSON numbers hold; send it as a number within ±2^53 or as a string';
  return issue(frame ? keysOf(frame) : [], message);
}

/** A 400 at `keys`, with the list item's index when the path starts with one (`items.3…`). */
function issue(keys: readonly (string | number)[], message: string): InvalidRequestError {
  const path = shown(keys);
  const index = typeof keys[0] === 'string' && typeof keys[1] === 'number' ? keys[1] : undefined;
  return new InvalidRequestError(
    [index === undefined ? { path, message } : { path, index, message }],
    'body',
  );
}

/** The keys from the body down to a frame. */
function keysOf(frame: Frame): (string | number)[] {
  const keys: (string | number)[] = [];
  for (let f: Frame | undefined = frame; f?.parent !== undefined; f = f.parent) keys.push(f.key);
  return keys.reverse();
}

/** Dotted path, abbreviated past {@link SHOWN_SEGMENTS} segments. */
function shown(keys: readonly (string | number)[]): string {
  const head = keys.slice(0, SHOWN_SEGMENTS).join('.');
  return keys.length > SHOWN_SEGMENTS ? `${head}.…(${keys.length - SHOWN_SEGMENTS} more levels)` : head;
}
