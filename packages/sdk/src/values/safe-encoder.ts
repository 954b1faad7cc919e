import { MsgpackWriter } from '@weft/protocol';
import {
  resolveSanitizeOptions,
  type ResolvedSanitizeOptions,
  type SanitizeOptions,
} from './sanitize-options.js';
import { forInListsWalkedKeys, isPlainPrototype } from './value-kinds.js';
import { SnapshotTape, TapeTag } from './snapshot-tape.js';
import { type Arena, arenaOf, EMPTY_ARENA, keepSpare, takeArena } from '../memory/index.js';

/**
 * Encodes `value` as msgpack when it is already exactly what the
 * {@link Sanitizer} would make of it; otherwise answers `undefined` and the
 * caller walks it with the Sanitizer as usual. One walk both checks and
 * writes, so the common case of a call's structural snapshot (plain objects
 * and arrays of well-formed strings, finite numbers, booleans and null) costs
 * a single pass instead of a check, a copy and an encode.
 *
 * A {@link SnapshotTape} anywhere in `value` is encoded as the value it
 * holds (`materialize(tape)`), read straight from its slots.
 *
 * The bytes decode (with the wire decoder) to the same value as
 * `encodeMsgpack(value)`: maps with string keys, arrays, strings, integers in
 * the smallest int form up to 32 bits and float64 beyond, booleans, nil;
 * object members whose value is `undefined` are left out, as the wire encoder
 * does.
 *
 * Answers `undefined` when `value` holds anything else: class instances (and
 * the snapshot's own markers), Map, Set, binary data, functions, symbols,
 * bigints, `undefined` array items, -0, NaN, ±Infinity, lone surrogates,
 * strings or keys over `maxStringLength`, containers over `maxArrayLength`,
 * depth or node counts at the limits, a key the default rules redact, a
 * `__proto__` key — and always when a `redact` function is set (it must be
 * asked exactly once per key, by the Sanitizer).
 *
 * `onObject` is asked about each plain container, as the Sanitizer would ask
 * it; any answer other than `undefined` makes the value not safe, so the hook
 * must be a pure lookup for plain containers (the client's is: a published
 * value's ref). A hook that throws also answers `undefined`. Repeated
 * containers (shared or cyclic) are expanded like the wire encoder does,
 * bounded by the node and depth limits.
 *
 * `budget` bounds the work (nodes): past it the answer is `undefined`, so a
 * large value goes to the Sanitizer, whose walk is sliced.
 *
 * The result is a view into a shared arena (like msgpackr's own output) and
 * must not be written to. It stays valid until it is given back with
 * {@link releaseEncoded}: once every record of an arena is given back, the
 * arena's memory is reused for later records.
 *
 * @throws InvalidSanitizeOptionsError (code `WEFT_INVALID_OPTIONS`) when `options` are invalid.
 */
export function encodeIfSafe(
  value: unknown,
  options?: SanitizeOptions,
  budget = Number.POSITIVE_INFINITY,
  hook?: WrittenValueHook,
): Uint8Array | undefined {
  const o = resolveSanitizeOptions(options);
  if (o.redact !== undefined || !forInListsWalkedKeys()) return undefined;
  const w = writer;
  w.o = o;
  w.hook = hook;
  w.nodes = 0;
  w.maxNodes = Math.min(o.maxNodes, budget);
  w.maxString = o.maxStringLength;
  const start = w.pos;
  w.start = start;
  let ok: boolean;
  try {
    ok = w.value(value, 0, false);
  } catch {
    // A proxy trap or a hook threw: let the Sanitizer handle and report it.
    ok = false;
  }
  w.o = undefined;
  w.hook = undefined;
  w.hookFrom = NO_HOOK;
  if (!ok) {
    w.pos = w.start;
    return undefined;
  }
  const bytes = w.buf.subarray(w.start, w.pos);
  w.arena.live++;
  // The next record starts on an 8-byte boundary of the same arena.
  w.pos = (w.pos + 7) & ~7;
  return bytes;
}

/**
 * Asked about the values of a call record's `inputs` members and `output`
 * as {@link encodeIfSafe} writes them, bottom-up, so a large value can be
 * replaced in place by a smaller stand-in (the deduplicator's marker) without
 * a second pass over the record. Only values of at least `thresholdBytes`
 * (encoded) are asked about.
 */
export interface WrittenValueHook {
  readonly thresholdBytes: number;
  /** The stand-in for string `s` when it is known already (so it need not be written), else `undefined`. */
  knownString(s: string): Uint8Array | undefined;
  /**
   * The stand-in for the value just written at `b[start…end)` (`s`: the
   * string it is, when it is one), or `undefined` to keep it.
   */
  written(b: Uint8Array, start: number, end: number, s?: string): Uint8Array | undefined;
}

/** `hookFrom` when no value is asked about. */
const NO_HOOK = Number.POSITIVE_INFINITY;

