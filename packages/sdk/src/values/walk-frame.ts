// The walker's bookkeeping: one frame per container being walked, one entry
// per object met (by identity), and the one way members are written.

export type Key = string | number;
export type Container = Record<string, unknown> | unknown[];

export const Kind = {
  /** An object's own enumerable string keys, read from `src`. */
  Fields: 0,
  /** Indexes 0…n-1 of an array-like `src`. */
  Items: 1,
  /** A Map's collected `[key, value]` pairs, so string keys can be redacted. */
  MapEntries: 2,
} as const;
export type Kind = (typeof Kind)[keyof typeof Kind];

/**
 * One container being walked. Its output container `out` is already in place
 * in its parent's output, so the result is a valid tree at every step.
 *
 *   parent.out[key]            the value's place (a marker for Map, Set, Error, instances)
 *   parent.out[key][suffix]    `out`, when the place holds a marker that wraps it
 */
export interface Frame {
  readonly kind: Kind;
  readonly src: unknown;
  readonly keys: readonly string[] | null;
  readonly n: number;
  /** Entries beyond `maxArrayLength`, never walked. */
  readonly omitted: number;
  readonly out: Container;
  readonly depth: number;
  readonly parent: Frame | null;
  readonly key: Key;
  readonly suffix: string | null;
  /** The identity entry of the source object, closed when the frame ends; null for views. */
  readonly entry: Entry | null;
  /** Node count when the frame opened, so its expanded size is known when it ends. */
  readonly start: number;
  i: number;
  /** Levels of frames below this one (0 when it holds only leaves). */
  height: number;
  path: readonly Key[] | null;
}

/** What became of an object already met, by identity. */
export interface Entry {
  /** Its output: a container, a marker, or a ref string. */
  out: unknown;
  /** The frame walking it while it is being walked: meeting it then is a cycle. */
  open: Frame | null;
  size: number;
  height: number;
  /** Set while a hook's ref is pending: every place the stand-in was written to. */
  waiting: [Container, Key][] | null;
}

/** A frame that has not walked anything yet; `start` is the walk's node count now. */
export function createFrame(
  kind: Kind,
  src: unknown,
  keys: readonly string[] | null,
  length: number,
  omitted: number,
  out: Container,
  depth: number,
  parent: Frame | null,
  key: Key,
  suffix: string | null,
  entry: Entry | null,
  start: number,
): Frame {
  return {
    kind,
    src,
    keys,
    n: length,
    omitted,
    out,
    depth,
    parent,
    key,
    suffix,
    entry,
    start,
    i: 0,
    height: 0,
    path: null,
  };
}

export /** Writes one member; `__proto__` is defined as data so it can never set a prototype. */
function assign(container: Container, key: Key, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(container, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    (container as Record<Key, unknown>)[key] = value;
  }
}

/** Where `frame`'s value sits in the result (worked out once, when an error or a cycle needs it). */
export function framePath(frame: Frame): readonly Key[] {
  if (frame.path === null) frame.path = frame.parent === null ? [] : childPath(frame.parent, frame.key);
  return frame.path;
}

/** Where the entry `key` of `frame` sits in the result. */
export function childPath(frame: Frame, key: Key): readonly Key[] {
  if (frame.parent === null) return []; // the root frame's only entry is the root value
  const path = [...framePath(frame)];
  if (frame.suffix !== null) path.push(frame.suffix);
  path.push(key);
  return path;
}
