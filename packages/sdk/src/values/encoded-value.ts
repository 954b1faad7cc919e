import type { ResolvedSanitizeOptions } from './sanitize-options.js';
import type { WrittenValueHook } from './written-value-hook.js';

/**
 * A call's output written as msgpack on the caller's turn (see
 * `encodeOutput`), instead of a {@link SnapshotTape} that the pool reads
 * and writes as msgpack later: the bytes are written once, and the pool
 * copies them into the record.
 *
 * Only an output that is already in its safe form is kept this way (what
 * `encodeIfSafe` would write unchanged: plain containers of well-formed
 * strings, finite numbers, booleans and null, no redacted key), checked
 * against the client's rules and stricter bounds (the snapshot's limits).
 * The bytes are the snapshot: what the caller does to the value afterwards
 * is not seen, as with a tape.
 *
 * `asked` lists the values of the output a values-sent-once hook must be
 * asked about (those that encode to at least `threshold` bytes), in the
 * order the encoder asks (bottom-up): triples of their start and end in
 * `bytes` and the string itself (`undefined` for a container). The pool
 * asks them again with the record's hook and writes the stand-ins in place
 * (see `replayAsked`).
 */
export class EncodedValue {
  // A private brand: `#brand in x` runs no proxy trap (`instanceof` would, and a revoked proxy throws).
  readonly #brand = true;

  constructor(
    readonly bytes: Uint8Array,
    /** Values written, the root included (the pool counts them toward its node limit). */
    readonly nodes: number,
    readonly asked: readonly unknown[],
    /** The hook threshold `asked` was noted for (`+Infinity`: nothing noted). */
    readonly threshold: number,
    /** The rules it was checked against. */
    readonly checkedWith: ResolvedSanitizeOptions,
    /** About how many bytes it keeps alive: its bytes and the strings in `asked`. */
    readonly size: number,
  ) {}

  static is(value: unknown): value is EncodedValue {
    return typeof value === 'object' && value !== null && #brand in value;
  }

  /** Whether the pool's rules `o` keep every value in it as it is (the ones it was checked against, bar the hooks). */
  fits(o: ResolvedSanitizeOptions): boolean {
    const c = this.checkedWith;
    return (
      c === o ||
      (c.redactKeys === o.redactKeys &&
        o.redact === undefined &&
        c.maxDepth <= o.maxDepth &&
        c.maxStringLength <= o.maxStringLength &&
        c.maxArrayLength <= o.maxArrayLength)
    );
  }
}

/** The part of the pool's writer that {@link replayAsked} uses. */
export interface ReplayTarget {
  buf: Uint8Array;
  pos: number;
  start: number;
  /** Makes room for `n` more bytes after `pos` (it may move the record: `buf` and `start` change). */
  ensure(n: number): void;
}

/**
 * After `value`'s bytes were copied to `w` at `at` (relative to the record):
 * asks `hook` about the values in `value.asked`, in order, as the encoder
 * would have asked while writing them, and writes each stand-in over its
 * value (moving what follows: a stand-in may be longer than a value below
 * its size, at a low threshold). A string is
 * first looked up by identity and value (`knownString`), as the encoder
 * does before writing one. Offsets move as earlier values are replaced:
 * values come bottom-up, so each earlier replacement is either before a
 * value or inside it.
 */
export function replayAsked(w: ReplayTarget, at: number, value: EncodedValue, hook: WrittenValueHook): void {
  const asked = value.asked;
  const threshold = hook.thresholdBytes;
  // The ends of the values replaced so far (in the value's own offsets, ascending) and the bytes each saved.
  const ends: number[] = [];
  const saved: number[] = [];
  let shift = 0;
  for (let k = 0; k < asked.length; k += 3) {
    const from = asked[k] as number;
    const to = asked[k + 1] as number;
    const s = asked[k + 2] as string | undefined;
    let before = shift;
    for (let j = ends.length - 1; j >= 0 && (ends[j] as number) > from; j--) before -= saved[j] as number;
    let start = w.start + at + from - before;
    let end = w.start + at + to - shift;
    let standIn = s === undefined ? undefined : hook.knownString(s);
    if (standIn === undefined && end - start >= threshold) standIn = hook.written(w.buf, start, end, s);
    if (standIn === undefined) continue;
    const length = standIn.byteLength;
    const less = end - start - length;
    if (less < 0) {
      const record = w.start;
      w.ensure(-less);
      start += w.start - record;
      end += w.start - record;
    }
    // What follows first (the stand-in may be longer than the value), then the stand-in.
    w.buf.copyWithin(start + length, end, w.pos);
    w.buf.set(standIn, start);
    w.pos -= less;
    shift += less;
    ends.push(to);
    saved.push(less);
  }
}