/**
 * Gives back the bytes of a record {@link encodeIfSafe} made, once nothing
 * reads them any more (the record was sent, spilled or failed). Bytes that
 * did not come from it are ignored. Give each record back at most once.
 * Once every record of an arena is given back, its memory is reused for
 * later records (see `memory/arena.ts`).
 */
export function releaseEncoded(bytes: Uint8Array): void {
  const arena = arenaOf(bytes);
  if (arena === undefined) return;
  arena.live--;
  if (arena.live === 0 && arena !== writer.arena) keepSpare(arena);
}

// `isWellFormed` is ES2024 (Node 20 has it); the repo's lib is ES2023.
type Es2024String = string & { isWellFormed(): boolean };

/**
 * The walk that decides what is safe, over the protocol's msgpack writer.
 * One per process: encoding is synchronous, so no two records are ever
 * written at once (and one subclass keeps the writer's field accesses
 * monomorphic).
 */
class SafeWriter extends MsgpackWriter {
  arena: Arena = EMPTY_ARENA;
  o: ResolvedSanitizeOptions | undefined;
  nodes = 0;
  maxNodes = 0;
  /** `maxStringLength` of the record being written: longer strings and keys are not safe. */
  maxString = 0;
  /** The next slot of the tape being read. */
  ti = 0;
  hook: WrittenValueHook | undefined;
  /** Depth from which values are asked about: 2 in the record's `inputs` (its members), 1 in its `output`. */
  hookFrom = NO_HOOK;

  constructor() {
    super(EMPTY_ARENA.buf, EMPTY_ARENA.view);
  }

  /** Moves the record so far to another arena when this one is full. */
  protected grow(n: number): void {
    const written = this.pos - this.start;
    const needed = written + n;
    const next = takeArena(needed);
    this.buf.copy(next.buf, 0, this.start, this.pos);
    const previous = this.arena;
    this.arena = next;
    this.buf = next.buf;
    this.view = next.view;
    this.start = 0;
    this.pos = written;
    if (previous.live === 0) keepSpare(previous);
  }

  /** `member`: an object member, where `undefined` is left out; an array item must not be undefined. */
  value(v: unknown, depth: number, member: boolean): boolean {
    if (++this.nodes >= this.maxNodes) return false;
    if (depth >= this.hookFrom) return this.hookedValue(v, depth, member);
    if (typeof v === 'object' && v !== null) return this.container(v, depth);
    return this.leaf(v, member);
  }

  /** {@link value} for a value the hook is asked about. */
  hookedValue(v: unknown, depth: number, member: boolean): boolean {
    if (typeof v === 'string' && this.knownString(v)) return true;
    const at = this.pos - this.start;
    const ok = typeof v === 'object' && v !== null ? this.container(v, depth) : this.leaf(v, member);
    return ok && this.replaceIfLarge(at, v);
  }

  /** Writes the hook's stand-in for a string it knows; false when it does not (or the string is not safe). */
  knownString(s: string): boolean {
    const hook = this.hook as WrittenValueHook;
    // A string shorter than this cannot encode to the threshold (3 bytes per code unit, a 5-byte header).
    if (
      s.length * 3 + 5 < hook.thresholdBytes ||
      s.length > (this.o as ResolvedSanitizeOptions).maxStringLength
    )
      return false;
    const standIn = hook.knownString(s);
    if (standIn === undefined) return false;
    this.bytes(standIn);
    return true;
  }

  /** After a value was written from `at` (relative to the record): writes the hook's stand-in over it when it has one. */
  replaceIfLarge(at: number, v: unknown): boolean {
    const hook = this.hook as WrittenValueHook;
    const start = this.start + at;
    if (this.pos - start < hook.thresholdBytes) return true;
    const standIn = hook.written(this.buf, start, this.pos, typeof v === 'string' ? v : undefined);
    if (standIn !== undefined) {
      // Smaller than what it replaces: it fits where the value was.
      this.buf.set(standIn, start);
      this.pos = start + standIn.byteLength;
    }
    return true;
  }

  /** A value that is not a container: written when it is one the Sanitizer keeps as is. */
  leaf(v: unknown, member: boolean): boolean {
    switch (typeof v) {
      case 'string':
        return this.string(v, this.maxString);
      case 'number':
        return this.safeNumber(v);
      case 'boolean':
        this.boolean(v);
        return true;
      case 'undefined':
        return member;
      case 'object': // null: containers never reach here
        this.nil();
        return true;
      default:
        return false;
    }
  }

