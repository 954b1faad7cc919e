import { NotCanonicalError } from '../errors/index.js';

/** Deeper than this and a value is refused rather than risking the stack. */
export const MAX_CANONICAL_DEPTH = 1_000;

/**
 * The canonical text of a JSON-like value: object keys sorted by UTF-16 code
 * units, no whitespace, numbers and strings as `JSON.stringify` writes them
 * (so lone surrogates are escaped, -0 becomes 0), `undefined` object members
 * dropped. Equal values give equal text whatever their key order; this text is
 * what digests are taken of, by the SDK and again by the server.
 *
 * Throws {@link NotCanonicalError} for anything else (non-finite numbers,
 * bigint, functions, symbols, class instances, binary data, cycles, excessive
 * depth): those must be turned into their documented safe forms first.
 */
export function canonicalJson(value: unknown): string {
  const parts: string[] = [];
  write(value, parts, [], new Set());
  return parts.join('');
}

function write(value: unknown, out: string[], path: (string | number)[], open: Set<object>): void {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      out.push(JSON.stringify(value));
      return;
    case 'number':
      if (!Number.isFinite(value)) throw new NotCanonicalError(path, `${value} is not a finite number`);
      out.push(JSON.stringify(value));
      return;
    case 'object':
      break;
    default:
      throw new NotCanonicalError(path, `${typeof value} is not JSON-like`);
  }
  if (value === null) {
    out.push('null');
    return;
  }
  if (path.length >= MAX_CANONICAL_DEPTH)
    throw new NotCanonicalError(path, `nested deeper than ${MAX_CANONICAL_DEPTH}`);
  if (open.has(value)) throw new NotCanonicalError(path, 'the value contains a cycle');
  open.add(value);
  if (Array.isArray(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(',');
      path.push(i);
      write(value[i] === undefined ? null : value[i], out, path, open);
      path.pop();
    }
    out.push(']');
  } else {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      throw new NotCanonicalError(
        path,
        `instances of ${proto?.constructor?.name ?? 'a class'} are not plain objects`,
      );
    }
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    out.push('{');
    let first = true;
    for (const key of keys) {
      const member = record[key];
      if (member === undefined) continue;
      if (!first) out.push(',');
      first = false;
      out.push(JSON.stringify(key), ':');
      path.push(key);
      write(member, out, path, open);
      path.pop();
    }
    out.push('}');
  }
  open.delete(value);
}
