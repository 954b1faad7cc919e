import { COMPACT_CALL_ID_BYTES, MsgpackWriter, writeCompactCallId } from '@weft/protocol';
import type { ResolvedSanitizeOptions } from './sanitize-options.js';
import { isPlainPrototype } from './value-kinds.js';
import { NO_ORIGINS, SnapshotTape, TapeTag } from './snapshot-tape.js';
import { cacheContainer, cachedContainer, seenBefore } from './container-cache.js';
import type { WrittenValueHook } from './written-value-hook.js';
import { EncodedValue, replayAsked } from './encoded-value.js';
import { type Arena, EMPTY_ARENA, keepSpare, takeArena } from '../memory/index.js';

/** `hookFrom` when no value is asked about. */
export const NO_HOOK = Number.POSITIVE_INFINITY;

/** What a container written without a hook replays. */
const NOTHING_NOTED: readonly unknown[] = Object.freeze([]);

// `isWellFormed` is ES2024 (Node 20 has it); the repo's lib is ES2023.
type Es2024String = string & { isWellFormed(): boolean };

/**
 * The walk that decides what is safe, over the protocol's msgpack writer.
 * One per process: encoding is synchronous, so no two records are ever
 * written at once (and one subclass keeps the writer's field accesses
 * monomorphic).
 */
