import { DEFAULT_MAX_DEPTH, DEFAULT_MAX_NODES, MAX_DEPTH_LIMIT } from './value-limits.js';
import { forInListsWalkedKeys } from './value-kinds.js';
import { materialize, NO_ORIGINS, SnapshotTape } from './snapshot-tape.js';
import { type TapeState, writeValue } from './tape-writer.js';

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
 *
 * `withOrigins`: the tape also names the caller's container each copied
 * array below the root and each array's plain-object item came from (`SnapshotTape.origins`),
 * so the encoder can reuse what it wrote for the same content before. It
 * keeps those containers alive until the tape is dropped.
 */
export function snapshotTape(value: unknown, limits?: SnapshotLimits, withOrigins = false): unknown {
  return take(value, limits, undefined, withOrigins);
}

function limit(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : fallback;
}

function take(
  value: unknown,
  limits: SnapshotLimits | undefined,
  stats: SnapshotStats | undefined,
  withOrigins = false,
): unknown {
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
    origins: withOrigins ? [] : undefined,
    arrayItem: false,
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
    n === 1 && typeof only === 'object'
      ? only
      : new SnapshotTape(
          slots.slice(0, n),
          state.chars,
          state.origins === undefined || state.origins.length === 0 ? NO_ORIGINS : state.origins,
        );
  // The scratch array must not keep the user's values alive. (A loop: `fill`
  // took about twice as long for a few hundred slots.)
  if (reuse) for (let i = 0; i < n; i++) slots[i] = undefined;
  return result;
}

const scratch: unknown[] = [];
const scratchPath: object[] = [];
let scratchBusy = false;
