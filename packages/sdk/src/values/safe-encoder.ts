import {
  type ResolvedSanitizeOptions,
  resolveSanitizeOptions,
  type SanitizeOptions,
} from './sanitize-options.js';
import { forInListsWalkedKeys } from './value-kinds.js';
import type { WrittenValueHook } from './written-value-hook.js';
import { arenaOf, keepSpare } from '../memory/index.js';
import { NO_HOOK, SafeWriter } from './safe-writer.js';

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
  return encode(value, options, budget, hook, false);
}

/**
 * {@link encodeIfSafe} for a call record (the protocol's `CallItem`): its
 * `id`, `traceId` and `parentId` are written as compact call ids (msgpack
 * ext 0x55, 18 bytes where the string takes 38) when they are lowercase
 * UUIDs, as the record's head is written — no second pass over the bytes.
 */
export function encodeRecordIfSafe(
  record: object,
  options: SanitizeOptions,
  budget: number,
  hook: WrittenValueHook | undefined,
): Uint8Array | undefined {
  return encode(record, options, budget, hook, true);
}

function encode(
  value: unknown,
  options: SanitizeOptions | undefined,
  budget: number,
  hook: WrittenValueHook | undefined,
  compactIds: boolean,
): Uint8Array | undefined {
  const o = resolveSanitizeOptions(options);
  if (o.redact !== undefined || !forInListsWalkedKeys()) return undefined;
  writer.compactIds = compactIds;
  writer.hookFrom = NO_HOOK;
  return write(value, 0, o, Math.min(o.maxNodes, budget), o.maxStringLength, hook);
}

/**
 * A call's output, at its depth in the record (1), checked against `o` (see
 * `encodeOutput`), with `noting` asked about the values below it; strings
 * over `maxString` and outputs over `maxBytes` are refused. The bytes are a
 * view into an arena, like a record's: give them back with
 * {@link releaseEncoded} once they are copied into the record.
 */
export function encodeOutputIfSafe(
  value: object,
  o: ResolvedSanitizeOptions,
  noting: WrittenValueHook,
  maxString: number,
  maxBytes: number,
): Uint8Array | undefined {
  writer.compactIds = false;
  // The output is the record's `output` member (depth 1); the values below it are asked about.
  writer.hookFrom = 2;
  const bytes = write(value, 1, o, o.maxNodes, Math.min(o.maxStringLength, maxString), noting);
  if (bytes !== undefined && bytes.byteLength > maxBytes) {
    releaseEncoded(bytes);
    return undefined;
  }
  return bytes;
}

/** Values written by the last {@link encodeOutputIfSafe} (or record). */
export function writtenNodes(): number {
  return writer.nodes;
}

/** Where the value being written starts in the writer's buffer (a hook's offsets are relative to it). */
export function writtenStart(): number {
  return writer.start;
}

function write(
  value: unknown,
  depth: number,
  o: ResolvedSanitizeOptions,
  maxNodes: number,
  maxString: number,
  hook: WrittenValueHook | undefined,
): Uint8Array | undefined {
  // A getter read while a value is written may finish a traced call, whose output then takes the tape.
  if (writing) return undefined;
  writing = true;
  const w = writer;
  w.o = o;
  w.hook = hook;
  w.threshold = hook === undefined ? 0 : hook.thresholdBytes;
  w.nodes = 0;
  w.maxNodes = maxNodes;
  w.maxString = maxString;
  const start = w.pos;
  w.start = start;
  let ok: boolean;
  try {
    ok = w.value(value, depth, false);
  } catch {
    // A proxy trap or a hook threw: let the Sanitizer (or the snapshot) handle and report it.
    ok = false;
  }
  writing = false;
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

const writer = new SafeWriter();
let writing = false;
