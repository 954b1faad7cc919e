import { DEFAULT_MAX_DEPTH, DEFAULT_MAX_NODES, MAX_DEPTH_LIMIT } from './value-limits.js';
import { arrayLength } from './array-length.js';
import {
  CONTAINER_NAMES,
  forInListsWalkedKeys,
  isCopiedKind,
  ObjectKind,
  objectKind,
  walkedKeys,
} from './value-kinds.js';
import { TRUNCATED_KEYS_MEMBER } from './markers.js';
import { SnapshotMarker } from './snapshot-marker.js';
import { materialize, SnapshotTape, TapeTag } from './snapshot-tape.js';

/** Bounds of {@link snapshot}. Values that are not positive integers fall back to the defaults (a snapshot never throws). */
export interface SnapshotLimits {
  /**
   * Containers nested deeper than this (the root is at depth 0) are replaced by a truncation marker.
   * @default 100
   */
  maxDepth?: number;
  /**
   * Values visited (containers and leaves) before the remaining entries of every open container are replaced by one truncation marker each.
   * @default 20_000
   */
  maxNodes?: number;
  /**
   * Plain containers for which this returns true are kept by identity instead of copied
   * (for example values published as objects, which the pool recognizes by identity).
   * It runs on the caller's turn, so it must be cheap; if it throws, the value is copied.
   */
  keep?: (value: object) => boolean;
}

/** Default {@link SnapshotLimits.maxDepth} (the one default of every walker, see `value-limits.ts`). */
export const SNAPSHOT_MAX_DEPTH = DEFAULT_MAX_DEPTH;
/** Default {@link SnapshotLimits.maxNodes}. */
export const SNAPSHOT_MAX_NODES = DEFAULT_MAX_NODES;

/** How many values the last counted snapshot visited; for tests and benches. */
export interface SnapshotStats {
  nodes: number;
}

const mapEntries = Map.prototype.entries;
const mapSize = Object.getOwnPropertyDescriptor(Map.prototype, 'size')?.get as (this: object) => number;
const setValues = Set.prototype.values;
const setSize = Object.getOwnPropertyDescriptor(Set.prototype, 'size')?.get as (this: object) => number;

/**
 * Runs on the CALLER's turn: must be cheap and never throw. Copies plain
 * containers (arrays, plain and null-prototype objects, Map, Set), sharing
 * immutable leaves (strings, numbers, …) and keeping everything else (class
 * instances, functions, Dates, Errors, typed arrays, Proxies that are not
 * plain containers…) by identity. Cost grows with the number of container
 * nodes, never with string bytes. Cycles stay cycles in the copy; a container
 * reached twice without a cycle (shared) is copied at each place, as the
 * encoder would expand it, within `maxNodes`. Past the limits it inserts a
 * visible truncation marker. Getters on plain objects are read (value at the
 * moment); a throwing getter becomes a marker, not an exception. Only own
 * enumerable string keys of objects are copied (symbol keys and
 * non-enumerable properties are left out, as the walker would ignore them).
 *
 * The copy is returned as containers; the tracer keeps it as a
 * {@link SnapshotTape} instead ({@link snapshotTape}), the same content.
 */
export function snapshot(value: unknown, limits?: SnapshotLimits): unknown {
  return materialize(take(value, limits, undefined));
}

/** {@link snapshot}, also reporting how many values it visited (the measure of its cost). */
export function snapshotWithStats(
  value: unknown,
  limits?: SnapshotLimits,
): { value: unknown; stats: SnapshotStats } {
  const stats = { nodes: 0 };
  return { value: materialize(take(value, limits, stats)), stats };
}

/**
 * The snapshot as the tracer keeps it: a {@link SnapshotTape} for a container,
 * the value itself for anything else. {@link materialize} turns
 * a tape into what {@link snapshot} returns.
 */
export function snapshotTape(value: unknown, limits?: SnapshotLimits): unknown {
  return take(value, limits, undefined);
}

function limit(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : fallback;
}

