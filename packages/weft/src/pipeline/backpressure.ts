import type { CallRecord } from '../calls/call-record.js';
import { SnapshotTape } from '../values/snapshot-tape.js';
import type { RecordKind } from './call-item.js';

/**
 * The pipeline's memory decisions, as pure functions (like
 * `transport/delivery-rules.ts`).
 *
 * Calls wait in the pipeline's intake as structural snapshots. Each is
 * counted by an estimate read in O(1) — the tape's `bytes`, summed while the
 * snapshot was taken (string lengths are O(1) to read) — so nothing is walked
 * to bound them. They move on to the pool (walk, encode, hand to the
 * batcher) while the batcher has room; while it has none (the server is
 * healthy but slower than the burst), they stay snapshots: they share the
 * caller's strings, cost no encoding, and never spill.
 *
 * ```
 * submit ─► intake (snapshots, counted) ─┬─ room in the batcher ─────────────► pool ─► batcher
 *                                        ├─ no room, under maxWaitingBytes ──► hold until room
 *                                        └─ over maxWaitingBytes ────────────► pool anyway; the
 *                                             batcher's hard bound sends the excess to the outbox
 * ```
 */

/** What a record's fixed fields (ids, names, timestamps, summary) and its job cost, beside its values. */
export const RECORD_OVERHEAD_BYTES = 512;

/** The estimate of one snapshot part: a tape's own estimate, a string's length, a constant for anything else. */
export function snapshotBytes(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (SnapshotTape.is(value)) return value.bytes;
  return 16;
}

/** The bytes a record of `call` holds while it waits for the pipeline (an estimate read in O(1)). */
export function recordBytes(call: CallRecord, kind: RecordKind): number {
  const inputs = kind === 'end' ? 0 : snapshotBytes(call.inputs);
  const output = kind === 'start' ? 0 : snapshotBytes(call.output);
  return RECORD_OVERHEAD_BYTES + inputs + output;
}

/** What the intake knows when it decides about its next call. */
export interface IntakeState {
  /** Bytes the batcher still wants (`Infinity` for a sink that never pushes back). */
  room: number;
  /** Bytes of calls handed to the pool and not yet to the batcher. */
  moving: number;
  /** Bytes of all calls in the pipeline (held, moving). */
  waiting: number;
  /** Encoded records past the batcher's bound, waiting for their turn to go to the outbox. */
  spillBacklog: number;
  /** The bound on `waiting`. */
  maxWaitingBytes: number;
}

/**
 * Past `maxWaitingBytes`, calls move on only while fewer encoded bytes than
 * this wait to be spilled: the outbox takes a bounded slice per turn, and a
 * call encoded faster than that would wait as an encoded copy (no longer
 * sharing the caller's strings) instead of as its snapshot.
 */
export const MAX_SPILL_BACKLOG_BYTES = 8 * 1024 * 1024;

/**
 * `move` the next call (of `bytes`) on to the pool, or `hold` it until the
 * batcher has room. Past `maxWaitingBytes` calls move on as fast as the
 * outbox takes the excess (the batcher's own bound sends it there); one call
 * at a time always moves while there is any room, so a call larger than the
 * room is not held forever.
 */
export function intakeVerdict(bytes: number, state: IntakeState): 'move' | 'hold' {
  // Counting the calls already moving: they are encoded a slice at a time, after this decision.
  if (state.waiting > state.maxWaitingBytes && state.moving + state.spillBacklog < MAX_SPILL_BACKLOG_BYTES)
    return 'move';
  if (state.moving + bytes <= state.room) return 'move';
  if (state.moving === 0 && state.room > 0) return 'move';
  return 'hold';
}