export class SafeWriter extends MsgpackWriter {
  arena: Arena = EMPTY_ARENA;
  o: ResolvedSanitizeOptions | undefined;
  nodes = 0;
  maxNodes = 0;
  /** `maxStringLength` of the record being written: longer strings and keys are not safe. */
  maxString = 0;
  /** The next slot of the tape being read. */
  ti = 0;
  /** The origins of the tape being read (see `SnapshotTape.origins`), and where the next one is in them. */
  origins: readonly unknown[] = NO_ORIGINS;
  oi = 0;
  hook: WrittenValueHook | undefined;
  /** Depth from which values are asked about: 2 in the record's `inputs` (its members), 1 in its `output`. */
  hookFrom = NO_HOOK;
  /** The hook's `thresholdBytes` (0 without a hook): a leaf that encodes shorter is never asked about. */
  threshold = 0;
  /** Whether the root's `id`, `traceId` and `parentId` are call ids, written compactly (a call record). */
  compactIds = false;

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
    if (typeof v === 'object' && v !== null)
      return depth >= this.hookFrom ? this.hookedValue(v, depth, member) : this.container(v, depth);
    // A leaf the hook can never replace is written in line (see `item`).
    if (depth >= this.hookFrom && !this.neverAsked(v)) return this.hookedValue(v, depth, member);
    return this.leaf(v, member);
  }

  /** Whether leaf `v` encodes shorter than the hook's threshold, whatever it is (3 bytes per code unit and a 5-byte header for a string, at most 9 for anything else). */
  neverAsked(v: unknown): boolean {
    return typeof v === 'string' ? v.length * 3 + 5 < this.threshold : this.threshold > 9;
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
    if (proto === SnapshotTape.prototype) return this.tape(v as SnapshotTape, depth);
    if (proto === EncodedValue.prototype) return this.encoded(v as EncodedValue, depth);
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
      if (depth === 0) {
        if (this.compactIds && isIdKey(key) && this.compactId(member)) {
          count++;
          continue;
        }
        if (this.hook !== undefined) this.hookFrom = key === 'inputs' ? 2 : key === 'output' ? 1 : NO_HOOK;
      }
      if (!this.value(member, depth + 1, true)) return false;
      count++;
    }
    if (depth === 0) this.hookFrom = NO_HOOK;
    this.mapHeader(at, count);
    return true;
  }

  /** Writes `v` as a compact call id (see `writeCompactCallId`) when it is a lowercase UUID; false, having written nothing, otherwise. */
  compactId(v: unknown): boolean {
    if (typeof v !== 'string') return false;
    this.ensure(COMPACT_CALL_ID_BYTES);
    if (!writeCompactCallId(v, this.buf, this.pos)) return false;
    this.pos += COMPACT_CALL_ID_BYTES;
    this.nodes++;
    return true;
  }

  /**
   * An output written on the caller's turn: its bytes copied, and the values
   * it noted asked about again with this record's hook. Not safe (the
   * Sanitizer takes the record) when the rules or the hook's threshold are
   * not the ones it was written for, or the record's nodes would pass the limit.
   */
  encoded(v: EncodedValue, depth: number): boolean {
    const o = this.o as ResolvedSanitizeOptions;
    // The root was counted by `value()`.
    const nodes = this.nodes + v.nodes - 1;
    if (nodes >= this.maxNodes || !v.fits(o)) return false;
    const hook = this.hook;
    // Below the root every value is asked about (the output's case), or none is.
    const asks = hook !== undefined && this.hookFrom <= depth + 1;
    if (asks && v.threshold > hook.thresholdBytes && v.bytes.byteLength >= hook.thresholdBytes) return false;
    if (!asks && hook !== undefined && this.hookFrom !== NO_HOOK && v.asked.length > 0) return false;
    this.nodes = nodes;
    const at = this.pos - this.start;
    this.bytes(v.bytes);
    if (asks && v.asked.length > 0) replayAsked(this, at, v, hook);
    return true;
  }

  /**
   * A tape's value. Its containers are copies the snapshot made, never a
   * published value (those are kept by identity, so they appear as objects
   * here and make the value not safe): `onObject` is not asked.
   */
  tape(tape: SnapshotTape, depth: number): boolean {
    const outer = this.ti;
    const outerOrigins = this.origins;
    const outerOi = this.oi;
    this.ti = 0;
    this.origins = tape.origins;
    this.oi = 0;
    // The root slot is the value `value()` already counted, and already asks
    // the hook about as a whole: asking again would replace its stand-in by
    // another (a marker longer than a low threshold).
    const ok = this.slotValue(tape.slots, depth, false);
    this.ti = outer;
    this.origins = outerOrigins;
    this.oi = outerOi;
    return ok;
  }

  /** The tape value at `this.ti`; `member` as in {@link value}. */
  slot(slots: unknown[], depth: number, member: boolean): boolean {
    if (++this.nodes >= this.maxNodes) return false;
    if (this.origins[this.oi] === this.ti) return this.originSlot(slots, depth, member);
    return this.countedSlot(slots, depth, member);
  }

  /** {@link slot} once counted. */
  countedSlot(slots: unknown[], depth: number, member: boolean): boolean {
    if (depth < this.hookFrom) return this.slotValue(slots, depth, member);
    const v = slots[this.ti];
    if (typeof v === 'string' && this.knownString(v)) {
      this.ti++;
      return true;
    }
    const at = this.pos - this.start;
    return this.slotValue(slots, depth, member) && this.replaceIfLarge(at, v);
  }

  /**
   * A slot where one of the caller's containers starts (counted): the bytes
   * written for the same tokens before when it has them (see
   * `container-cache.ts`), else written, and cached from its second sighting.
   */
  originSlot(slots: unknown[], depth: number, member: boolean): boolean {
    const origin = this.origins[this.oi + 1] as object;
    this.oi += 2;
    const at = this.ti;
    const o = this.o as ResolvedSanitizeOptions;
    const hook = this.hook;
    const hookFrom = this.hookFrom;
    const entry = cachedContainer(origin, slots, at, o, hook, depth, hookFrom);
    if (entry !== undefined && this.nodes + entry.nodes < this.maxNodes) {
      this.bytes(entry.bytes);
      if (entry.replay.length > 0) (hook as WrittenValueHook).replay(entry.replay);
      this.nodes += entry.nodes;
      this.ti = at + entry.tokens.length;
      const origins = this.origins;
      while (this.oi < origins.length && (origins[this.oi] as number) < this.ti) this.oi += 2;
      return true;
    }
    if (!seenBefore(origin)) return this.countedSlot(slots, depth, member);
    const from = this.pos - this.start;
    const nodes = this.nodes;
    const mark = hook === undefined ? 0 : hook.checkpoint();
    if (!this.countedSlot(slots, depth, member)) return false;
    const written = this.buf.subarray(this.start + from, this.pos);
    const bytes = new Uint8Array(written.byteLength);
    bytes.set(written);
    cacheContainer(origin, {
      tokens: slots.slice(at, this.ti),
      bytes,
      nodes: this.nodes - nodes,
      depth,
      hookFrom,
      options: o,
      hook,
      replay: hook === undefined ? NOTHING_NOTED : hook.since(mark),
    });
    return true;
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
    for (let i = 0; i < n; i++) if (!this.item(slots, depth + 1, false)) return false;
    return true;
  }

  /**
   * {@link slot}, with the leaves the hook can never replace (most of a
   * record's values: numbers, booleans, null and strings that encode
   * shorter than its threshold) written in line, without the calls of the
   * general path. A leaf's slot is never an origin (origins are containers).
   */
  item(slots: unknown[], depth: number, member: boolean): boolean {
    const v = slots[this.ti];
    if (typeof v === 'string') {
      // At most 3 bytes per code unit and a 5-byte header (see `knownString`).
      if (depth < this.hookFrom || v.length * 3 + 5 < this.threshold) {
        if (++this.nodes >= this.maxNodes) return false;
        this.ti++;
        return this.string(v, this.maxString);
      }
    } else if (typeof v === 'number') {
      // A number encodes in at most 9 bytes.
      if (depth < this.hookFrom || this.threshold > 9) {
        if (++this.nodes >= this.maxNodes) return false;
        this.ti++;
        return this.safeNumber(v);
      }
    }
    return this.slot(slots, depth, member);
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
      if (!this.string(key, this.maxString) || !this.item(slots, depth + 1, true)) return false;
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

/** A call record's members that hold call ids. */
function isIdKey(key: string): boolean {
  return key === 'id' || key === 'traceId' || key === 'parentId';
}