function take(value: unknown, limits: SnapshotLimits | undefined, stats: SnapshotStats | undefined): unknown {
  if (typeof value !== 'object' || value === null) {
    if (stats) stats.nodes = 1;
    return value;
  }
  // The tape writer recurses (no frame objects, no closures): deeper than
  // MAX_DEPTH_LIMIT the call stack could run out, so no limit goes past it.
  const maxDepth = Math.min(limit(limits?.maxDepth, SNAPSHOT_MAX_DEPTH), MAX_DEPTH_LIMIT);
  const maxNodes = limit(limits?.maxNodes, SNAPSHOT_MAX_NODES);
  // Tokens are written into a reused array and copied out at their exact
  // count: growing a fresh array token by token allocated about three times
  // the tape's size per call. A getter may run a traced call whose snapshot
  // is taken while this one is being written; that one gets its own array.
  const reuse = !scratchBusy;
  const slots = reuse ? scratch : [];
  scratchBusy = true;
  const path = reuse ? scratchPath : [];
  const state: TapeState = {
    slots,
    n: 0,
    path,
    nodes: 1,
    chars: 0,
    maxDepth,
    maxNodes,
    keep: limits?.keep,
    forIn: forInListsWalkedKeys(),
  };
  try {
    writeValue(state, value, 0);
  } finally {
    if (reuse) {
      scratchBusy = false;
      if (path.length > 0) path.length = 0; // only after an interrupted walk: clearing frees the array's memory
    }
  }
  if (stats) stats.nodes = state.nodes;
  const n = state.n;
  const only = slots[0];
  // A root kept by identity (a class instance, a marker) needs no tape.
  const result =
    n === 1 && typeof only === 'object' ? only : new SnapshotTape(slots.slice(0, n), state.chars);
  // The scratch array must not keep the user's values alive. (A loop: `fill`
  // took about twice as long for a few hundred slots.)
  if (reuse) for (let i = 0; i < n; i++) slots[i] = undefined;
  return result;
}

const scratch: unknown[] = [];
const scratchPath: object[] = [];
let scratchBusy = false;

function put(state: TapeState, token: unknown): void {
  state.slots[state.n++] = token;
}

function put2(state: TapeState, a: unknown, b: unknown): void {
  const slots = state.slots;
  slots[state.n++] = a;
  slots[state.n++] = b;
}

/**
 * The recursive tape writer's state: one small object per snapshot. `path`
 * holds the containers being copied, from the root down (a container's index
 * is its depth): a container met again on its own path is a cycle. Scanning
 * the path is cheaper than an identity map at the depths the recursive writer
 * allows, and allocates nothing per node.
 */
interface TapeState {
  /** Tokens written so far: `slots[0 .. n)`. */
  readonly slots: unknown[];
  n: number;
  readonly path: object[];
  nodes: number;
  /** Characters of the string values copied so far (the tape's size estimate, see `SnapshotTape.chars`). */
  chars: number;
  readonly maxDepth: number;
  readonly maxNodes: number;
  readonly keep: ((value: object) => boolean) | undefined;
  /** Whether `for…in` lists exactly an object's own enumerable keys (nothing enumerable is inherited). */
  readonly forIn: boolean;
}

/**
 * Which copied container `v` is (see `value-kinds.ts`), or undefined when the
 * snapshot keeps it by identity (every other kind, anything `keep` claims).
 */
function containerKind(v: object, keep: ((value: object) => boolean) | undefined): ObjectKind | undefined {
  try {
    const kind = objectKind(v);
    if (!isCopiedKind(kind)) return undefined;
    return keep !== undefined && keepSafely(keep, v) ? undefined : kind;
  } catch {
    // A revoked proxy throws from Array.isArray and every trap; keep it by
    // identity and let the walker describe it off the caller's turn.
    return undefined;
  }
}

/** Writes `v` (at `depth`) to the tape: its tokens when it is a plain container, else the value itself. */
function writeValue(state: TapeState, v: unknown, depth: number): void {
  if (typeof v !== 'object' || v === null) {
    if (typeof v === 'symbol') put2(state, TapeTag.Symbol, v);
    else {
      if (typeof v === 'string') state.chars += v.length;
      put(state, v);
    }
    return;
  }
  const path = state.path;
  for (let i = path.length - 1; i >= 0; i--) {
    if (path[i] === v) {
      put2(state, TapeTag.Cycle, i);
      return;
    }
  }
  const kind = containerKind(v, state.keep);
  if (kind === undefined) {
    put(state, v);
    return;
  }
  if (depth > state.maxDepth) {
    put(state, SnapshotMarker.truncatedValue('depth', CONTAINER_NAMES[kind as 0 | 1 | 2 | 3]));
    return;
  }
  path.push(v);
  switch (kind) {
    case ObjectKind.Array:
      writeArray(state, v as unknown[], depth);
      break;
    case ObjectKind.Object:
      writeObject(state, v as Record<string, unknown>, depth);
      break;
    case ObjectKind.Map:
      writeMap(state, v as Map<unknown, unknown>, depth);
      break;
    default:
      writeSet(state, v as Set<unknown>, depth);
  }
  path.pop();
}

function writeArray(state: TapeState, src: unknown[], depth: number): void {
  const slots = state.slots;
  let n: number;
  try {
    n = arrayLength(src);
  } catch (thrown) {
    put(state, SnapshotMarker.unreadable(thrown, 'keys')); // a proxy's length trap
    return;
  }
  put2(state, TapeTag.Array, n);
  const countAt = state.n - 1;
  const child = depth + 1;
  for (let i = 0; i < n; i++) {
    if (state.nodes >= state.maxNodes) {
      put(state, SnapshotMarker.truncatedTail(n - i));
      slots[countAt] = i + 1;
      return;
    }
    state.nodes++;
    let v: unknown;
    try {
      v = src[i];
    } catch (thrown) {
      v = SnapshotMarker.unreadable(thrown);
    }
    if (typeof v === 'string') {
      state.chars += v.length;
      put(state, v);
    } else if (typeof v === 'number' || typeof v === 'boolean') put(state, v);
    else writeValue(state, v, child);
  }
}