  container(v: object, depth: number): boolean {
    const o = this.o as ResolvedSanitizeOptions;
    if (depth >= o.maxDepth) return false;
    if (Array.isArray(v)) {
      if (o.onObject !== undefined && o.onObject(v) !== undefined) return false;
      const n = v.length;
      if (n > o.maxArrayLength) return false;
      this.arrayHeader(n);
      for (let i = 0; i < n; i++) if (!this.value(v[i], depth + 1, false)) return false;
      return true;
    }
    const proto: unknown = Object.getPrototypeOf(v);
    if (proto === SnapshotTape.prototype) return this.tape((v as SnapshotTape).slots, depth);
    if (!isPlainPrototype(proto)) return false;
    if (o.onObject !== undefined && o.onObject(v) !== undefined) return false;
    // A fixmap header, widened afterwards in the rare case of 16 or more
    // members. `for…in` (with an own-property guarantee: the prototype is
    // Object.prototype or null, and encodeIfSafe refuses an enumerable
    // Object.prototype) walks V8's enum cache without allocating a key array.
    const at = this.reserveMapHeader();
    let keys = 0;
    let count = 0;
    for (const key in v) {
      if (++keys > o.maxArrayLength || this.refusesKey(key)) return false;
      const member = (v as Record<string, unknown>)[key];
      if (member === undefined) {
        if (!this.keepsLeftOutKey(key)) return false;
        continue;
      }
      if (!this.string(key, this.maxString)) return false;
      if (depth === 0 && this.hook !== undefined)
        this.hookFrom = key === 'inputs' ? 2 : key === 'output' ? 1 : NO_HOOK;
      if (!this.value(member, depth + 1, true)) return false;
      count++;
    }
    if (depth === 0) this.hookFrom = NO_HOOK;
    this.mapHeader(at, count);
    return true;
  }

  /**
   * A tape's value. Its containers are copies the snapshot made, never a
   * published value (those are kept by identity, so they appear as objects
   * here and make the value not safe): `onObject` is not asked.
   */
  tape(slots: unknown[], depth: number): boolean {
    const outer = this.ti;
    this.ti = 0;
    this.nodes--; // the root slot is the value `value()` already counted
    const ok = this.slot(slots, depth, false);
    this.ti = outer;
    return ok;
  }

  /** The tape value at `this.ti`; `member` as in {@link value}. */
  slot(slots: unknown[], depth: number, member: boolean): boolean {
    if (++this.nodes >= this.maxNodes) return false;
    if (depth < this.hookFrom) return this.slotValue(slots, depth, member);
    const v = slots[this.ti];
    if (typeof v === 'string' && this.knownString(v)) {
      this.ti++;
      return true;
    }
    const at = this.pos - this.start;
    return this.slotValue(slots, depth, member) && this.replaceIfLarge(at, v);
  }

  /** The tape value at `this.ti`, already counted. */
  slotValue(slots: unknown[], depth: number, member: boolean): boolean {
    const v = slots[this.ti++];
    if (typeof v === 'symbol') {
      if (v === TapeTag.Array) return this.tapeArray(slots, depth);
      if (v === TapeTag.Object) return this.tapeObject(slots, depth);
      return false; // a Map, a Set, a cycle or a symbol value
    }
    // An object on a tape was kept by identity: the Sanitizer decides.
    if (typeof v === 'object' && v !== null) return false;
    return this.leaf(v, member);
  }

  tapeArray(slots: unknown[], depth: number): boolean {
    const o = this.o as ResolvedSanitizeOptions;
    if (depth >= o.maxDepth) return false;
    const n = slots[this.ti++] as number;
    if (n > o.maxArrayLength) return false;
    this.arrayHeader(n);
    for (let i = 0; i < n; i++) if (!this.slot(slots, depth + 1, false)) return false;
    return true;
  }

  tapeObject(slots: unknown[], depth: number): boolean {
    const o = this.o as ResolvedSanitizeOptions;
    if (depth >= o.maxDepth) return false;
    const n = slots[this.ti++] as number;
    if (n > o.maxArrayLength) return false;
    const at = this.reserveMapHeader();
    let count = 0;
    for (let i = 0; i < n; i++) {
      const key = slots[this.ti++] as string;
      if (this.refusesKey(key)) return false;
      if (slots[this.ti] === undefined) {
        if (!this.keepsLeftOutKey(key)) return false;
        this.ti++;
        continue;
      }
      if (!this.string(key, this.maxString) || !this.slot(slots, depth + 1, true)) return false;
      count++;
    }
    this.mapHeader(at, count);
    return true;
  }

  /** A key the Sanitizer would change: `__proto__` (kept as data by a defined property) or a redacted one. */
  refusesKey(key: string): boolean {
    return key === '__proto__' || (this.o as ResolvedSanitizeOptions).isRedactedKey(key);
  }

  /**
   * For a member left out because its value is `undefined` (as the wire
   * encoder does): the key must still be one the Sanitizer keeps as is.
   */
  keepsLeftOutKey(key: string): boolean {
    return (
      key.length <= (this.o as ResolvedSanitizeOptions).maxStringLength &&
      (key as Es2024String).isWellFormed()
    );
  }

  /** A number the Sanitizer keeps as is: finite, not -0 (which it writes as 0). */
  safeNumber(v: number): boolean {
    if (!Number.isFinite(v) || (v === 0 && 1 / v < 0)) return false;
    this.number(v);
    return true;
  }
}

const writer = new SafeWriter();
