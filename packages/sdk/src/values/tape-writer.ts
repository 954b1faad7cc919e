import { arrayLength } from './array-length.js';
import { CONTAINER_NAMES, isCopiedKind, ObjectKind, objectKind, walkedKeys } from './value-kinds.js';
import { TRUNCATED_KEYS_MEMBER } from './markers.js';
import { SnapshotMarker } from './snapshot-marker.js';
import { TapeTag } from './snapshot-tape.js';

/*
 * The snapshot's tape writer: copies plain containers into tokens on a flat
 * array, recursively (no frame objects, no closures), bounded by the limits
 * in its state. `snapshot.ts` sets the state up and turns the tokens into a
 * tape.
 */

const mapEntries = Map.prototype.entries;
const mapSize = Object.getOwnPropertyDescriptor(Map.prototype, 'size')?.get as (this: object) => number;
const setValues = Set.prototype.values;
const setSize = Object.getOwnPropertyDescriptor(Set.prototype, 'size')?.get as (this: object) => number;

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
export interface TapeState {
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
  /**
   * When asked for: the first slot and the source of each copied array below
   * the root and each plain object that is an array's item (see `SnapshotTape.origins`).
   */
  readonly origins: unknown[] | undefined;
  /** Set by `writeArray` for the item it hands to `writeValue`. */
  arrayItem: boolean;
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
export function writeValue(state: TapeState, v: unknown, depth: number): void {
  const arrayItem = state.arrayItem;
  state.arrayItem = false;
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
  // Arrays (a conversation, a tool list) and their items (its messages) are what calls pass again and again;
  // an object member (the call's own options object) is most often made anew per call, and covered by its array.
  if (
    state.origins !== undefined &&
    depth > 0 &&
    (kind === ObjectKind.Array || (kind === ObjectKind.Object && arrayItem))
  )
    state.origins.push(state.n, v);
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
    else {
      state.arrayItem = true;
      writeValue(state, v, child);
    }
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
    dropOriginsFrom(state, start);
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

/** Forgets the origins of slots from `start` on (they were written over), so the list stays in slot order. */
function dropOriginsFrom(state: TapeState, start: number): void {
  const origins = state.origins;
  if (origins === undefined) return;
  let n = origins.length;
  while (n > 0 && (origins[n - 2] as number) >= start) n -= 2;
  origins.length = n;
}

function keepSafely(keep: (value: object) => boolean, value: object): boolean {
  try {
    return keep(value) === true;
  } catch {
    return false;
  }
}