/**
 * An object's own enumerable string keys, in order, as tokens. `for…in`
 * walks V8's enum cache without allocating a key array per object (a
 * snapshot of an LLM reply has dozens of objects); it lists inherited keys
 * too, so it is used only while Object.prototype has no enumerable member
 * (the prototype is Object.prototype or null here), else `Object.keys`.
 */
function writeObject(state: TapeState, src: Record<string, unknown>, depth: number): void {
  const slots = state.slots;
  const start = state.n;
  put2(state, TapeTag.Object, 0);
  const child = depth + 1;
  let count = 0;
  try {
    if (state.forIn) {
      for (const key in src) {
        if (state.nodes >= state.maxNodes) {
          truncateObject(state, src, start, count);
          return;
        }
        writeMember(state, src, key, child);
        count++;
      }
    } else {
      const keys = walkedKeys(src);
      for (const key of keys) {
        if (state.nodes >= state.maxNodes) {
          truncateObject(state, src, start, count);
          return;
        }
        writeMember(state, src, key, child);
        count++;
      }
    }
  } catch (thrown) {
    // Listing the keys threw (a proxy's ownKeys or descriptor trap): the whole object is unreadable.
    state.n = start;
    put(state, SnapshotMarker.unreadable(thrown, 'keys'));
    return;
  }
  slots[start + 1] = count;
}

function writeMember(state: TapeState, src: Record<string, unknown>, key: string, child: number): void {
  state.nodes++;
  let v: unknown;
  try {
    v = src[key];
  } catch (thrown) {
    v = SnapshotMarker.unreadable(thrown);
  }
  // Leaves, the common case, without a call.
  if (typeof v === 'string') {
    state.chars += v.length;
    put2(state, key, v);
  } else if (typeof v === 'number' || typeof v === 'boolean') put2(state, key, v);
  else {
    put(state, key);
    writeValue(state, v, child);
  }
}

/** Ends an object cut by `maxNodes` after `count` members: one marker member tells how many were left out. */
function truncateObject(state: TapeState, src: Record<string, unknown>, start: number, count: number): void {
  put2(state, TRUNCATED_KEYS_MEMBER, SnapshotMarker.truncatedTail(walkedKeys(src).length - count));
  state.slots[start + 1] = count + 1;
}

function writeMap(state: TapeState, src: Map<unknown, unknown>, depth: number): void {
  const slots = state.slots;
  let n: number;
  let iterator: Iterator<[unknown, unknown]>;
  try {
    iterator = mapEntries.call(src) as Iterator<[unknown, unknown]>;
    n = mapSize.call(src);
  } catch (thrown) {
    put(state, SnapshotMarker.unreadable(thrown, 'keys'));
    return;
  }
  put2(state, TapeTag.Map, 0);
  const countAt = state.n - 1;
  const child = depth + 1;
  let count = 0;
  for (let i = 0; i < n; i++) {
    if (state.nodes >= state.maxNodes) {
      put2(state, TRUNCATED_KEYS_MEMBER, SnapshotMarker.truncatedTail(n - i));
      count++;
      break;
    }
    state.nodes++;
    const step = iterator.next();
    if (step.done) break;
    state.nodes++;
    const [k, v] = step.value;
    writeValue(state, k, child);
    writeValue(state, v, child);
    count++;
  }
  slots[countAt] = count;
}

function writeSet(state: TapeState, src: Set<unknown>, depth: number): void {
  const slots = state.slots;
  let n: number;
  let iterator: Iterator<unknown>;
  try {
    iterator = setValues.call(src);
    n = setSize.call(src);
  } catch (thrown) {
    put(state, SnapshotMarker.unreadable(thrown, 'keys'));
    return;
  }
  put2(state, TapeTag.Set, 0);
  const countAt = state.n - 1;
  const child = depth + 1;
  let count = 0;
  for (let i = 0; i < n; i++) {
    if (state.nodes >= state.maxNodes) {
      put(state, SnapshotMarker.truncatedTail(n - i));
      count++;
      break;
    }
    state.nodes++;
    const step = iterator.next();
    if (step.done) break;
    writeValue(state, step.value, child);
    count++;
  }
  slots[countAt] = count;
}

function keepSafely(keep: (value: object) => boolean, value: object): boolean {
  try {
    return keep(value) === true;
  } catch {
    return false;
  }
}
