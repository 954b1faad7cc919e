import { DIGEST } from '../refs/index.js';

/**
 * A deduplicated value's stand-in inside a call record: `{ _weft: 'value',
 * digest }`. The value itself travels once per server as a `value` batch item
 * (see `valueItem`); readers never see the marker, because the server
 * expands every one it stores before answering (see `expandValueRefs`).
 */
export interface ValueRef {
  readonly _weft: 'value';
  readonly digest: string;
}

/** The marker for `digest`. */
export function valueRef(digest: string): ValueRef {
  return { _weft: 'value', digest };
}

/**
 * True for a value marker: a plain object with exactly the members `_weft:
 * 'value'` and a well-formed `digest`. (A user object with other members is
 * never taken for one.)
 */
export function isValueRef(value: unknown): value is ValueRef {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  if (record._weft !== 'value' || typeof record.digest !== 'string' || !DIGEST.test(record.digest))
    return false;
  return Object.keys(record).length === 2;
}

/** Adds the digest of every value marker in `value` to `into` (iterative: no recursion limit). */
export function collectValueRefs(value: unknown, into: Set<string>): Set<string> {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    // Bytes are a leaf: `for…in` over a Uint8Array visits one key per byte.
    if (typeof v !== 'object' || v === null || ArrayBuffer.isView(v)) continue;
    if (Array.isArray(v)) {
      for (const item of v) if (typeof item === 'object' && item !== null) stack.push(item);
      continue;
    }
    if (isValueRef(v)) {
      into.add(v.digest);
      continue;
    }
    for (const key in v) {
      const member = (v as Record<string, unknown>)[key];
      if (typeof member === 'object' && member !== null) stack.push(member);
    }
  }
  return into;
}

/**
 * `value` with every value marker whose digest `resolved` holds replaced by
 * that value; markers of unknown digests are left as they are. Containers
 * without markers are returned as they are (not copied).
 */
export function expandValueRefs(value: unknown, resolved: ReadonlyMap<string, unknown>): unknown {
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value)) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      const expanded = expandValueRefs(item, resolved);
      if (expanded !== item) {
        out ??= value.slice();
        out[i] = expanded;
      }
    }
    return out ?? value;
  }
  if (isValueRef(value)) return resolved.has(value.digest) ? resolved.get(value.digest) : value;
  let out: Record<string, unknown> | undefined;
  for (const key in value) {
    const member = (value as Record<string, unknown>)[key];
    const expanded = expandValueRefs(member, resolved);
    if (expanded !== member) {
      out ??= copyObject(value as Record<string, unknown>);
      Object.defineProperty(out, key, {
        value: expanded,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return out ?? value;
}

/** A shallow copy that keeps a `__proto__` key as data. */
function copyObject(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in value) {
    Object.defineProperty(out, key, {
      value: value[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
