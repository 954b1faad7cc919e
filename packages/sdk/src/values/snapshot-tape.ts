import { decodeMsgpack } from '@weft/protocol';
import { EncodedValue } from './encoded-value.js';

/** The `origins` of a tape written without them. */
export const NO_ORIGINS: readonly unknown[] = Object.freeze([]);

/**
 * A structural snapshot kept as one flat list of tokens instead of a tree of
 * copied containers.
 *
 * Why: a call's snapshot lives until the pool encodes it, and during a burst
 * thousands wait at once. Every minor GC copies what is still alive; a tree
 * of dozens of small objects per call made those pauses 10–20 ms, while one
 * array per call is copied as a block. Building the list is also cheaper than
 * creating objects property by property, and the encoder reads it front to
 * back.
 *
 * Layout, in depth-first pre-order:
 * - a leaf (string, number, boolean, null, undefined, bigint), a function, or
 *   an object the snapshot keeps by identity (class instances, markers): the
 *   value itself, one slot;
 * - a symbol: {@link TapeTag.Symbol}, then the symbol;
 * - an array or a Set: its tag, the count of items, then each item;
 * - a plain object or a Map: its tag, the count of entries, then key and
 *   value for each (object keys are strings, one slot each);
 * - a cycle: {@link TapeTag.Cycle}, then the depth of the container it points
 *   back to (the root is at depth 0).
 *
 * `origins` (when the snapshot was asked for them) names the caller's
 * container each copied array below the root, and each plain object that is
 * an array's item, came from: pairs of its first slot and the container, in
 * slot order. The encoder
 * keys its cache of encoded containers by them (see `container-cache.ts`).
 */
export class SnapshotTape {
  // A private brand: `#brand in x` runs no proxy trap (the snapshot keeps hostile proxies by identity).
  readonly #brand = true;

  /**
   * @param chars Characters of the string values on the tape, counted while
   * it was written: what the snapshot keeps alive beyond its slots, known
   * without a walk (0 when the writer did not count, e.g. the iterative copier).
   */
  constructor(
    readonly slots: unknown[],
    readonly chars = 0,
    readonly origins: readonly unknown[] = NO_ORIGINS,
  ) {}

  static is(value: unknown): value is SnapshotTape {
    return typeof value === 'object' && value !== null && #brand in value;
  }
}

/**
 * About how many bytes `value` (a call's snapshot part) keeps alive: its
 * strings' characters and a word per slot, in O(1).
 */
export function snapshotBytes(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (EncodedValue.is(value)) return value.size;
  return SnapshotTape.is(value) ? value.chars + 8 * value.slots.length : 0;
}

/** The tags that open a container or mark a special slot; symbols, so no value can be mistaken for one. */
export const TapeTag = {
  Array: Symbol('weft.tape.array'),
  Object: Symbol('weft.tape.object'),
  Map: Symbol('weft.tape.map'),
  Set: Symbol('weft.tape.set'),
  Cycle: Symbol('weft.tape.cycle'),
  Symbol: Symbol('weft.tape.symbol'),
} as const;

/**
 * The snapshot as copied containers (arrays, plain objects, Maps, Sets), for
 * the Sanitizer and for user hooks; an output written on the caller's turn
 * ({@link EncodedValue}) decoded; anything else is returned as it is. Cycles are cycles again, through the same copy.
 */
export function materialize(value: unknown): unknown {
  if (EncodedValue.is(value)) return decodeMsgpack(value.bytes);
  if (!SnapshotTape.is(value)) return value;
  const reader: Reader = { slots: value.slots, i: 0, open: [] };
  return read(reader, 0);
}

interface Reader {
  readonly slots: unknown[];
  i: number;
  /** The container being filled at each depth, for cycles. */
  readonly open: unknown[];
}

function read(r: Reader, depth: number): unknown {
  const token = r.slots[r.i++];
  if (typeof token !== 'symbol') return token;
  switch (token) {
    case TapeTag.Symbol:
      return r.slots[r.i++];
    case TapeTag.Cycle:
      return r.open[r.slots[r.i++] as number];
    case TapeTag.Array: {
      const n = r.slots[r.i++] as number;
      const out: unknown[] = [];
      r.open[depth] = out;
      for (let k = 0; k < n; k++) out.push(read(r, depth + 1));
      return out;
    }
    case TapeTag.Object: {
      const n = r.slots[r.i++] as number;
      const out: Record<string, unknown> = {};
      r.open[depth] = out;
      for (let k = 0; k < n; k++) {
        const key = r.slots[r.i++] as string;
        const member = read(r, depth + 1);
        // Assigning `__proto__` would set the copy's prototype; it must stay data.
        if (key === '__proto__')
          Object.defineProperty(out, key, {
            value: member,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        else out[key] = member;
      }
      return out;
    }
    case TapeTag.Map: {
      const n = r.slots[r.i++] as number;
      const out = new Map<unknown, unknown>();
      r.open[depth] = out;
      for (let k = 0; k < n; k++) {
        const key = read(r, depth + 1);
        out.set(key, read(r, depth + 1));
      }
      return out;
    }
    default: {
      const n = r.slots[r.i++] as number;
      const out = new Set<unknown>();
      r.open[depth] = out;
      for (let k = 0; k < n; k++) out.add(read(r, depth + 1));
      return out;
    }
  }
}
