import { decodeMsgpack, isValueRef, mayHoldValueRefs } from '@weft/protocol';

/**
 * What stored content refers to, for garbage collection and retention
 * (see `LifecycleStorage`): deduplicated values by their markers, files and
 * calls by their `weft:///` refs. Each as a key `<kind>:<target>`:
 * `v:<digest>` a value, `f:<digest>` a file, `c:<call id>` a call (a dataset
 * row made from it).
 */
export type ContentRefKey = `${'v' | 'f' | 'c'}:${string}`;

/** `weft:///<project>/file/<digest>` or `…/call/<id>`, with or without a path after. */
const REF = /^weft:\/\/\/[^/]+\/(file|call)\/([^/]+)/;

/**
 * Adds to `into` what `value` refers to: every value marker's digest and
 * every file or call ref among its string leaves (iterative: no recursion
 * limit). Object keys are structure, never refs.
 */
export function collectContentRefs(value: unknown, into: Set<ContentRefKey>): Set<ContentRefKey> {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      // The prefix check first: nearly every string is not a ref.
      if (v.startsWith('weft:///')) {
        const match = REF.exec(v);
        if (match !== null) into.add(`${match[1] === 'file' ? 'f' : 'c'}:${match[2] as string}`);
      }
    } else if (Array.isArray(v)) {
      for (const item of v)
        if (item !== null && (typeof item === 'object' || typeof item === 'string')) stack.push(item);
    } else if (typeof v === 'object' && v !== null && !(v instanceof Uint8Array)) {
      if (isValueRef(v)) {
        into.add(`v:${v.digest}`);
        continue;
      }
      for (const key in v) {
        const member = (v as Record<string, unknown>)[key];
        if (member !== null && (typeof member === 'object' || typeof member === 'string')) stack.push(member);
      }
    }
  }
  return into;
}

/** The refs of several values as a sorted array, or `null` when there are none. */
export function contentRefsOf(...values: unknown[]): ContentRefKey[] | null {
  const refs = new Set<ContentRefKey>();
  for (const value of values) if (value !== undefined) collectContentRefs(value, refs);
  return refs.size === 0 ? null : [...refs].sort();
}

/** Bytes every ref and every map-form marker contain (`weft`). */
export const REF_MARK = Buffer.from('weft');

/**
 * True when `bytes` (msgpack or JSON) may hold a ref or a marker (of either
 * form: a compact marker has no `weft` in it): content without them refers
 * to nothing and need not be decoded.
 */
export function mayHoldRefs(bytes: Uint8Array): boolean {
  return (
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(REF_MARK) !== -1 ||
    mayHoldValueRefs(bytes)
  );
}

/** The refs of JSON text (an object's or a table row's canonical value). */
export function contentRefsOfJson(text: string): ContentRefKey[] | null {
  return text.includes('weft:///') ? contentRefsOf(JSON.parse(text)) : null;
}

/**
 * What a stored value refers to: the array it extends (`prev`), and the
 * markers and file refs inside its bytes (msgpack). Call refs are left out:
 * a value naming a call keeps nothing.
 */
export function valueRefsOf(prev: string | undefined, bytes: Uint8Array): ContentRefKey[] {
  const refs = new Set<ContentRefKey>();
  if (prev !== undefined) refs.add(`v:${prev}`);
  if (mayHoldRefs(bytes)) collectContentRefs(decodeMsgpack(bytes), refs);
  return [...refs].filter((key) => !key.startsWith('c:')).sort();
}
